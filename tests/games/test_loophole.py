"""Loophole: the source's eight figures, White's mirror cases, errors, help and playouts.

The board as drawn is tested in test_loophole_rhombus.py.
"""

from __future__ import annotations

import json
import random
from collections import Counter, deque
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbm.bench.loophole import run as run_bench
from pbm.games.base import Game, IllegalMove, InvalidMove
from pbm.games.loophole.board import find, named
from pbm.games.loophole.game import (
    GAME,
    HELP_DIAGRAMS,
    LoopholeState,
    Placement,
    cells_from_rows,
    new_state,
    position,
    status_lines,
)
from pbm.games.loophole.rhombus import board_text
from tests.games.loophole_figures import figure_rows
from tests.games.playout import random_playout, replay

BLACK, WHITE = 0, 1
NODES = ("C", "W1", "W2")


def loops(*sets: str) -> set[frozenset[str]]:
    """loops("C", "W1 W2") -> {{C}, {W1, W2}}."""
    return {frozenset(s.split()) for s in sets}


def names_of(state: LoopholeState, seat: int) -> set[frozenset[str]]:
    """The module's loops of `seat`, as sets of node names."""
    masks = state.loops(seat)
    return {frozenset(n for k, n in enumerate(NODES) if mask >> k & 1) for mask in masks}


# ----- an independent from-scratch loop finder --------------------------------------------
# Written straight from RULINGS.md with its own geometry and a flood fill, sharing no code
# with the rule module, so that the module's incremental union-find is checked against it.

SIZE = 19
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
WINDOW = {(c, r) for c in range(12, 15) for r in range(4, 7)} | {
    (c, r) for c in range(4, 7) for r in range(12, 15)
}
# Per player: its stone character, and per node the two rims (an edge name or a rim cell).
SIDES = {
    BLACK: ("#", {"C": ("top", "bottom"), "W1": ((12, 3), (12, 7)), "W2": ((4, 11), (4, 15))}),
    WHITE: ("O", {"C": ("left", "right"), "W1": ((11, 4), (15, 4)), "W2": ((3, 12), (7, 12))}),
}


def edges_touched(col: int, row: int, seat: int) -> list[str]:
    if seat == BLACK:
        return [e for e, on in (("top", row == 0), ("bottom", row == SIZE - 1)) if on]
    return [e for e, on in (("left", col == 0), ("right", col == SIZE - 1)) if on]


def flood_labels(rows: list[str], seat: int) -> dict:
    """Component label of every stone of `seat` and of its two edges, by breadth-first fill."""
    char, _ = SIDES[seat]
    graph: dict = {"top": [], "bottom": []} if seat == BLACK else {"left": [], "right": []}
    for row in range(SIZE):
        for col in range(SIZE):
            if rows[row][col] != char:
                continue
            graph.setdefault((col, row), [])
            for dc, dr in STEPS:
                c, r = col + dc, row + dr
                if 0 <= c < SIZE and 0 <= r < SIZE and rows[r][c] == char:
                    graph[(col, row)].append((c, r))
            for edge in edges_touched(col, row, seat):
                graph[(col, row)].append(edge)
                graph[edge].append((col, row))
    label: dict = {}
    for start in graph:
        if start in label:
            continue
        label[start] = start
        queue = deque([start])
        while queue:
            for nxt in graph[queue.popleft()]:
                if nxt not in label:
                    label[nxt] = start
                    queue.append(nxt)
    return label


def scratch_loops(rows: list[str], seat: int) -> set[frozenset[str]]:
    """Every node set whose node-edges form one closed trail (connected, all degrees even)."""
    label = flood_labels(rows, seat)
    _, rims = SIDES[seat]
    ends = {node: (label[a], label[b]) for node, (a, b) in rims.items()}
    found = set()
    for size in (1, 2, 3):
        for subset in combinations(NODES, size):
            chosen = [ends[n] for n in subset]
            degree = Counter(v for edge in chosen for v in edge)
            if any(d % 2 for d in degree.values()):
                continue
            reached, todo = {chosen[0][0]}, [chosen[0][0]]
            while todo:
                v = todo.pop()
                for a, b in chosen:
                    for x, y in ((a, b), (b, a)):
                        if x == v and y not in reached:
                            reached.add(y)
                            todo.append(y)
            if reached == set(degree):
                found.add(frozenset(subset))
    return found


