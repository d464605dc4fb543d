"""Trou: the French source's examples, RULINGS.md's numbers, errors, renders and playouts."""

from __future__ import annotations

import json
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbm.games import registry
from pbm.games.base import IllegalMove, InvalidMove
from pbm.games.trou.game import (
    CELLS,
    GAME,
    HELP_EXAMPLE_MOVES,
    Cell,
    Pawn,
    Placement,
    TrouState,
)
from tests.games.playout import random_playout, replay

RED, BLACK = 0, 1
CENTRE = "B2"
CORNERS = {"A1", "C1", "A3", "C3"}
SIDES = {"B1", "A2", "C2", "B3"}


def play_all(moves: list[str] | tuple[str, ...]) -> TrouState:
    """Play notations in turn order from the start (Red first), as the server would."""
    return replay(GAME, [(i % 2, text) for i, text in enumerate(moves)])


def values_grid(state: TrouState) -> list[list[str]]:
    """The board as the source prints it: values only, colours lost, '' for the hole."""
    rows = []
    for row in range(3):
        line = []
        for col in range(3):
            pawn = state.at(Cell(col, row))
            line.append("" if pawn is None else str(pawn.value))
        rows.append(line)
    return rows


def legal_texts(state: TrouState, seat: int) -> set[str]:
    return {GAME.notation(m) for m in GAME.legal_moves(state, seat)}


