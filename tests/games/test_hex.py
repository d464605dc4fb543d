"""Hex: HexWiki's example, the rhombus's neighbours and edges, the swap, every refusal,
the text board, a golden playthrough, random playouts and the no-draw property."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from pbm.games import registry
from pbm.games.base import IllegalMove, InvalidMove, InvalidOption
from pbm.games.hex.board import BLACK_STONE, EMPTY, WHITE_STONE, board_of
from pbm.games.hex.game import (
    GAME,
    HELP_FIGURES,
    SWAP,
    HexState,
    Place,
    figure_state,
    new_state,
)
from tests.games.playout import random_playout, replay

BLACK, WHITE = 0, 1
# HexWiki, "Rules" (hexwiki.net/index.php/Rules), its example of a win by Red on a 5x5
# board: <hexboard size="5x5" contents="R d1 B e1 R c2 B d2 R c3 B d3 R c4 R d4 B b5 B c5
# R d5">. Red moves first and joins top and bottom there, as Black does here; the page
# gives no move order, so this one alternates and ends on d5.
HEXWIKI_RED = ("D1", "C2", "C3", "C4", "D4", "D5")
HEXWIKI_BLUE = ("E1", "D2", "D3", "B5", "C5")
HEXWIKI_WIN = ("D1", "E1", "C2", "D2", "C3", "D3", "C4", "B5", "D4", "C5", "D5")


def play_all(moves: tuple[str, ...] | list[str], size: int = 11) -> HexState:
    """Play notations in turn order from the start (Black first), as the server would."""
    options = {"size": size}
    return replay(GAME, [(i % 2, text) for i, text in enumerate(moves)], options=options)


def error_of(state: HexState, seat: int, text: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        GAME.parse(state, seat, text)
    return str(caught.value)


def names_of(state: HexState, code: int) -> set[str]:
    board = state.board
    return {board.names[i] for i, c in enumerate(state.stones) if c == code}


# ----- the game contract ----------------------------------------------------------------


def test_registered_with_its_info():
    game = registry.lookup("HEX")
    assert game is GAME
    assert game.info.name == "hex" and game.info.title == "Hex"
    assert game.info.seats == ("Black", "White")
    assert not game.info.hidden
    assert game.parse_options([]) == {"size": 11}


@pytest.mark.parametrize("size", [5, 8, 11, 13, 19])
def test_size_option_sets_the_board(size):
    state = GAME.start(GAME.parse_options([f"-size={size}"]), 0)
    assert state.size == size and len(state.stones) == size * size
    assert set(state.stones) == {EMPTY}


@pytest.mark.parametrize("word", ["-size=4", "-size=20", "-size=0", "-size=-11"])
def test_size_out_of_range_is_refused(word):
    with pytest.raises(InvalidOption) as caught:
        GAME.parse_options([word])
    assert str(caught.value) == (
        "Option -size of Hex must be one of: 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,"
        " 18, 19.")


def test_size_must_be_a_number():
    with pytest.raises(InvalidOption, match="takes a whole number, e.g. -size=11"):
        GAME.parse_options(["-size=" + "9" * 5000])


def test_start_is_empty_and_black_moves_first():
    state = GAME.start({"size": 11}, 12345)
    assert state == GAME.start({"size": 11}, 0)  # no randomness in Hex
    assert GAME.to_move(state) == frozenset({BLACK})
    assert GAME.result(state) is None
    assert len(list(GAME.legal_moves(state, BLACK))) == 121
    assert list(GAME.legal_moves(state, WHITE)) == []


def test_players_alternate_and_play_does_not_mutate():
    state = GAME.start({"size": 11}, 0)
    before = GAME.encode(state)
    after = GAME.play(state, BLACK, GAME.parse(state, BLACK, "F6"))
    assert GAME.encode(state) == before
    assert names_of(after, BLACK_STONE) == {"F6"}
    assert GAME.to_move(after) == frozenset({WHITE})
    after = GAME.play(after, WHITE, GAME.parse(after, WHITE, "E7"))
    assert names_of(after, WHITE_STONE) == {"E7"}
    assert GAME.to_move(after) == frozenset({BLACK})


@pytest.mark.parametrize("text", ["f6", "F6", " F6 ", "f 6", "\tF 6\n"])
def test_a_cell_is_read_in_either_case_with_spaces(text):
    move = GAME.parse(GAME.start({"size": 11}, 0), BLACK, text)
    assert move == Place(5, 5)
    assert GAME.notation(move) == "F6"


@pytest.mark.parametrize("text", ["swap", "SWAP", " Swap ", "sWaP\n"])
def test_swap_is_read_in_either_case_with_spaces(text):
    state = play_all(["F6"])
    assert GAME.parse(state, WHITE, text) is SWAP
    assert GAME.notation(SWAP) == "swap"


def test_every_legal_move_round_trips_through_its_notation():
    for state in (play_all([], 7), play_all(["C2"], 7), play_all(["C2", "swap", "D4"], 7)):
        seat = state.seat_to_move
        for move in GAME.legal_moves(state, seat):
            assert GAME.parse(state, seat, GAME.notation(move)) == move
            assert GAME.parse(state, seat, GAME.notation(move).lower()) == move


def test_encode_decode_round_trip_through_json():
    for state in (play_all([]), play_all(["B3", "swap", "F6"]), play_all(HEXWIKI_WIN, 5)):
        data = json.loads(json.dumps(GAME.encode(state)))
        restored = GAME.decode(data)
        assert restored == state
        assert restored.last == state.last and restored.moves == state.moves
        assert restored.winner == state.winner and restored.swapped == state.swapped
        assert GAME.render(restored, None) == GAME.render(state, None)


def test_encode_is_compact():
    data = GAME.encode(play_all(["B3", "swap", "D4"], 5))
    assert data == {"size": 5, "board": [".....", "..O..", ".....", "...#.", "....."],
                    "last": "D4", "swapped": True}


def test_decode_refuses_a_board_of_the_wrong_shape():
    with pytest.raises(ValueError, match="a Hex board of size 5 has 5 rows of 5 cells"):
        GAME.decode({"size": 5, "board": ["....."] * 4, "last": None})
    with pytest.raises(ValueError, match="a Hex board of size 5 has 5 rows of 5 cells"):
        GAME.decode({"size": 5, "board": ["....."] * 4 + ["......"], "last": None})
    with pytest.raises(ValueError, match="no Hex board of size 21"):
        GAME.decode({"size": 21, "board": ["." * 21] * 21, "last": None})


# ----- the board ------------------------------------------------------------------------


def neighbours(name: str, size: int = 11) -> set[str]:
    board = board_of(size)
    return {board.names[i] for i in board.neighbours[board.index_of[name]]}


def test_a_cell_touches_six_cells_as_the_help_page_says():
    # help.txt: "F6 touches E6, G6, F5, G5, E7 and F7, but not E5 or G7."
    assert neighbours("F6") == {"E6", "G6", "F5", "G5", "E7", "F7"}


def test_the_sharp_corners_have_two_neighbours_and_the_blunt_ones_three():
    assert neighbours("A1") == {"B1", "A2"}
    assert neighbours("K11") == {"J11", "K10"}
    assert neighbours("K1") == {"J1", "J2", "K2"}
    assert neighbours("A11") == {"A10", "B10", "B11"}


def test_neighbours_are_symmetric_on_every_size():
    for size in (5, 11, 19):
        board = board_of(size)
        for cell, near in enumerate(board.neighbours):
            assert all(cell in board.neighbours[other] for other in near)
            assert 2 <= len(near) <= 6


def test_letters_run_a_to_s_and_skip_none():
    assert board_of(19).letters == "ABCDEFGHIJKLMNOPQRS"
    assert board_of(11).letters == "ABCDEFGHIJK"
    state = play_all([], 19)
    assert GAME.notation(GAME.parse(state, BLACK, "i9")) == "I9"
    assert GAME.notation(GAME.parse(state, BLACK, "s19")) == "S19"


# ----- winning: HexWiki's example --------------------------------------------------------


def test_hexwiki_example_win_by_red_is_a_win_by_black():
    state = play_all(HEXWIKI_WIN, 5)
    assert names_of(state, BLACK_STONE) == set(HEXWIKI_RED)
    assert names_of(state, WHITE_STONE) == set(HEXWIKI_BLUE)
    outcome = GAME.result(state)
    assert outcome is not None and outcome.winners == frozenset({BLACK})
    assert outcome.reason == ("Black joined the top and bottom edges with an unbroken chain"
                              " of stones; D5 completed it.")
    assert GAME.to_move(state) == frozenset()
    assert list(GAME.legal_moves(state, WHITE)) == []


def test_hexwiki_example_is_not_won_before_its_last_stone():
    for length in range(len(HEXWIKI_WIN)):
        state = play_all(HEXWIKI_WIN[:length], 5)
        assert GAME.result(state) is None, HEXWIKI_WIN[:length]


def test_white_joins_left_and_right():
    # White's row 3 from A3 to E3 while Black plays in row 1 (and never blocks).
    state = play_all(["A1", "A3", "B1", "B3", "C1", "C3", "D1", "D3", "A5", "E3"], 5)
    outcome = GAME.result(state)
    assert outcome.winners == frozenset({WHITE})
    assert outcome.reason == ("White joined the left and right edges with an unbroken chain"
                              " of stones; E3 completed it.")


def test_a_column_of_white_joins_nothing_and_a_row_of_black_joins_nothing():
    # Black all along row 1 touches only the top edge; White down column E only the right.
    state = play_all(["A1", "E1", "B1", "E2", "C1", "E3", "D1", "E4", "A3"], 5)
    assert GAME.result(state) is None


def test_the_other_diagonal_does_not_join():
    # A1 B2 C3 D4 E5 do not touch one another (the long diagonal): no chain for Black.
    state = play_all(["A1", "A5", "B2", "B5", "C3", "C5", "D4", "D5", "E5"], 5)
    assert GAME.result(state) is None
    # ... while E1 D2 C3 B4 A5 (the short diagonal) is a chain, but touches no Black edge
    # except at its ends: E1 the top and A5 the bottom. So it wins.
    state = play_all(["E1", "A1", "D2", "B1", "C3", "C1", "B4", "D1", "A5"], 5)
    assert GAME.result(state).winners == frozenset({BLACK})


def test_corner_cells_count_for_whoever_holds_them():
    # Black on K1 touches the top edge; White on K1 the right edge.
    board = board_of(11)
    k1 = board.index_of["K1"]
    assert board.edges[BLACK][k1] == (board.cells,)  # top
    assert board.edges[WHITE][k1] == (board.cells + 3,)  # right
    a11 = board.index_of["A11"]
    assert board.edges[BLACK][a11] == (board.cells + 1,)  # bottom
    assert board.edges[WHITE][a11] == (board.cells + 2,)  # left


# ----- the swap ---------------------------------------------------------------------------


def test_swap_replaces_blacks_stone_by_a_white_one_mirrored_and_black_moves_next():
    # help.txt: "Black's B4 becomes White's D2".
    state = play_all(["B4", "swap"], 5)
    assert names_of(state, BLACK_STONE) == set()
    assert names_of(state, WHITE_STONE) == {"D2"}
    assert state.swapped and state.moves == 2
    assert GAME.to_move(state) == frozenset({BLACK})
    assert state.board.names[state.last] == "D2"
    assert len(list(GAME.legal_moves(state, BLACK))) == 24  # no second swap


def test_a_stone_on_the_long_diagonal_swaps_to_itself():
    state = play_all(["F6", "swap"])
    assert names_of(state, WHITE_STONE) == {"F6"} and names_of(state, BLACK_STONE) == set()


def test_the_swapped_stone_keeps_its_edge_for_white():
    # Black's C1 touched the top edge; swapped, White's A3 touches the left edge, and a row
    # of White stones from it to the right edge wins.
    state = play_all(["C1", "swap", "A1", "B3", "B1", "C3", "C1", "D3", "D1", "E3"], 5)
    assert names_of(state, WHITE_STONE) == {"A3", "B3", "C3", "D3", "E3"}
    assert GAME.result(state).winners == frozenset({WHITE})


def test_swap_is_legal_only_as_whites_first_move():
    state = play_all(["C3"], 5)
    assert SWAP in list(GAME.legal_moves(state, WHITE))
    assert len(list(GAME.legal_moves(state, WHITE))) == 25  # 24 empty cells and swap
    assert error_of(play_all([], 5), BLACK, "swap") == (
        "There is nothing to swap yet: swap is White's answer to Black's first stone."
        " Place a stone, e.g. C3.")
    later = play_all(["C3", "D2"], 5)
    assert SWAP not in list(GAME.legal_moves(later, BLACK))
    assert error_of(later, BLACK, "swap") == (
        "Swap is only allowed as White's first move, answering Black's first stone; now place"
        " a stone on an empty cell, e.g. C2.")
    after_swap = play_all(["C3", "swap"], 5)
    assert "only allowed as White's first move" in error_of(after_swap, BLACK, "swap")
    four = play_all(["C3", "D2", "A1"], 5)
    assert "only allowed as White's first move" in error_of(four, WHITE, "swap")


# ----- refusals ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   ", "F", "6", "FF6", "F6G7", "F-6", "six", "6F",
                                  "F6 swap", "swapp", "F1234", "é6", "F６"])
def test_unreadable_move_says_how_to_write_it(text):
    with pytest.raises(InvalidMove) as caught:
        GAME.parse(play_all([]), BLACK, text)
    shown = f"'{text.strip()}'" if text.strip() else "an empty move"
    assert str(caught.value) == (
        f"Cannot read {shown} as a Hex move: write one cell, its column letter A to K and its"
        " row number 1 to 11, e.g. F6.")


def test_unreadable_move_mentions_swap_when_white_may_swap():
    with pytest.raises(InvalidMove) as caught:
        GAME.parse(play_all(["F6"]), WHITE, "swop")
    assert str(caught.value) == (
        "Cannot read 'swop' as a Hex move: write one cell, its column letter A to K and its"
        " row number 1 to 11, e.g. F5, or swap (White's first move only).")


def test_a_long_unreadable_move_is_quoted_short():
    with pytest.raises(InvalidMove) as caught:
        GAME.parse(play_all([]), BLACK, "x" * 100_000)
    assert f"'{'x' * 20}'" in str(caught.value) and len(str(caught.value)) < 200


@pytest.mark.parametrize(("text", "cell"), [("L1", "L1"), ("a12", "A12"), ("A0", "A0"),
                                            ("z3", "Z3"), ("K999", "K999")])
def test_no_such_cell(text, cell):
    assert error_of(play_all([]), BLACK, text) == (
        f"There is no cell {cell}: the board has columns A to K and rows 1 to 11.")


def test_no_such_cell_on_a_small_board():
    assert error_of(play_all([], 5), BLACK, "F6") == (
        "There is no cell F6: the board has columns A to E and rows 1 to 5.")


def test_an_occupied_cell_is_refused_with_empty_cells_near_it():
    state = play_all(["F6", "E6"])
    assert error_of(state, BLACK, "f6") == (
        "F6 already holds Black's stone, and stones never move. Place yours on an empty cell,"
        " e.g. F5, G5 or G6.")
    assert error_of(state, BLACK, "E6") == (
        "E6 already holds White's stone, and stones never move. Place yours on an empty cell,"
        " e.g. E5, F5 or D6.")


def test_there_is_no_passing():
    assert error_of(play_all(["F6"]), WHITE, " PASS ") == (
        "There is no passing in Hex: place a stone on an empty cell, e.g. F5.")


def test_out_of_turn():
    # The server checks turns first; the rule module still refuses rather than misplay.
    assert error_of(play_all(["F6"]), BLACK, "A1") == "It is White's turn, not Black's."


def test_no_move_once_the_game_is_over():
    state = play_all(HEXWIKI_WIN, 5)
    assert error_of(state, WHITE, "A1") == (
        "The game is over: Black has joined the top and bottom edges.")


# ----- random play ------------------------------------------------------------------------


@pytest.mark.parametrize("size", [5, 11, 19])
def test_random_playouts_end_with_one_winner(size):
    for seed in range(3 if size == 19 else 8):  # each move renders every view: keep CI short
        playout = random_playout(GAME, seed, options={"size": size})
        assert playout.outcome is not None and len(playout.outcome.winners) == 1
        assert len(playout.log) <= size * size + 1
        assert replay(GAME, playout.log, options={"size": size}) == playout.state


@pytest.mark.parametrize("size", [5, 8, 11, 14, 19])
def test_a_full_board_always_joins_exactly_one_players_edges(size):
    # Hex has no draws (Gale 1979): fill the board at random, whatever it joins along the
    # way, and exactly one player's edges are joined.
    board = board_of(size)
    rng = random.Random(size)
    for _ in range(200):
        black = rng.sample(range(board.cells), (board.cells + 1) // 2)
        stones = bytearray([WHITE_STONE] * board.cells)
        for cell in black:
            stones[cell] = BLACK_STONE
        parent = board.build_parent(bytes(stones))
        assert board.joined(parent, BLACK) != board.joined(parent, WHITE)


def test_random_move_is_uniform_over_the_legal_moves():
    state = play_all(["C3"], 5)  # 24 empty cells and swap
    rng = random.Random(7)
    counts = Counter(GAME.notation(GAME.random_move(state, WHITE, rng)) for _ in range(25_000))
    assert set(counts) == {GAME.notation(m) for m in GAME.legal_moves(state, WHITE)}
    assert all(850 < count < 1150 for count in counts.values()), counts  # 1,000 each


def test_random_move_on_a_nearly_full_board_is_uniform_too():
    # Three empty cells of 121: the random tries mostly miss and the listing decides.
    board = board_of(11)
    rng = random.Random(3)
    stones = bytearray([BLACK_STONE, WHITE_STONE] * 61)[:121]
    for cell in (0, 60, 120):
        stones[cell] = EMPTY
    # Not a real game's position (no chain is checked here), only the draw of a move.
    state = HexState(11, bytes(stones), moves=118, parent=tuple(board.build_parent(bytes(
        stones))))
    counts = Counter(GAME.notation(GAME.random_move(state, 0, rng)) for _ in range(9_000))
    assert set(counts) == {"A1", "F6", "K11"}
    assert all(2_700 < count < 3_300 for count in counts.values()), counts


# ----- showing ----------------------------------------------------------------------------


def test_render_of_a_small_game_after_a_swap():
    state = play_all(["B4", "swap", "C3"], 5)
    assert GAME.render(state, None) == (
        "      A B C D E\n"
        "     # # # # #\n"
        " 1  O . . . . . O  1\n"
        " 2   O . . . O . O  2\n"
        " 3    O . .[#]. . O  3\n"
        " 4     O . . . . . O  4\n"
        " 5      O . . . . . O  5\n"
        "           # # # # #\n"
        "          A B C D E\n"
        "\n"
        "Black (#) joins top and bottom, White (O) left and right.\n"
        "Stones: Black 1, White 1; 23 empty cells.\n"
        "Last move: Black C3, shown as [#].\n"
    )


def test_render_tells_white_what_a_swap_would_do():
    text = GAME.render(play_all(["B4"], 5), WHITE)
    assert "White may swap: Black's B4 would become White's D2." in text.splitlines()
    after = GAME.render(play_all(["B4", "swap"], 5), BLACK)
    assert "Last move: White swapped: Black's B4 became White's D2, shown as [O]." \
        in after.splitlines()
    assert "may swap" not in after


@pytest.mark.parametrize("size", range(5, 20))
def test_every_line_fits_76_columns_on_every_size(size):
    state = random_playout(GAME, size, options={"size": size}).state
    lines = GAME.render(state, None).splitlines()
    assert max(len(line) for line in lines) <= 76
    assert len(lines) == size + 4 + 1 + 3


def test_hex_hides_nothing():
    state = play_all(["F6", "swap", "C3"])
    assert GAME.render(state, None) == GAME.render(state, BLACK) == GAME.render(state, WHITE)
    assert GAME.seat_view(state, WHITE) == state


def test_prompts_for_the_first_two_moves():
    assert GAME.prompt(play_all([]), BLACK) == (
        "Place your first stone, e.g. F6; White may then swap it.")
    assert GAME.prompt(play_all(["C8"]), WHITE) == (
        "Place a stone, or swap: Black's C8 becomes your H3.")
    assert GAME.prompt(play_all(["C8"]), BLACK) is None
    assert GAME.prompt(play_all(["C8", "D4"]), BLACK) is None


# On 5x5: White swaps Black's C2 for B3 and wins with the chain A3 B3 C2 D2 E1.
GOLDEN_MOVES = ["C2", "Swap", "D3", "d2", "B5", "c 2", "C3", "A3", "E5", "C1", "A2", "A4",
                "D4", "e1"]


def test_golden_playthrough(golden):
    viewers = [("Black", BLACK), ("White", WHITE), ("spectator", None)]
    state = GAME.start({"size": 5}, 0)
    parts = []
    for number, text in enumerate([None, *GOLDEN_MOVES]):
        assert GAME.result(state) is None
        if text is not None:
            (seat,) = GAME.to_move(state)
            move = GAME.parse(state, seat, text)
            state = GAME.play(state, seat, move)
            parts.append(f"=== move {number}: {GAME.info.seats[seat]} plays {text}"
                         f" ({GAME.notation(move)})")
        else:
            parts.append("=== start (-size=5)")
        for name, viewer in viewers:
            parts.append(f"--- seen by {name}")
            if viewer is not None and viewer in GAME.to_move(state):
                parts.append(f"prompt: {GAME.prompt(state, viewer)}")
            parts.append(GAME.render(state, viewer))
    outcome = GAME.result(state)
    assert outcome is not None and outcome.winners == frozenset({WHITE})
    parts.append(f"=== result: winners {sorted(outcome.winners)}; {outcome.reason}")
    golden("hex_playthrough", "\n".join(parts) + "\n")


# ----- help -------------------------------------------------------------------------------


def test_help_page_layout_and_figures():
    page = GAME.help_page()
    lines = page.splitlines()
    assert lines[0] == "Help For Hex"
    for heading in ("Introduction", "Rules", "Move notation", "Options", "References"):
        assert heading in lines
    assert "    hex challenge userid1 userid2" in lines
    assert "    hex move 101 bob secret swap" in lines
    assert "[[" not in page
    assert set(GAME.help_figures()) == set(HELP_FIGURES)
    for name in HELP_FIGURES:
        for line in GAME.render(figure_state(name), None).splitlines():
            assert ("    " + line).rstrip() in lines
    assert all(len(line) <= 76 for line in lines)


def test_help_win_figure_is_hexwikis_example():
    assert figure_state("win") == play_all(HEXWIKI_WIN, 5)
    assert GAME.result(figure_state("win")).winners == frozenset({BLACK})


def test_help_swap_figures_show_b4_becoming_d2():
    before, after = figure_state("before swap"), figure_state("after swap")
    assert names_of(before, BLACK_STONE) == {"B4"}
    assert names_of(after, WHITE_STONE) == {"D2"} and names_of(after, BLACK_STONE) == set()


def test_new_state_finds_the_winner_of_a_built_position():
    board = board_of(5)
    stones = bytearray(board.cells)
    for name in HEXWIKI_RED:
        stones[board.index_of[name]] = BLACK_STONE
    state = new_state(board, bytes(stones), 11, False, -1)
    assert state.winner == BLACK