def rows_of(state: LoopholeState) -> list[str]:
    return GAME.encode(state)["board"]


# ----- figures -------------------------------------------------------------------------------


def mirror(rows: list[str]) -> list[str]:
    """Transpose and swap colours: Black's position becomes White's, W1 and W2 trade places.

    The transpose maps the six hex directions onto themselves, the windows onto each other
    and Black's edges and rims onto White's, so the start position is its own mirror.
    """
    swap = {"#": "O", "O": "#"}
    return ["".join(swap.get(rows[c][r], rows[c][r]) for c in range(SIZE)) for r in range(SIZE)]


MIRROR_NODE = {"C": "C", "W1": "W2", "W2": "W1"}


def mirrored(sets: set[frozenset[str]]) -> set[frozenset[str]]:
    return {frozenset(MIRROR_NODE[n] for n in s) for s in sets}


# Black's loops in each figure, as RULINGS.md lists them.
FIGURE_LOOPS = {
    1: loops(),
    2: loops("C", "W1"),
    3: loops("W1 W2"),
    4: loops("C W2"),
    5: loops("C W1 W2"),
    6: loops("W1"),
    7: loops("C", "W1", "C W1"),
    8: loops("C", "W1 W2", "C W1 W2"),
}
FIGURE_WINS = {2, 7, 8}


@pytest.mark.parametrize("number", sorted(FIGURE_LOOPS))
def test_figure_transcription_keeps_windows_and_rim_stones(number):
    rows = figure_rows(number)
    start = rows_of(GAME.start({}, 0))
    for r in range(SIZE):
        for c in range(SIZE):
            if start[r][c] != ".":  # windows and the 24 rim stones are in every figure
                where = f"{'ABCDEFGHIJKLMNOPQRS'[c]}{r + 1}"
                assert rows[r][c] == start[r][c], f"figure {number} at {where}"
    assert all(ch in ".#-" for row in rows for ch in row if ch != "O")
    assert sum(row.count("O") for row in rows) == 12  # the figures add Black stones only


@pytest.mark.parametrize("number", sorted(FIGURE_LOOPS))
def test_figure_loops_are_exactly_the_rulings(number):
    state = new_state(cells_from_rows(figure_rows(number)))
    assert names_of(state, BLACK) == FIGURE_LOOPS[number]
    assert names_of(state, WHITE) == set()
    assert scratch_loops(figure_rows(number), BLACK) == FIGURE_LOOPS[number]
    won = number in FIGURE_WINS
    assert (state.winner == BLACK) == won
    assert (GAME.result(state) is not None) == won


@pytest.mark.parametrize("number", sorted(FIGURE_LOOPS))
def test_figure_mirrored_for_white(number):
    rows = mirror(figure_rows(number))
    state = new_state(cells_from_rows(rows))
    assert names_of(state, WHITE) == mirrored(FIGURE_LOOPS[number])
    assert names_of(state, BLACK) == set()
    assert scratch_loops(rows, WHITE) == mirrored(FIGURE_LOOPS[number])
    assert (state.winner == WHITE) == (number in FIGURE_WINS)


def test_start_position_is_its_own_mirror():
    start = rows_of(GAME.start({}, 0))
    assert mirror(start) == start


def test_figure_6_two_loops_through_the_same_node_do_not_win():
    state = new_state(cells_from_rows(figure_rows(6)))
    assert state.winner == -1
    assert GAME.result(state) is None
    assert GAME.to_move(state) == frozenset({state.seat_to_move})