def error_of(state: TrouState, seat: int, text: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        GAME.parse(state, seat, text)
    return str(caught.value)


# ----- the game contract ----------------------------------------------------------------


def test_registered_with_its_info():
    game = registry.lookup("TROU")
    assert game is GAME
    assert game.info.name == "trou"
    assert game.info.title == "Trou"
    assert game.info.seats == ("Red", "Black")
    assert game.parse_options([]) == {}


def test_start_is_empty_and_red_moves_first():
    state = GAME.start({}, 12345)
    assert state == GAME.start({}, 0)  # no randomness in Trou
    assert all(pawn is None for pawn in state.board)
    assert GAME.to_move(state) == frozenset({RED})
    assert GAME.result(state) is None
    assert state.pawns_left(RED) == state.pawns_left(BLACK) == (1, 2, 3, 4)


def test_first_pawn_may_go_anywhere():
    state = GAME.start({}, 0)
    expected = {f"{v}{cell.name}" for v in (1, 2, 3, 4) for cell in CELLS}
    assert legal_texts(state, RED) == expected


def test_players_alternate_and_play_does_not_mutate():
    state = GAME.start({}, 0)
    before = GAME.encode(state)
    after = GAME.play(state, RED, GAME.parse(state, RED, "1B2"))
    assert GAME.encode(state) == before
    assert state.at(Cell(1, 1)) is None
    assert after.at(Cell(1, 1)) == Pawn(RED, 1)
    assert GAME.to_move(after) == frozenset({BLACK})
    assert after.pawns_left(RED) == (2, 3, 4)
    assert after.pawns_left(BLACK) == (1, 2, 3, 4)


@pytest.mark.parametrize("text", ["3b2", "3B2", " 3 b2 ", "3 B2"])
def test_notation_is_case_insensitive_and_canonical_upper_case(text):
    move = GAME.parse(GAME.start({}, 0), RED, text)
    assert move == Placement(3, Cell(1, 1))
    assert GAME.notation(move) == "3B2"


def test_encode_decode_round_trip_through_json():
    state = play_all(["1B2", "4C2", "2B1"])
    data = json.loads(json.dumps(GAME.encode(state)))
    assert GAME.decode(data) == state


# ----- the source's examples -------------------------------------------------------------


def test_source_example_first_pawn_1_in_the_centre():
    # "The first player put a 1 in the centre: the second player may only put a 2 or a 4
    # on the cells marked 2/4" (the four side cells) and "a 1 or a 3 on the cells marked
    # 1/3" (the four corners).
    state = play_all(["1B2"])
    expected = {f"{v}{c}" for v in (2, 4) for c in SIDES}
    expected |= {f"{v}{c}" for v in (1, 3) for c in CORNERS}
    assert legal_texts(state, BLACK) == expected


def test_source_example_first_pawn_1_in_a_corner():
    # "The first player put a 1 top left: the second player cannot place any pawn on the
    # cells marked X, which touch no occupied cell."
    state = play_all(["1A1"])
    for cell in ("C1", "C2", "A3", "B3", "C3"):
        for value in (1, 2, 3, 4):
            message = error_of(state, BLACK, f"{value}{cell}")
            assert message == (
                f"{cell} does not touch any pawn: place your pawn on a cell next to one,"
                " by a side or a corner."
            )
    assert legal_texts(state, BLACK) == {"2B1", "4B1", "2A2", "4A2", "1B2", "3B2"}


SOURCE_GRID_A = [["1", "2", ""], ["4", "1", "4"], ["3", "2", "3"]]
SOURCE_GRID_B = [["1", "2", ""], ["4", "1", "2"], ["3", "4", "3"]]


def test_source_scoring_example_two_red_none_black_black_wins():
    # "2 red pawns and 0 black around the hole (side cells): Black wins."
    # Colouring chosen: Red's 2 on B1 and Red's 4 on C2, beside the hole C1.
    state = play_all(["2B1", "1A1", "1B2", "4A2", "4C2", "2B3", "3A3", "3C3"])
    assert values_grid(state) == SOURCE_GRID_A
    assert state.at(Cell(1, 0)) == Pawn(RED, 2)
    assert state.at(Cell(2, 1)) == Pawn(RED, 4)
    outcome = GAME.result(state)
    assert outcome.winners == frozenset({BLACK})
    assert outcome.reason == "Black has fewer pawns beside the hole (0 against 2)."


def test_source_scoring_example_one_each_red_smaller_red_wins():
    # "1 red pawn and 1 black around the hole. Red wins because its pawn is smaller."
    # Colouring chosen: Red's 2 on B1, Black's 4 on C2.
    state = play_all(["2B1", "1A1", "4A2", "4C2", "1B2", "2B3", "3A3", "3C3"])
    assert values_grid(state) == SOURCE_GRID_A
    assert state.at(Cell(1, 0)) == Pawn(RED, 2)
    assert state.at(Cell(2, 1)) == Pawn(BLACK, 4)
    outcome = GAME.result(state)
    assert outcome.winners == frozenset({RED})
    assert outcome.reason == (
        "Both have 1 pawn beside the hole and Red's sum is smaller (2 against 4)."
    )


def test_source_scoring_example_one_each_equal_values_no_winner():
    # "1 red pawn and 1 black around the hole. No winner, both pawns have the same value."
    # Colouring chosen: Red's 2 on B1, Black's 2 on C2.
    state = play_all(["2B1", "1A1", "4A2", "2C2", "1B2", "4B3", "3A3", "3C3"])
    assert values_grid(state) == SOURCE_GRID_B
    assert state.at(Cell(1, 0)) == Pawn(RED, 2)
    assert state.at(Cell(2, 1)) == Pawn(BLACK, 2)
    outcome = GAME.result(state)
    assert outcome.is_draw
    assert outcome.reason == (
        "Both have 1 pawn beside the hole with the same sum (2): no winner."
    )
    assert GAME.to_move(state) == frozenset()


# ----- scoring tie-breaks ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "winners", "reason"),
    [
        # Corner hole, Black has both side neighbours: Red wins on count.
        (
            ["3A2", "4A3", "1B1", "2A1", "4B2", "1C2", "2C1", "3B3"],
            {RED},
            "Red has fewer pawns beside the hole (0 against 2).",
        ),
        # One each, Black's is smaller: Black wins on the sum.
        (
            ["1A3", "4A2", "3A1", "2B3", "2B1", "3B2", "4C2", "1C1"],
            {BLACK},
            "Both have 1 pawn beside the hole and Black's sum is smaller (2 against 4).",
        ),
        # One each, Red's odd pawn is smaller: Red wins on the sum.
        (
            ["3B3", "1A2", "4B2", "4C3", "2A3", "3C2", "1B1", "2A1"],
            {RED},
            "Both have 1 pawn beside the hole and Red's sum is smaller (1 against 3).",
        ),
        # Centre hole: two each (sums 2+4 on both sides), a draw.
        (
            ["2B3", "3C3", "4A2", "1A3", "3A1", "4B1", "1C1", "2C2"],
            set(),
            "Both have 2 pawns beside the hole with the same sum (6): no winner.",
        ),
    ],
)
def test_scoring_tie_breaks(moves, winners, reason):
    outcome = GAME.result(play_all(moves))
    assert outcome.winners == frozenset(winners)
    assert outcome.reason == reason


