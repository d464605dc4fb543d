"""Breakthrough: the published rules' examples, each rule and refusal, notation, the board
as text, storing, random play, and a golden playthrough."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbm.games import registry
from pbm.games.base import IllegalMove, InvalidMove, InvalidOption
from pbm.games.breakthrough.board import (
    EMPTY,
    GLYPHS,
    SIZES,
    BreakthroughState,
    from_rows,
    position,
)
from pbm.games.breakthrough.game import CAPTURES_MOVES, GAME, STEPS_MOVES, played
from pbm.games.breakthrough.moves import TRIES
from tests.games.playout import random_playout, replay

WHITE, BLACK = 0, 1


def legal(state: BreakthroughState, seat: int | None = None) -> set[str]:
    seat = state.turn if seat is None else seat
    return {GAME.notation(m) for m in GAME.legal_moves(state, seat)}


def of_piece(state: BreakthroughState, square: str) -> set[str]:
    return {m for m in legal(state) if m.startswith(square)}


def refusal(state: BreakthroughState, text: str, seat: int | None = None) -> str:
    with pytest.raises(IllegalMove) as caught:
        GAME.parse(state, state.turn if seat is None else seat, text)
    return str(caught.value)


def play_all(moves: list[str] | tuple[str, ...], size: int = 8) -> BreakthroughState:
    """Notations played in turn from the start, as the server replays a log."""
    options = GAME.parse_options([f"-size={size}"])
    return replay(GAME, [(i % 2, text) for i, text in enumerate(moves)], options)


# ----- the game contract ------------------------------------------------------------------


def test_registered_with_its_info():
    game = registry.lookup("BreakThrough")
    assert game is GAME
    assert game.info.name == "breakthrough" and game.info.title == "Breakthrough"
    assert game.info.seats == ("White", "Black")
    assert game.info.rules_version == 1 and not game.info.hidden
    assert game.parse_options([]) == {"size": 8}
    assert len(game.info.summary) < 76


def test_start_two_full_rows_a_side_and_white_moves_first():
    state = GAME.start(GAME.parse_options([]), 12345)
    assert state == GAME.start({"size": 8}, 0)  # no randomness in Breakthrough
    assert state == from_rows(["x" * 8] * 2 + ["." * 8] * 4 + ["o" * 8] * 2)
    assert GAME.to_move(state) == frozenset({WHITE})
    assert GAME.result(state) is None
    assert [len(p) for p in state.pieces] == [16, 16]
    # Only the front row can move at first: 8 straight steps and 14 diagonal ones.
    assert len(legal(state)) == 22
    assert legal(state) >= {"A2-A3", "A2-B3", "H2-H3", "H2-G3", "D2-C3", "D2-D3", "D2-E3"}


@pytest.mark.parametrize("size", SIZES)
def test_every_size_fills_two_rows_a_side(size):
    state = GAME.start(GAME.parse_options([f"-size={size}"]), 0)
    assert state.size == size
    assert state.board == "o" * 2 * size + "." * size * (size - 4) + "x" * 2 * size
    assert len(legal(state)) == 3 * size - 2


@pytest.mark.parametrize(("word", "message"), [
    ("-size=5", "Option -size of Breakthrough must be one of: 6, 7, 8, 9, 10, 11, 12."),
    ("-size=13", "Option -size of Breakthrough must be one of: 6, 7, 8, 9, 10, 11, 12."),
    ("-size=8x8", "Option -size of Breakthrough takes a whole number, e.g. -size=8."),
    ("-size=" + "9" * 5000, "Option -size of Breakthrough takes a whole number, e.g. -size=8."),
    ("-rows=8", "Breakthrough has no option '-rows'. Its options are: -size."),
])
def test_size_option_refusals(word, message):
    with pytest.raises(InvalidOption) as refused:
        GAME.parse_options([word])
    assert str(refused.value) == message


def test_play_does_not_mutate_and_players_alternate():
    state = GAME.start({"size": 8}, 0)
    before = GAME.encode(state)
    after = GAME.play(state, WHITE, GAME.parse(state, WHITE, "e2-e3"))
    assert GAME.encode(state) == before
    assert GAME.to_move(after) == frozenset({BLACK})
    assert after.board[12] == EMPTY and after.board[20] == GLYPHS[WHITE]  # E2 left, E3 held
    assert after.pieces[WHITE] == tuple(sorted((*range(12), *range(13, 16), 20)))


# ----- the published rules' own examples ----------------------------------------------------
# Wikipedia, "Breakthrough (board game)", Rules (after Troyka's rules): "the white piece on
# c5 can move into any of the marked squares" (b6, c6, d6); "the black piece can capture
# either the white piece e2 or the one on g2" (the black piece on f3, White's f2 straight
# ahead of it). Both are the help page's worked examples.


def test_source_example_a_piece_moves_straight_or_diagonally_forward():
    state = played(STEPS_MOVES)
    assert state.turn == WHITE
    assert of_piece(state, "C5") == {"C5-B6", "C5-C6", "C5-D6"}


def test_source_example_captures_diagonally_forward_only():
    state = from_rows([
        "x x x x x x x x",
        "x x x x x . x x",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . x . .",
        "o o o o o o o o",
        "o o o o o o o o",
    ], BLACK)
    assert of_piece(state, "F3") == {"F3xE2", "F3xG2"}
    assert refusal(state, "F3-F2") == (
        "F2 holds White's piece, straight ahead of yours: a piece captures diagonally"
        " forward only, and moves straight only onto an empty square. The piece on F3 may"
        " play F3xE2 or F3xG2.")


def test_help_example_white_may_take_the_black_piece_on_f3():
    state = played(CAPTURES_MOVES)
    assert state.turn == WHITE
    assert {m for m in legal(state) if "xF3" in m} == {"E2xF3", "G2xF3"}
    # F2 and F3 face each other: neither may step straight ahead; F2 may step aside.
    assert of_piece(state, "F2") == {"F2-E3", "F2-G3"}
    assert GAME.prompt(state, WHITE) == (
        "Move a piece (o) one square up; you can capture: E2xF3 and G2xF3.")


# ----- each rule ----------------------------------------------------------------------------


def test_capturing_is_not_compulsory_and_never_chained():
    state = played(CAPTURES_MOVES)
    assert "A5-A6" in legal(state) and "E2-E3" in legal(state)
    after = GAME.play(state, WHITE, GAME.parse(state, WHITE, "E2xF3"))
    assert GAME.to_move(after) == frozenset({BLACK})  # one capture, then Black's turn
    assert after.captured(BLACK) == 1 and len(after.pieces[BLACK]) == 15


def test_black_moves_down_the_board():
    state = play_all(["A2-A3"])
    assert of_piece(state, "D7") == {"D7-C6", "D7-D6", "D7-E6"}
    assert refusal(state, "D7-D8") == (
        "A piece moves one square forward, straight or diagonally (down the board, to"
        " row 1): D7-D8 is not such a step. The piece on D7 may play D7-C6, D7-D6 or"
        " D7-E6.")


@pytest.mark.parametrize(("text", "instead"), [
    ("D2-D1", "D2-C3, D2-D3 or D2-E3"),  # backwards (onto its own piece, too)
    ("D2-C2", "D2-C3, D2-D3 or D2-E3"),  # sideways
    ("D2-D4", "D2-C3, D2-D3 or D2-E3"),  # two squares
    ("D2-F4", "D2-C3, D2-D3 or D2-E3"),
    ("D2-D2", "D2-C3, D2-D3 or D2-E3"),
    ("A2-H3", "A2-A3 or A2-B3"),
])
def test_a_piece_never_moves_back_sideways_or_far(text, instead):
    origin, target = text.split("-")
    assert refusal(GAME.start({"size": 8}, 0), text) == (
        "A piece moves one square forward, straight or diagonally (up the board, towards"
        f" the last row): {origin}-{target} is not such a step. The piece on {origin} may"
        f" play {instead}.")


def test_a_piece_moves_onto_an_empty_square_not_its_own():
    state = GAME.start({"size": 8}, 0)
    assert refusal(state, "D1-D2") == (
        "D2 holds one of your own pieces. The piece on D1 cannot move now. Your pieces"
        " that can move are on A2, B2, C2, D2, E2, F2, G2 and H2.")
    assert refusal(state, "D1-E2") == refusal(state, "D1-D2").replace("D2 holds", "E2 holds")


def test_straight_ahead_blocks_both_ways():
    # Face to face on D4 and D5: neither may step straight, both may step aside or capture.
    state = play_all(["D2-D3", "D7-D6", "D3-D4", "D6-D5"])
    assert of_piece(state, "D4") == {"D4-C5", "D4-E5"}
    state = play_all(["D2-D3", "D7-D6", "D3-D4", "D6-D5", "H2-H3"])
    assert of_piece(state, "D5") == {"D5-C4", "D5-E4"}


# ----- winning -----------------------------------------------------------------------------


def test_white_wins_by_reaching_row_8_with_a_capture():
    state = from_rows([
        "x x x x x x x x",
        "x x o x x x x .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "o o . o o o o o",
        "o o o o o o o o",
    ])
    assert of_piece(state, "C7") == {"C7xB8", "C7xD8"}  # C8 is straight ahead: blocked
    won = GAME.play(state, WHITE, GAME.parse(state, WHITE, "c7xd8"))
    outcome = GAME.result(won)
    assert outcome.winners == frozenset({WHITE})
    assert outcome.reason == "White reached row 8 with the piece on D8."
    assert GAME.to_move(won) == frozenset() and list(GAME.legal_moves(won, BLACK)) == []
    assert refusal(won, "A7-A6", BLACK) == (
        "The game is over: White reached row 8 with the piece on D8.")


def test_black_wins_by_stepping_onto_row_1():
    state = from_rows([
        "x x x x x x x x",
        "x x x x x x x .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "o o o o o o o x",
        "o o o o o o o .",
    ], BLACK)
    won = GAME.play(state, BLACK, GAME.parse(state, BLACK, "H2 H1"))
    assert GAME.result(won).winners == frozenset({BLACK})
    assert GAME.result(won).reason == "Black reached row 1 with the piece on H1."


def test_taking_the_last_piece_wins():
    state = from_rows([
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . x . . .",
        ". . . o . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "o . . . . . . .",
    ], WHITE)
    assert GAME.result(state) is None
    won = GAME.play(state, WHITE, GAME.parse(state, WHITE, "D4-E5"))  # '-' reads a capture
    outcome = GAME.result(won)
    assert outcome.winners == frozenset({WHITE})
    assert outcome.reason == "White captured all of Black's pieces."
    assert won.captured(BLACK) == 16


def test_reaching_the_far_row_by_taking_the_last_piece_says_both():
    state = from_rows([". . . . . . . x", ". . . . . . o .", *[". " * 8] * 5,
                       "o . . . . . . ."])
    won = GAME.play(state, WHITE, GAME.parse(state, WHITE, "G7-H8"))
    assert GAME.result(won).reason == (
        "White reached row 8 with the piece on H8, taking Black's last piece.")


def test_decode_finds_the_winner_from_the_board():
    for rows, winner in [(["...o....", *["........"] * 6, "x......."], WHITE),
                         (["........", *["........"] * 6, "ox......"], BLACK),
                         (["x.......", *["........"] * 7], BLACK)]:
        state = from_rows(rows)
        assert state.winner == winner
        assert GAME.decode(json.loads(json.dumps(GAME.encode(state)))) == state


@settings(max_examples=300, deadline=None)
@given(size=st.sampled_from(SIZES), data=st.data())
def test_a_player_with_pieces_always_has_a_move(size, data):
    # Why there is no stalemate (help page, rule 5): the most advanced piece of a side has
    # no piece of its own diagonally ahead (that one would be further), so on a board of
    # two columns or more it can always step or capture diagonally. Any board at all
    # where nobody has reached the far row yet:
    middle = data.draw(st.text(alphabet="ox.", min_size=size * (size - 2),
                               max_size=size * (size - 2)))
    first = data.draw(st.text(alphabet="o.", min_size=size, max_size=size))
    last = data.draw(st.text(alphabet="x.", min_size=size, max_size=size))
    turn = data.draw(st.sampled_from((WHITE, BLACK)))
    state = position(size, first + middle + last, turn)
    if state.winner is None:
        assert legal(state), state.board
        assert GAME.random_move(state, turn, random.Random(0)) is not None


# ----- refusals ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "B2", "B2-", "2B-3B", "B2-B3-B4", "B2 to B3", "pass",
                                  "B2--B3", "BB2-B3", "B2Q", "é2-é3", "B2-B3" + "x" * 40])
def test_unreadable_move_says_how_to_write_it(text):
    with pytest.raises(InvalidMove) as caught:
        GAME.parse(GAME.start({"size": 8}, 0), WHITE, text)
    shown = text.strip() if len(text.strip()) <= 20 else text.strip()[:20] + "..."
    assert str(caught.value) == (
        f"Cannot read '{shown}' as a Breakthrough move: write the square of your piece and"
        " the square it goes to, e.g. B2-B3, or B2xC3 to capture on C3 (pbmserv's B2F, B2L"
        " and B2R are read too).")


def test_hostile_text_is_bounded():
    start = GAME.start({"size": 8}, 0)
    for text in ["B" + "9" * 5000 + "-B3", "B2-B3" * 1000, " " * 10_000 + "B2-B3x"]:
        with pytest.raises(InvalidMove) as caught:
            GAME.parse(start, WHITE, text)
        assert len(str(caught.value)) < 300
    # A long line of spaces round a real move is still only the move.
    assert GAME.notation(GAME.parse(start, WHITE, " " * 10_000 + "b2-b3" + "\t" * 50)) == \
        "B2-B3"


@pytest.mark.parametrize(("text", "missing"), [
    ("I2-I3", "I2"), ("A9-A8", "A9"), ("A0-A1", "A0"), ("B2-B999", "B999"), ("Z2-Z3", "Z2"),
    ("A2-I3", "I3"),  # the piece's square first, then the target's
])
def test_no_such_square(text, missing):
    assert refusal(GAME.start({"size": 8}, 0), text) == (
        f"There is no square {missing}: the board has columns A to H and rows 1 to 8.")


def test_no_such_square_on_a_larger_board():
    state = GAME.start({"size": 10}, 0)
    assert GAME.notation(GAME.parse(state, WHITE, "j2-j3")) == "J2-J3"
    assert refusal(state, "K2-K3") == (
        "There is no square K2: the board has columns A to J and rows 1 to 10.")


def test_no_piece_there_names_the_pieces_that_can_move():
    state = GAME.start({"size": 8}, 0)
    assert refusal(state, "E4-E5") == (
        "There is no piece on E4. Your pieces that can move are on A2, B2, C2, D2, E2, F2,"
        " G2 and H2.")
    state = play_all(["C2-C3", "H7-H6", "C3-C4"])
    assert refusal(state, "C4-C3") == (
        "The piece on C4 is White's; you play Black (x). Your pieces that can move are on"
        " H6, A7, B7, C7, D7, E7, F7, G7 and 2 more.")


def test_a_capture_onto_an_empty_square_is_refused():
    state = GAME.start({"size": 8}, 0)
    assert refusal(state, "B2xC3") == (
        "There is nothing to capture on C3: it is empty. To move there, write B2-C3.")


def test_a_short_step_off_the_board():
    state = GAME.start({"size": 8}, 0)
    assert refusal(state, "A2L") == (
        "That step would take the piece on A2 off the board (the board has columns A to H"
        " and rows 1 to 8). The piece on A2 may play A2-A3 or A2-B3.")


def test_out_of_turn():
    assert refusal(GAME.start({"size": 8}, 0), "A7-A6", BLACK) == (
        "It is White's turn, not Black's.")


# ----- notation ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["B2-C3", "b2-c3", " b2 - c3 ", "B2C3", "b2 c3", "B2:C3",
                                  "b 2 c 3", "B2R", "b2r", "b2 R"])
def test_notation_forgives_case_spaces_and_joiners(text):
    move = GAME.parse(GAME.start({"size": 8}, 0), WHITE, text)
    assert GAME.notation(move) == "B2-C3"


def test_a_capture_reads_with_a_dash_or_an_x_and_is_recorded_with_an_x():
    state = played(CAPTURES_MOVES)
    for text in ["E2xF3", "e2-f3", "E2 X F3", "e2f3", "e2r"]:
        assert GAME.notation(GAME.parse(state, WHITE, text)) == "E2xF3"
    assert GAME.notation(GAME.parse(state, WHITE, "g2l")) == "G2xF3"


def test_short_notation_is_as_the_board_is_printed_for_both_sides():
    state = play_all(["A2-A3"])
    assert GAME.notation(GAME.parse(state, BLACK, "c7l")) == "C7-B6"
    assert GAME.notation(GAME.parse(state, BLACK, "C7F")) == "C7-C6"
    assert GAME.notation(GAME.parse(state, BLACK, "c7r")) == "C7-D6"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 80))
def test_parse_accepts_exactly_the_legal_moves(seed, plies):
    rng = random.Random(seed)
    state = GAME.start({"size": 8}, seed)
    for _ in range(plies):
        if GAME.result(state) is not None:
            return
        state = GAME.play(state, state.turn, GAME.random_move(state, state.turn, rng))
    if GAME.result(state) is not None:
        return
    accepted = set()
    for origin in state.geometry.squares:
        for target in state.geometry.squares:
            try:
                move = GAME.parse(state, state.turn, f"{origin.name.lower()}{target.name}")
            except IllegalMove as error:
                assert str(error)
            else:
                accepted.add(GAME.notation(move))
                assert GAME.notation(GAME.parse(state, state.turn, GAME.notation(move))) == \
                    GAME.notation(move)
    assert accepted == legal(state) and accepted


# ----- random moves ------------------------------------------------------------------------


def test_random_move_is_uniform_over_the_legal_moves():
    # After 1. C2-C3 H7-H6: White has 23 moves. 23,000 draws: each about 1,000 times
    # (a standard deviation of 31; the bounds are nearly four of them).
    state = play_all(["C2-C3", "H7-H6"])
    rng = random.Random(7)
    drawn = Counter(GAME.notation(GAME.random_move(state, WHITE, rng)) for _ in range(23_000))
    assert set(drawn) == legal(state) and len(drawn) == 23
    assert all(880 < count < 1120 for count in drawn.values()), drawn


def test_random_move_is_uniform_where_few_draws_are_legal():
    # Sixteen White pieces and only seven moves (a board found by search): 7 of the 48
    # (piece, direction) draws are legal, so about 2% of the calls run out of TRIES draws
    # and choose from the listed moves instead. Both ways together are still uniform.
    state = from_rows([
        "x . x . x x . .",
        "o x . x . . x .",
        "o o x x . x x .",
        "o o o x . x . .",
        "o o o o . . . .",
        "o o o . . . . .",
        "o o . . x . x x",
        "o . . . . . . .",
    ])
    assert len(state.pieces[WHITE]) == 16
    assert legal(state) == {"A6xB7", "A7-B8", "B5xC6", "B6-C7", "C4xD5", "C5xD6", "D4-E5"}
    assert (41 / 48) ** TRIES > 0.01
    rng = random.Random(3)
    drawn = Counter(GAME.notation(GAME.random_move(state, WHITE, rng)) for _ in range(14_000))
    assert set(drawn) == legal(state)
    assert all(1800 < count < 2200 for count in drawn.values()), drawn


@pytest.mark.parametrize("size", SIZES)
def test_random_playouts_end_and_replay(size):
    for seed in range(4):
        playout = random_playout(GAME, seed, max_moves=size * size * 2,
                                 options={"size": size})
        assert playout.outcome is not None and len(playout.outcome.winners) == 1
        # Every move takes one piece one row forward: no game outlasts that.
        assert len(playout.log) <= 2 * 2 * size * (size - 1)
        assert replay(GAME, playout.log, {"size": size}) == playout.state


# ----- showing -----------------------------------------------------------------------------


def test_render_shows_the_last_move_and_the_pieces_taken():
    state = play_all(["D2-D3", "E7-E6", "D3-D4", "E6-E5", "D4xE5"])
    assert GAME.render(state, None) == (
        "     A B C D E F G H\n"
        "  8  x x x x x x x x  8\n"
        "  7  x x x x . x x x  7\n"
        "  6  . . . . . . . .  6\n"
        "  5  . . . .[o]. . .  5\n"
        "  4  . . .(.). . . .  4\n"
        "  3  . . . . . . . .  3\n"
        "  2  o o o . o o o o  2\n"
        "  1  o o o o o o o o  1\n"
        "     A B C D E F G H\n"
        "\n"
        "White (o): 16 pieces, moving up to row 8\n"
        "Black (x): 15 pieces (1 taken), moving down to row 1\n"
        "Last move: White D4xE5, to [o] from (.), taking a Black piece\n"
    )


@pytest.mark.parametrize("size", SIZES)
def test_render_fits_76_columns_on_every_size(size):
    playout = random_playout(GAME, size, options={"size": size})
    for viewer in (None, WHITE, BLACK):
        text = GAME.render(playout.state, viewer)
        assert all(len(line) <= 76 for line in text.splitlines())
    # The marks at the board's edges: a last move from the last column to the first.
    assert "Result: " in GAME.render(playout.state, None)


def test_marks_at_the_edges_of_the_board():
    state = play_all(["B2-A3"])
    lines = GAME.render(state, None).splitlines()
    assert lines[6] == "  3 [o]. . . . . . .  3"
    assert lines[7] == "  2  o(.)o o o o o o  2"
    state = play_all(["A2-A3", "G7-H6"])
    lines = GAME.render(state, None).splitlines()
    assert lines[2] == "  7  x x x x x x(.)x  7"
    assert lines[3] == "  6  . . . . . . .[x] 6"


def test_nothing_is_hidden_every_viewer_sees_the_same():
    rng = random.Random(11)
    state = GAME.start({"size": 8}, 0)
    while GAME.result(state) is None:
        seat = state.turn
        move = GAME.random_move(state, seat, rng)
        texts = {GAME.move_text(state, seat, move, viewer) for viewer in (None, WHITE, BLACK)}
        assert texts == {GAME.notation(move)}
        state = GAME.play(state, seat, move)
        assert len({GAME.render(state, viewer) for viewer in (None, WHITE, BLACK)}) == 1
        assert GAME.seat_view(state, state.turn) == state


def test_prompt_for_the_seat_to_move_only():
    start = GAME.start({"size": 8}, 0)
    assert GAME.prompt(start, WHITE) == (
        "Move a piece (o) one square up, straight or diagonally, e.g. H2-H3.")
    assert GAME.prompt(start, BLACK) is None
    state = play_all(["A2-A3"])
    assert GAME.prompt(state, BLACK) == (
        "Move a piece (x) one square down, straight or diagonally, e.g. A7-A6.")


def test_prompt_counts_captures_beyond_six():
    state = from_rows([
        "x x x x x x x x",
        "x x x x x x x x",
        "o o o o o o o o",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
    ])
    assert GAME.prompt(state, WHITE) == (
        "Move a piece (o) one square up; you can capture: A6xB7, B6xA7, B6xC7, C6xB7,"
        " C6xD7, D6xC7 and 8 more.")


# ----- storing -----------------------------------------------------------------------------


def test_encode_is_compact_json_and_round_trips():
    state = play_all(["D2-D3", "E7-E6", "D3-D4", "E6-E5", "D4xE5"])
    data = json.loads(json.dumps(GAME.encode(state)))
    assert data == {"size": 8, "turn": 1, "last": "D4xE5",
                    "board": state.board}
    restored = GAME.decode(data)
    assert restored == state and restored.last == state.last
    assert GAME.render(restored, None) == GAME.render(state, None)
    assert GAME.decode(GAME.encode(GAME.start({"size": 6}, 0))).last is None


@pytest.mark.parametrize("data", [
    {"size": 8, "board": "o" * 63, "turn": 0},
    {"size": 8, "board": "q" * 64, "turn": 0},
    {"size": 5, "board": "." * 25, "turn": 0},
    {"size": 8, "board": "." * 64, "turn": 2},
    {"size": 8, "board": "." * 64, "turn": 0, "last": "D4+E5"},
])
def test_decode_refuses_what_encode_never_writes(data):
    with pytest.raises(ValueError):
        GAME.decode(data)


# ----- golden playthrough ------------------------------------------------------------------

# A short game: an exchange on E5 and F6, White's C-file piece taken on D6, and Black's
# D-file piece running through the gap White left to take on E1.
GOLDEN_MOVES = (
    "D2-D3", "E7-E6", "D3-D4", "E6-E5", "D4xE5", "F7-F6", "E5xF6", "G7xF6", "C2-C3", "F6-F5",
    "C3-C4", "F5-F4", "C4-C5", "F4-F3", "E2xF3", "D7-D6", "C5xD6", "C7xD6", "F3-F4", "D6-D5",
    "F4-F5", "D5-D4", "F5-F6", "D4-D3", "F6-G7", "H8xG7", "A2-A3", "D3-D2", "A3-A4", "D2xE1",
)


def test_golden_playthrough(golden):
    viewers = [("White", WHITE), ("Black", BLACK), ("spectator", None)]
    state = GAME.start({"size": 8}, 0)
    parts = []
    for number, text in enumerate([None, *GOLDEN_MOVES]):
        if text is not None:
            (seat,) = GAME.to_move(state)
            state = GAME.play(state, seat, GAME.parse(state, seat, text.lower()))
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
    golden("breakthrough_playthrough", "\n".join(parts) + "\n")


# ----- help --------------------------------------------------------------------------------


def test_help_page_layout_and_figures():
    page = GAME.help_page()
    lines = page.splitlines()
    assert lines[0] == "Help For Breakthrough"
    for heading in ("Introduction", "Rules", "Move notation", "Options", "References"):
        assert heading in lines
    assert "    breakthrough challenge userid1 userid2" in lines
    assert "    breakthrough challenge -size=N userid1 userid2" in lines
    figures = GAME.help_figures()
    assert figures["steps"] == GAME.render(played(STEPS_MOVES), None)
    assert figures["captures"] == GAME.render(played(CAPTURES_MOVES), None)
    for figure in figures.values():
        for line in figure.splitlines():
            assert ("    " + line).rstrip() in lines
    # The moves the page spells out are the moves its figures play.
    assert "1. C2-C3 H7-H6 2. C3-C4 H6-H5 3. C4-C5 A7-A6" in page
    assert " ".join(page.split()).count(
        "1. A2-A3 F7-F6 2. A3-A4 F6-F5 3. A4-A5 F5-F4 4. H2-H3 F4-F3") == 1
    for example in ("breakthrough move 101 alice secret E2-E3",
                    "breakthrough move 101 bob secret d7 d6"):
        assert "    " + example in lines
    assert all(len(line) <= 76 for line in lines)