def test_figure_7_completed_by_a_move_wins_and_names_the_loops():
    rows = figure_rows(7)
    cells = bytearray(cells_from_rows(rows))
    cells[named("K19")] = 0  # K16-K19 joins W1's lower rim to the bottom edge
    before = new_state(bytes(cells))
    assert names_of(before, BLACK) == loops("W1")
    after = GAME.play(before, BLACK, GAME.parse(before, BLACK, "K19"))
    assert GAME.to_move(after) == frozenset()
    outcome = GAME.result(after)
    assert outcome.winners == frozenset({BLACK})
    assert outcome.reason == (
        "Black has three distinct loops: single node loop through C, single node loop"
        " through W1, double node loop through C and W1."
    )


# ----- hand-made positions: White's mirror cases, window corners, rims ---------------------

# Black's cells of one loop each (the window corner cells are P4, L8, H12 and D16).
BLACK_W1_RIGHT = "P4 Q4 Q5 Q6 Q7 P8"
BLACK_W1_LEFT = "L4 K5 K6 K7 K8 L8"
BLACK_W2_RIGHT = "H12 I12 I13 I14 I15 H16"
BLACK_W2_LEFT = "D12 C13 C14 C15 C16 D16"
WHITE_W1_BELOW = "L8 L9 M9 N9 O9 P8"
WHITE_W1_ABOVE = "L4 M3 N3 O3 P3 P4"
WHITE_W2_ABOVE = "D12 E11 F11 G11 H11 H12"
WHITE_W2_BELOW = "D16 D17 E17 F17 G17 H16"
WHITE_ROW_10 = " ".join(f"{c}10" for c in "ABCDEFGHIJKLMNOPQRS")
BLACK_COLUMN_J = " ".join(f"J{r}" for r in range(1, 20))


def assert_loops(state: LoopholeState, seat: int, expected: set[frozenset[str]]) -> None:
    assert names_of(state, seat) == expected
    assert scratch_loops(rows_of(state), seat) == expected


@pytest.mark.parametrize(
    "black, expected",
    [
        (BLACK_COLUMN_J, loops("C")),
        (BLACK_W1_RIGHT, loops("W1")),
        (BLACK_W1_LEFT, loops("W1")),
        (BLACK_W2_RIGHT, loops("W2")),
        (BLACK_W2_LEFT, loops("W2")),
        (f"{BLACK_W1_LEFT} {BLACK_W1_RIGHT}", loops("W1")),  # two loops, one node set
    ],
)
def test_black_single_node_loops(black, expected):
    assert_loops(position(black, ""), BLACK, expected)


@pytest.mark.parametrize(
    "white, expected",
    [
        (WHITE_ROW_10, loops("C")),  # left edge to right edge
        (WHITE_W1_BELOW, loops("W1")),  # L5-L7 to P5-P7 through the corners L8 ...
        (WHITE_W1_ABOVE, loops("W1")),  # ... and P4
        (WHITE_W2_ABOVE, loops("W2")),  # D13-D15 to H13-H15 through the corner H12 ...
        (WHITE_W2_BELOW, loops("W2")),  # ... and D16
        (f"{WHITE_W1_ABOVE} {WHITE_W1_BELOW}", loops("W1")),
        ("A14 B14 C14 I14 J14 K14 L14 M14 N14 O14 P14 Q14 R14 S14", loops("C W2")),
        ("A6 B6 C6 D6 E6 F6 G6 H6 I6 J6 K6 Q6 R6 S6", loops("C W1")),
        # W1's left rim to W2's right rim, and W1's right rim round below W2 to its left rim.
        (
            "K8 J9 I10 H11 H12 P8 P9 P10 P11 P12 P13 P14 P15 P16 O17 N17 M17 L17 K17 J17"
            " I17 H17 G17 F17 E17 D17 D16",
            loops("W1 W2"),
        ),
        # Left edge to W1's left rim, W1's right rim to W2's right rim, W2's left rim round
        # below W2 to the right edge: a triple node loop.
        (
            "A6 B6 C6 D6 E6 F6 G6 H6 I6 J6 K6 P8 O9 N10 M11 L12 K13 J14 I14 D16 D17 E17"
            " F17 G17 H17 I17 J17 K17 L17 M17 N17 O17 P17 Q17 R17 S17",
            loops("C W1 W2"),
        ),
    ],
)
def test_white_mirror_cases(white, expected):
    assert_loops(position("", white), WHITE, expected)