# ----- errors ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "B2", "3", "B23", "3-B2", "three B2", "3B", "32B"])
def test_unreadable_move_says_how_to_write_it(text):
    with pytest.raises(InvalidMove) as caught:
        GAME.parse(GAME.start({}, 0), RED, text)
    assert str(caught.value) == (
        f"Cannot read '{text.strip()}' as a Trou move: write the pawn's value, then the cell,"
        " e.g. 3B2 puts your pawn 3 on B2."
    )


@pytest.mark.parametrize("text", ["0B2", "5B2", "12A1"])
def test_no_such_pawn_value(text):
    value = int(text[:-2])
    assert error_of(GAME.start({}, 0), RED, text) == (
        f"There is no pawn {value}: each player's pawns are 1, 2, 3 and 4."
    )


@pytest.mark.parametrize("text", ["1D2", "1A4", "1A0", "1z9"])
def test_no_such_cell(text):
    cell = text[1:].upper()
    assert error_of(GAME.start({}, 0), RED, text) == (
        f"There is no cell {cell}: the board has columns A to C and rows 1 to 3."
    )


def test_pawn_already_placed():
    state = play_all(["1B2", "4C2"])
    assert error_of(state, RED, "1A1") == (
        "Your pawn 1 is already on B2; you have 2, 3 and 4 left to place."
    )


def test_cell_occupied():
    state = play_all(["1B2", "4C2"])
    assert error_of(state, RED, "2C2") == "C2 is already occupied by Black's 4."
    assert error_of(state, RED, "3B2") == "B2 is already occupied by Red's 1."


def test_parity_forced_by_a_side_neighbour():
    state = play_all(["1B2"])
    assert error_of(state, BLACK, "3B1") == (
        "Your pawn 3 cannot go on B1: its side neighbour B2 holds Red's 1 (odd),"
        " so the pawn there must be even."
    )


def test_parity_forced_by_a_corner_neighbour():
    state = play_all(["1B2"])
    assert error_of(state, BLACK, "2A1") == (
        "Your pawn 2 cannot go on A1: its corner neighbour B2 holds Red's 1 (odd),"
        " so the pawn there must be odd."
    )


def test_parity_counts_the_players_own_pawns_too():
    # Red's own 1 on B2 forces Red's next pawn on B1 to be even, like any colour would.
    state = play_all(["1B2", "4C2"])
    assert error_of(state, RED, "3B1") == (
        "Your pawn 3 cannot go on B1: its side neighbour B2 holds Red's 1 (odd),"
        " so the pawn there must be even."
    )


def test_parity_forced_by_the_other_colour():
    # C1 touches Black's 4 on C2 by a side and Red's 1 on B2 by a corner: both want odd.
    state = play_all(["1B2", "4C2"])
    assert error_of(state, RED, "4C1") == (
        "Your pawn 4 cannot go on C1: its side neighbour C2 holds Black's 4 (even),"
        " so the pawn there must be odd."
    )


def test_out_of_turn():
    # The server checks turns first; the rule module still refuses rather than misplay.
    assert error_of(play_all(["1B2"]), RED, "2B1") == "It is Black's turn, not Red's."


def test_no_move_once_the_game_is_over():
    state = play_all(list(HELP_EXAMPLE_MOVES))
    assert list(GAME.legal_moves(state, RED)) == []
    assert error_of(state, RED, "1C1") == "The game is over: all eight pawns are placed."


# ----- the whole game tree ---------------------------------------------------------------