def test_two_loops_of_different_kinds_win_with_the_issue_wording():
    column_e = " ".join(f"E{r}" for r in (*range(1, 12), 17, 18, 19))
    before = position(f"{column_e} L4 K5 K6 K7 K8", "")
    assert names_of(before, BLACK) == loops("C W2")
    after = GAME.play(before, BLACK, GAME.parse(before, BLACK, "L8"))
    assert names_of(after, BLACK) == loops("W1", "C W2")
    assert GAME.result(after).reason == (
        "Black has two distinct loops: single node loop through W1, double node loop"
        " through C and W2."
    )


@pytest.mark.parametrize(
    "corner, black_rim, white_rim",
    [("P4", "O4", "P5"), ("L8", "M8", "L7"), ("H12", "G12", "H13"), ("D16", "E16", "D15")],
)
def test_window_corner_cells_are_ordinary_cells_touching_both_rims(corner, black_rim, white_rim):
    start = GAME.start({}, 0)
    move = GAME.parse(start, BLACK, corner.lower())
    assert GAME.notation(move) == corner
    assert move in set(GAME.legal_moves(start, BLACK))
    for seat, rim in ((BLACK, black_rim), (WHITE, white_rim)):
        state = GAME.play(start, seat, move)
        assert find(state.parent, named(corner)) == find(state.parent, named(rim))
    # The corner touches no cell of the window: its only stone neighbours are the two rims.
    rows = rows_of(GAME.play(start, BLACK, move))
    col, row = "ABCDEFGHIJKLMNOPQRS".index(corner[0]), int(corner[1:]) - 1
    around = [(col + dc, row + dr) for dc, dr in STEPS]
    assert sum(cell in WINDOW for cell in around) == 1  # the diagonal into the window corner
    stones = {rows[r][c] for c, r in around if (c, r) not in WINDOW}
    assert stones == {".", "#", "O"}


@pytest.mark.parametrize(
    "black, white",
    [
        ("D1 D2 D3 E3 F3 G3 G2 G1", ""),  # top edge back to the top edge
        ("J19 J18 K17 L17 M17 M18 M19", ""),  # bottom edge back to the bottom edge
        ("L4 L3 M2 N2 O2 P2 P3", ""),  # W1's upper rim (M4) round to the same rim (O4)
        ("D12 C13 C14 C15", ""),  # W2's upper rim down the side, stopping short
        ("N1 N2 N3", ""),  # top edge to a window rim only
        ("", "A3 B3 C3 C4 C5 B6 A6"),  # left edge back to the left edge
        ("", "S3 R3 R4 R5 S5"),  # right edge back to the right edge
        ("", "K5 J6 J7 J8 K8"),  # W1's left rim round to the same rim
        ("", "H12 I11 J11 J12 J13 I14"),  # W2's right rim round to the same rim
        ("", "A6 B6 C6 D6 E6 F6 G6 H6 I6 J6 K6"),  # left edge to W1 only
    ],
)
def test_chains_back_to_the_rim_they_left_are_no_loop(black, white):
    state = position(black, white)
    assert_loops(state, BLACK, set())
    assert_loops(state, WHITE, set())


# ----- the game contract -------------------------------------------------------------------


def test_info_and_module_exports_game():
    assert isinstance(GAME, Game)
    assert GAME.info.name == "loophole"
    assert GAME.info.title == "Loophole"
    assert GAME.info.seats == ("Black", "White")
    assert GAME.parse_options([]) == {}