@cache
def game_tree() -> dict[TrouState, tuple[TrouState, ...]]:
    """Every reachable position and its children, from the empty start.

    A position is the board: which pawn (colour and value) sits on each cell. The pawns left
    and the side to move follow from the board, so counting distinct (board, pawns left,
    side to move) states gives the same number. The empty start counts as one position.
    """
    start = GAME.start({}, 0)
    tree: dict[TrouState, tuple[TrouState, ...]] = {}
    stack = [start]
    while stack:
        state = stack.pop()
        if state in tree:
            continue
        children = ()
        if GAME.result(state) is None:
            (seat,) = GAME.to_move(state)
            children = tuple(GAME.play(state, seat, m) for m in GAME.legal_moves(state, seat))
        tree[state] = children
        stack.extend(c for c in children if c not in tree)
    return tree


@pytest.mark.slow  # exhaustive or many random games
def test_whole_game_tree_has_91957_positions_and_none_stuck():
    tree = game_tree()
    assert len(tree) == 91_957
    by_depth: dict[int, int] = {}
    for state, children in tree.items():
        by_depth[state.placed] = by_depth.get(state.placed, 0) + 1
        if state.placed < 8:
            assert GAME.result(state) is None
            assert children, f"stuck: {GAME.encode(state)}"
        else:
            assert not children and GAME.result(state) is not None
            assert GAME.to_move(state) == frozenset()
    assert by_depth == {
        0: 1, 1: 36, 2: 320, 3: 1760, 4: 9488, 5: 21216, 6: 36096, 7: 17280, 8: 5760,
    }


def test_hole_is_always_centre_or_corner_and_a_centre_hole_is_a_draw():
    holes = set()
    for state in game_tree():
        if state.placed == 8:
            hole = state.hole().name
            holes.add(hole)
            if hole == CENTRE:
                assert GAME.result(state).is_draw
    assert holes == CORNERS | {CENTRE}


def test_parities_form_a_checkerboard_fixed_by_the_first_pawn():
    # Why no cell's neighbours ever disagree: on every finished board (and so in every
    # position, each being part of one) value parity + chessboard shade is one constant.
    for state in game_tree():
        if state.placed == 8:
            marks = {
                (cell.col + cell.row + pawn.value) % 2
                for cell in CELLS
                if (pawn := state.at(cell)) is not None
            }
            assert len(marks) == 1


@pytest.mark.slow  # exhaustive or many random games
def test_perfect_play_is_a_draw():
    tree = game_tree()
    value: dict[TrouState, int] = {}  # +1 Red wins, -1 Black wins, 0 draw

    for state in sorted(tree, key=lambda s: -s.placed):
        children = tree[state]
        if not children:
            winners = GAME.result(state).winners
            value[state] = 1 if RED in winners else -1 if BLACK in winners else 0
        elif state.seat_to_move == RED:
            value[state] = max(value[c] for c in children)
        else:
            value[state] = min(value[c] for c in children)
    assert value[GAME.start({}, 0)] == 0


# ----- random play -----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(200))
def test_random_playout_ends_after_eight_pawns(seed):
    playout = random_playout(GAME, seed)
    assert playout.outcome is not None
    assert len(playout.log) == 8
    assert [seat for seat, _ in playout.log] == [RED, BLACK] * 4
    assert playout.state.hole().name in CORNERS | {CENTRE}
    assert replay(GAME, playout.log) == playout.state


@st.composite
def reachable_states(draw) -> TrouState:
    state = GAME.start({}, 0)
    for _ in range(draw(st.integers(0, 8))):
        seat = state.seat_to_move
        moves = sorted(GAME.legal_moves(state, seat), key=GAME.notation)
        assert moves, "no one is ever stuck"
        state = GAME.play(state, seat, draw(st.sampled_from(moves)))
    return state


@settings(max_examples=300, deadline=None)
@given(reachable_states())
def test_parse_accepts_exactly_the_legal_moves(state):
    if state.finished:
        return
    seat = state.seat_to_move
    accepted = set()
    for value in (1, 2, 3, 4):
        for cell in CELLS:
            text = f"{value}{cell.name.lower()}"
            try:
                accepted.add(GAME.notation(GAME.parse(state, seat, text)))
            except IllegalMove as error:
                assert str(error)  # a reason a player can read
    assert accepted == legal_texts(state, seat)
    assert accepted, "no one is ever stuck"