def test_start_has_24_rim_stones_and_black_moves_first():
    state = GAME.start({}, 0)
    rows = rows_of(state)
    assert sum(row.count("#") for row in rows) == 12
    assert sum(row.count("O") for row in rows) == 12
    assert sum(row.count("-") for row in rows) == 18
    assert GAME.to_move(state) == frozenset({BLACK})
    assert len(list(GAME.legal_moves(state, BLACK))) == 319
    assert GAME.result(state) is None
    assert names_of(state, BLACK) == names_of(state, WHITE) == set()


def test_neighbours_follow_the_hex_rhombus():
    # M2-L3-K4-J5 is a connected diagonal; the other diagonal does not touch.
    state = position("M2 L3 K4 J5 K10 L11 J9", "")
    assert len({find(state.parent, named(c)) for c in ("M2", "L3", "K4", "J5")}) == 1
    assert len({find(state.parent, named(c)) for c in ("K10", "L11", "J9")}) == 3


def test_players_alternate_and_play_does_not_mutate():
    start = GAME.start({}, 0)
    snapshot, parent = GAME.encode(start), start.parent
    after = GAME.play(start, BLACK, GAME.parse(start, BLACK, "K10"))
    assert GAME.encode(start) == snapshot and start.parent == parent
    assert GAME.to_move(after) == frozenset({WHITE})
    after2 = GAME.play(after, WHITE, GAME.parse(after, WHITE, "k11"))
    assert GAME.to_move(after2) == frozenset({BLACK})
    assert rows_of(after2)[9][10] == "#" and rows_of(after2)[10][10] == "O"


@pytest.mark.parametrize(
    "text, canonical", [("K10", "K10"), ("k10", "K10"), (" s19 ", "S19"), ("a01", "A1")]
)
def test_notation_is_case_insensitive_and_canonical(text, canonical):
    start = GAME.start({}, 0)
    move = GAME.parse(start, BLACK, text)
    assert GAME.notation(move) == canonical
    assert GAME.parse(start, BLACK, canonical) == move


@pytest.mark.parametrize("text", ["Z3", "K0", "K20", "T1", "z3"])
def test_cells_off_the_board_are_refused(text):
    with pytest.raises(IllegalMove) as caught:
        GAME.parse(GAME.start({}, 0), BLACK, text)
    cell = text.upper()
    assert str(caught.value) == (
        f"There is no cell {cell}: the board has columns A to S and rows 1 to 19."
    )


@pytest.mark.parametrize("text, window, span", [("N6", "W1", "M5-O7"), ("e13", "W2", "E13-G15")])
def test_window_cells_are_refused(text, window, span):
    with pytest.raises(IllegalMove) as caught:
        GAME.parse(GAME.start({}, 0), BLACK, text)
    assert str(caught.value) == (
        f"{text.upper()} is inside window {window} ({span}), which has no cells:"
        " place your stone on an empty cell of the board."
    )


def test_occupied_cells_are_refused():
    start = GAME.start({}, 0)
    with pytest.raises(IllegalMove) as caught:
        GAME.parse(start, WHITE, "M4")
    assert str(caught.value) == (
        "M4 is already occupied by a Black stone: place your stone on an empty cell."
    )
    after = GAME.play(start, BLACK, GAME.parse(start, BLACK, "K10"))
    with pytest.raises(IllegalMove, match="K10 is already occupied by a Black stone"):
        GAME.parse(after, WHITE, "k10")
    with pytest.raises(IllegalMove, match="D14 is already occupied by a White stone"):
        GAME.parse(after, WHITE, "D14")


@pytest.mark.parametrize("text", ["", "   ", "hello", "10K", "K10 L11", "K-10", "KK10", "K10#"])
def test_bad_syntax_says_how_to_write_a_move(text):
    with pytest.raises(InvalidMove) as caught:
        GAME.parse(GAME.start({}, 0), BLACK, text)
    message = str(caught.value)
    shown = f"'{text.strip()}'" if text.strip() else "an empty move"
    assert message.startswith(f"Cannot read {shown} ")
    assert message.endswith(
        "as a Loophole move: write one cell, a column letter A-S and a row number 1-19,"
        " e.g. K10."
    )


def test_encode_decode_round_trip_through_json():
    state = GAME.start({}, 0)
    for text in ("K10", "K11", "P4", "D16"):
        state = GAME.play(state, state.seat_to_move, GAME.parse(state, state.seat_to_move, text))
    data = json.loads(json.dumps(GAME.encode(state)))
    assert data["last"] == "D16"
    assert data["board"][3] == "............####..."
    restored = GAME.decode(data)
    assert restored == state
    assert GAME.render(restored, None) == GAME.render(state, None)
    assert names_of(restored, BLACK) == names_of(state, BLACK)


def test_decode_rebuilds_a_won_position():
    state = new_state(cells_from_rows(figure_rows(7)))
    restored = GAME.decode(json.loads(json.dumps(GAME.encode(state))))
    assert restored.winner == BLACK
    assert GAME.result(restored) == GAME.result(state)


@pytest.mark.parametrize(
    "rows",
    [
        ["." * 19] * 19,  # no windows
        ["." * 19] * 18,  # too few rows
    ],
)
def test_decode_refuses_a_malformed_board(rows):
    with pytest.raises(ValueError):
        GAME.decode({"board": rows, "last": None})


def test_prompt_suggests_an_empty_cell_to_the_mover_only():
    start = GAME.start({}, 0)
    assert GAME.prompt(start, BLACK) == "Place one Black stone (#) on any empty cell, e.g. K10."
    assert GAME.prompt(start, WHITE) is None
    after = GAME.play(start, BLACK, Placement(named("K10")))
    hint = GAME.prompt(after, WHITE)
    assert hint.startswith("Place one White stone (O) on any empty cell, e.g. ")
    suggested = hint.rsplit(" ", 1)[1].rstrip(".")
    GAME.parse(after, WHITE, suggested)  # the suggestion is a legal move


# ----- help --------------------------------------------------------------------------------


def test_help_page_layout_and_diagrams():
    page = GAME.help_page()
    lines = page.splitlines()
    assert lines[0] == "Help For Loophole"
    for heading in ("Introduction", "Rules", "Move notation", "References"):
        assert heading in lines
    assert "    loophole challenge userid1 userid2" in lines
    assert "    loophole move 101 alice secret K10" in lines
    assert "Mark Steere in 2008" in page
    assert "[[" not in page and "]]" not in page
    for black, white in HELP_DIAGRAMS.values():
        state = position(black, white)
        for line in board_text(state.cells).splitlines() + status_lines(state):
            assert ("    " + line).rstrip() in lines
    assert all(len(line) <= 76 for line in lines)


@pytest.mark.parametrize(
    "name, black_loops, white_loops",
    [
        ("start", loops(), loops()),
        ("single", loops("C"), loops("W1")),
        ("double", loops("C W1"), loops()),
        ("triple", loops("C W1 W2"), loops()),
        ("win", loops("C", "W1", "C W1"), loops()),
    ],
)
def test_help_diagrams_show_what_the_text_says(name, black_loops, white_loops):
    state = position(*HELP_DIAGRAMS[name])
    assert_loops(state, BLACK, black_loops)
    assert_loops(state, WHITE, white_loops)


# ----- golden playthrough ------------------------------------------------------------------

# Black closes a loop round W2 and heads for W1, but White walls off the top half (left edge,
# W1, right edge: a double node loop through C and W1) and then closes a loop round W1
# through the corner P4, which makes three loops at once.
GOLDEN_MOVES = (
    "D12 A6 C13 B6 C14 C6 C15 D6 C16 E6 D16 F6 E17 G6 E18 H6 E19 I6 L9 J6"
    " K10 K6 J11 Q6 I12 R6 H12 S6 Q12 L4 Q13 M3 Q14 N3 R15 O3 S16 P3 J3 P4"
).split()