@settings(max_examples=200, deadline=None)
@given(reachable_states())
def test_every_state_survives_encode_and_renders(state):
    assert GAME.decode(json.loads(json.dumps(GAME.encode(state)))) == state
    text = GAME.render(state, None)
    assert all(len(line) < 78 for line in text.splitlines())
    assert text == GAME.render(state, RED) == GAME.render(state, BLACK)


# ----- showing --------------------------------------------------------------------------


def test_render_of_a_running_game():
    state = play_all(["1B2", "4C2", "2B1"])
    assert GAME.render(state, None) == (
        "     A   B   C\n"
        "  1  .   R2  .\n"
        "  2  .   R1  B4\n"
        "  3  .   .   .\n"
        "\n"
        "Red pawns left:    3 4\n"
        "Black pawns left:  1 2 3\n"
    )


def test_render_at_the_end_marks_the_hole_and_shows_the_score():
    state = play_all(["2B3", "3C3", "4A2", "1A3", "3A1", "4B1", "1C1", "2C2"])
    assert GAME.render(state, BLACK) == (
        "     A   B   C\n"
        "  1  R3  B4  R1\n"
        "  2  R4  ()  B2\n"
        "  3  B1  R2  B3\n"
        "\n"
        "The hole () is B2. Beside it by a side: B1 B4, A2 R4, C2 B2, B3 R2.\n"
        "Red:   2 pawns beside the hole, sum 4+2 = 6\n"
        "Black: 2 pawns beside the hole, sum 4+2 = 6\n"
    )


def test_prompt_lists_the_legal_placements():
    start = GAME.start({}, 0)
    assert GAME.prompt(start, RED) == "Place any of your pawns on any cell, e.g. 3B2."
    state = play_all(["1B2", "4C2"])
    assert GAME.prompt(state, RED) == (
        "You may place 3 on A1 C1 A3 C3; 2 or 4 on B1 A2 B3."
    )
    assert GAME.prompt(state, BLACK) is None


GOLDEN_MOVES = ["2B3", "3C3", "4A2", "1A3", "3A1", "4B1", "1C1", "2C2"]


def test_golden_playthrough(golden):
    viewers = [("Red", RED), ("Black", BLACK), ("spectator", None)]
    state = GAME.start({}, 0)
    parts = []
    for number, text in enumerate([None, *GOLDEN_MOVES]):
        if text is not None:
            (seat,) = GAME.to_move(state)
            state = GAME.play(state, seat, GAME.parse(state, seat, text))
            parts.append(f"=== move {number}: {GAME.info.seats[seat]} plays {text}")
        else:
            parts.append("=== start")
        for name, viewer in viewers:
            parts.append(f"--- seen by {name}")
            if viewer is not None and viewer in GAME.to_move(state):
                parts.append(f"prompt: {GAME.prompt(state, viewer)}")
            parts.append(GAME.render(state, viewer))
    outcome = GAME.result(state)
    parts.append(f"=== result: winners {sorted(outcome.winners)}; {outcome.reason}")
    golden("trou_playthrough", "\n".join(parts) + "\n")


# ----- help -------------------------------------------------------------------------------


def test_help_page_layout_and_finished_board():
    page = GAME.help_page()
    lines = page.splitlines()
    assert lines[0] == "Help For Trou"
    for heading in ("Introduction", "Rules", "Move notation", "References"):
        assert heading in lines
    assert "    trou challenge userid1 userid2" in lines
    assert "    trou move 101 alice secret 1B2" in lines
    assert "[[" not in page
    finished = play_all(list(HELP_EXAMPLE_MOVES))
    assert GAME.help_figures() == {"finished board": GAME.render(finished, None)}
    for line in GAME.render(finished, None).splitlines():
        assert ("    " + line).rstrip() in lines
    assert GAME.result(finished).winners == frozenset({RED})
    assert all(len(line) < 78 for line in lines)