def test_golden_playthrough(golden):
    viewers = [("Black", BLACK), ("White", WHITE), ("spectator", None)]
    state = GAME.start({}, 0)
    parts = []
    for number, text in enumerate([None, *GOLDEN_MOVES]):
        if text is None:
            parts.append("=== start")
        else:
            (seat,) = GAME.to_move(state)
            state = GAME.play(state, seat, GAME.parse(state, seat, text))
            parts.append(f"=== move {number}: {GAME.info.seats[seat]} plays {text}")
        for name, viewer in viewers:
            parts.append(f"--- seen by {name}")
            if viewer is not None and viewer in GAME.to_move(state):
                parts.append(f"prompt: {GAME.prompt(state, viewer)}")
            parts.append(GAME.render(state, viewer))
    outcome = GAME.result(state)
    parts.append(f"=== result: winners {sorted(outcome.winners)}; {outcome.reason}")
    golden("loophole_playthrough", "\n".join(parts) + "\n")
    assert outcome.winners == frozenset({WHITE})
    assert names_of(state, WHITE) == loops("C", "W1", "C W1")
    assert names_of(state, BLACK) == loops("W2")


# ----- playouts and properties -------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_random_playouts_end_with_one_winner(seed):
    playout = random_playout(GAME, seed)
    (winner,) = playout.outcome.winners
    assert len(playout.state.loops(winner)) >= 2
    assert len(playout.state.loops(1 - winner)) < 2
    assert playout.log[-1][0] == winner  # only the mover's own placement can win
    assert len(playout.log) <= 319
    assert replay(GAME, playout.log) == playout.state


def random_filling(seed: int, black_share: float) -> list[str]:
    rng = random.Random(seed)
    rows = [list(row) for row in rows_of(GAME.start({}, 0))]
    for row in rows:
        for c, ch in enumerate(row):
            if ch == ".":
                row[c] = "#" if rng.random() < black_share else "O"
    return ["".join(row) for row in rows]


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), black_share=st.floats(0.05, 0.95))
def test_a_full_board_has_exactly_one_player_with_two_loops(seed, black_share):
    rows = random_filling(seed, black_share)
    state = new_state(cells_from_rows(rows))
    counts = [len(names_of(state, seat)) for seat in (BLACK, WHITE)]
    assert sum(n >= 2 for n in counts) == 1
    for seat in (BLACK, WHITE):
        assert names_of(state, seat) == scratch_loops(rows, seat)


@pytest.mark.slow  # exhaustive or many random games
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_incremental_win_check_agrees_with_a_flood_fill_after_every_move(seed):
    rng = random.Random(seed)
    state = GAME.start({}, 0)
    while GAME.result(state) is None:
        seat = state.seat_to_move
        state = GAME.play(state, seat, GAME.random_move(state, seat, rng))
        rows = rows_of(state)
        scratch = [scratch_loops(rows, s) for s in (BLACK, WHITE)]
        assert [names_of(state, s) for s in (BLACK, WHITE)] == scratch
        scratch_winners = {s for s in (BLACK, WHITE) if len(scratch[s]) >= 2}
        assert scratch_winners <= {seat}
        outcome = GAME.result(state)
        assert (outcome.winners if outcome else set()) == scratch_winners


def test_random_move_is_uniform_over_empty_cells_and_legal():
    state = new_state(cells_from_rows(random_filling(7, 0.5)))
    cells = bytearray(state.cells)
    empties = [named("A1"), named("K10"), named("S19")]
    for cell in empties:
        cells[cell] = 0
    crowded = LoopholeState(bytes(cells), parent=state.parent)  # winner unset: keep playing
    rng = random.Random(3)
    seen = Counter(GAME.random_move(crowded, BLACK, rng).cell for _ in range(600))
    assert set(seen) == set(empties)
    assert min(seen.values()) > 150


def test_benchmark_reports_speed_figures():
    figures = run_bench(2, 5)
    assert figures["games"] == 2
    assert figures["black_wins"] + figures["white_wins"] == 2
    assert 2 * 24 <= figures["moves"] <= 2 * 319
    for key in ("moves_per_second", "play_us", "win_check_us", "win_check_us_late"):
        assert figures[key] > 0
