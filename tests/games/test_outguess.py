"""Outguess: steps, flips, drops and anchors, the secret guess and its count, the end."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbm.games.base import IllegalMove, InvalidMove
from pbm.games.outguess.game import (
    GAME,
    HELP_GAME,
    HELP_WORKED_LINE,
    LastTurn,
    OutguessState,
    Piece,
    board_lines,
    help_worked_turn,
)
from pbm.games.outguess.notation import Drop, Step, Turn
from tests.games.playout import random_playout, replay

WHITE, BLACK = 0, 1
LABELS = {
    "Wt": Piece(WHITE, False),
    "Wh": Piece(WHITE, True),
    "Bt": Piece(BLACK, False),
    "Bh": Piece(BLACK, True),
    ".": None,
}


def sq(name: str) -> int:
    return (int(name[1:]) - 1) * 8 + "ABCDEFGH".index(name[0].upper())


def position(
    diagram: str,
    *,
    mover: int = WHITE,
    allotment: int = 1,
    guess: str | None = None,
    reserves: tuple[int, int] = (0, 0),
) -> OutguessState:
    """A state from 8 rows of 8 tokens (Wt, Wh, Bt, Bh or .), row 1 first."""
    rows = [line.split() for line in diagram.strip().splitlines()]
    assert len(rows) == 8 and all(len(row) == 8 for row in rows)
    board = tuple(LABELS[token] for row in rows for token in row)
    return OutguessState(board, reserves, mover, allotment, None if guess is None else sq(guess))


def play_line(state: OutguessState, text: str) -> OutguessState:
    seat = min(GAME.to_move(state))
    return GAME.play(state, seat, GAME.parse(state, seat, text))


def play_lines(*texts: str) -> OutguessState:
    state = GAME.start({}, 0)
    for text in texts:
        state = play_line(state, text)
    return state


def refused(state: OutguessState, text: str, kind: type[Exception] = IllegalMove) -> str:
    """The message of the error a line raises; also checks that nothing changed."""
    before = GAME.encode(state)
    seat = min(GAME.to_move(state))
    with pytest.raises(kind) as caught:
        GAME.parse(state, seat, text)
    assert GAME.encode(state) == before
    return str(caught.value)


# A quiet middle game: White to move, its heads piece on D5 and tails on D7.
MIDDLE = """
Bt Bt Bt .  .  Bt Bt Bt
.  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .
.  .  .  .  Bh .  .  .
.  .  .  Wh Bt .  .  .
.  .  .  .  .  .  .  .
.  .  .  Wt .  .  .  .
Wt Wt .  Wt .  Wt Wt Wt
"""


# ----- the start and the first guess -----------------------------------------------------
def test_start_position_and_first_guess_by_black() -> None:
    state = GAME.start({}, 0)
    assert GAME.to_move(state) == {BLACK}
    assert GAME.result(state) is None
    assert [state.board[sq(f"{c}8")] for c in "ABCDEFGH"] == [Piece(WHITE, False)] * 8
    assert [state.board[sq(f"{c}1")] for c in "ABCDEFGH"] == [Piece(BLACK, False)] * 8
    assert sum(p is not None for p in state.board) == 16
    assert state.reserves == (0, 0)
    after = play_line(state, "Guess e8")
    assert after.guess == sq("E8") and after.mover == WHITE and after.allotment == 1
    assert GAME.to_move(after) == {WHITE}
    assert GAME.prompt(state, BLACK) == (
        "Name one of White's pieces for White's first turn, e.g. `guess E8`."
    )


def test_first_line_is_a_guess_alone() -> None:
    state = GAME.start({}, 0)
    assert refused(state, "A1xB1, guess E8") == (
        "Item 1 (`A1xB1`): White moves first, so your first line is only your guess naming"
        " one of White's pieces, e.g. `guess E8`."
    )
    assert refused(state, "guess E8, guess D8") == "Item 2 (`guess D8`): send one guess only."
    assert refused(state, "guess E1") == (
        "Item 1 (`guess E1`): E1 holds Black's tails piece; name the square of one of"
        " White's pieces, e.g. `guess A8`."
    )
    assert "E4 is empty;" in refused(state, "guess E4")


def test_forced_self_capture_first_move() -> None:
    state = play_lines("guess E8")
    lines = list(GAME.legal_moves(state, WHITE))
    # 7 neighbouring pairs in the home row, each capturable both ways, times 8 guesses.
    assert len(lines) == 14 * 8
    for line in lines:
        (step,) = line.actions
        assert isinstance(step, Step) and step.capture
        assert state.board[step.dst] == Piece(WHITE, False)
    after = play_line(state, "A8-B8, guess E1")
    assert after.board[sq("A8")] is None
    assert after.board[sq("B8")] == Piece(WHITE, True)  # flipped by the capture
    assert after.reserves == (1, 0)
    assert refused(state, "A8-A7, guess E1") == (
        "Item 1 (`A8-A7`): the piece on A8 is tails up, and a tails piece steps sideways only"
        " (to B8)."
    )


# ----- steps and flips ---------------------------------------------------------------------
def test_flip_only_on_capture() -> None:
    state = position(MIDDLE, allotment=3, guess="D7")
    quiet = play_line(state, "D5-D4, D7-C7, C7-B7, guess E4")
    assert quiet.board[sq("D4")] == Piece(WHITE, True)  # heads stays heads on empty squares
    assert quiet.board[sq("B7")] == Piece(WHITE, False)  # tails stays tails
    assert quiet.reserves == (0, 0)
    # The heads piece steps onto its own tails piece: that one goes to White's reserve and
    # the stepping piece turns tails up.
    taking = play_line(state, "D5-D6, D6xD7, D8-C8, guess E4")
    assert taking.board[sq("D6")] is None
    assert taking.board[sq("D7")] == Piece(WHITE, False)
    assert taking.board[sq("C8")] == Piece(WHITE, False)
    assert taking.reserves == (1, 0)


def test_capture_of_an_opponent_flips_tails_to_heads() -> None:
    state = position(MIDDLE, mover=BLACK, allotment=1, guess="E5")
    after = play_line(state, "E5xD5, guess D7")
    assert after.board[sq("D5")] == Piece(BLACK, True)
    assert after.board[sq("E5")] is None
    assert after.reserves == (1, 0)
    assert GAME.notation(GAME.parse(state, BLACK, "e5-d5, guess d7")) == "E5xD5, guess D7"


def test_step_errors_name_item_and_problem() -> None:
    state = position(MIDDLE, allotment=2, guess="D7")
    assert refused(state, "D5-C5, D7-C7, guess E4") == (
        "Item 1 (`D5-C5`): the piece on D5 is heads up, and a heads piece steps up or down"
        " only (to D4 or D6)."
    )
    assert refused(state, "D5-D4, D7-D6, guess E4") == (
        "Item 2 (`D7-D6`): the piece on D7 is tails up, and a tails piece steps sideways only"
        " (to C7 or E7)."
    )
    assert refused(state, "D5-D3, D7-C7, guess E4") == (
        "Item 1 (`D5-D3`): a step goes to a neighbouring square; D3 is not next to D5."
    )
    assert refused(state, "D5-D4, E5-F5, guess E4") == (
        "Item 2 (`E5-F5`): E5 holds Black's tails piece; you move only White's pieces."
    )
    assert refused(state, "C5-C4, D5-D4, guess E4") == "Item 1 (`C5-C4`): there is no piece on C5."
    assert refused(state, "D7xC7, D5-D4, guess E4") == (
        "Item 1 (`D7xC7`): C7 is empty, so nothing is captured; write `D7-C7`."
    )
    # Later items see the board as earlier items left it.
    assert refused(state, "D5-D4, D5-D6, guess E4") == "Item 2 (`D5-D6`): there is no piece on D5."


# ----- drops and anchors -------------------------------------------------------------------
def test_drop_counts_as_a_move_of_its_anchor() -> None:
    state = position(MIDDLE, allotment=2, guess="D7", reserves=(2, 0))
    after = play_line(state, "+C7h, +E7t, guess E4")
    assert after.board[sq("C7")] == Piece(WHITE, True)
    assert after.board[sq("E7")] == Piece(WHITE, False)
    assert after.reserves == (0, 0)
    assert after.last == LastTurn(WHITE, sq("D7"), 2)  # both drops were anchored on D7
    assert after.allotment == 3  # Black, the guesser, earns 2 extra moves
    elsewhere = play_line(replace(state, guess=sq("D5")), "+C7h, +E7t, guess E4")
    assert elsewhere.last.count == 0 and elsewhere.allotment == 1


def test_ambiguous_anchor_must_be_named_and_is_then_shown() -> None:
    state = position(MIDDLE, allotment=1, guess="D8", reserves=(1, 0))
    assert refused(state, "+C8h, guess E4") == (
        "Item 1 (`+C8h`): the tails pieces on B8 and D8 could each anchor this drop; name"
        " one, e.g. `+C8h/B8`."
    )
    on_d8 = GAME.parse(state, WHITE, "+c8H/d8, guess e4")
    assert on_d8 == Turn((Drop(sq("C8"), True, sq("D8"), show_anchor=True),), sq("E4"))
    assert GAME.notation(on_d8) == "+C8h/D8, guess E4"
    assert GAME.play(state, WHITE, on_d8).last.count == 1
    on_b8 = GAME.parse(state, WHITE, "+C8h/B8, guess E4")
    assert GAME.play(state, WHITE, on_b8).last.count == 0
    # With one possible anchor the notation leaves it out, even when the player named it.
    single = GAME.parse(state, WHITE, "+C7t/D7, guess E4")
    assert GAME.notation(single) == "+C7t, guess E4"
    assert single.actions[0].anchor == sq("D7")
    assert refused(state, "+C7t/D8, guess E4") == (
        "Item 1 (`+C7t/D8`): D8 holds none of your tails pieces next to C7; the drop can be"
        " anchored on D7."
    )


def test_drop_errors() -> None:
    state = position(MIDDLE, allotment=2, guess="D7", reserves=(1, 0))
    assert refused(state, "D5-D4, +D3h, guess E4") == (
        "Item 2 (`+D3h`): none of your tails pieces is next to D3, so nothing can anchor the"
        " drop."
    )
    # A heads piece is no anchor: once D7 has left, D4 touches only White's heads piece D5.
    assert refused(state, "D7-C7, +D4h, guess E4") == (
        "Item 2 (`+D4h`): none of your tails pieces is next to D4, so nothing can anchor the"
        " drop."
    )
    assert refused(state, "+D8h, D5-D4, guess E4") == (
        "Item 1 (`+D8h`): D8 holds White's tails piece; drops go onto empty squares only."
    )
    assert refused(state, "+C7h, +E7h, guess E4") == (
        "Item 2 (`+E7h`): your reserve is empty, so you have no piece to drop."
    )
    assert refused(state, "+C7, D5-D4, guess E4", InvalidMove) == (
        "Item 1 (`+C7`): say which side is up after the square, `+C7h` for heads or `+C7t`"
        " for tails."
    )


# ----- the guess and its count -------------------------------------------------------------
def test_named_piece_is_followed_through_its_captures() -> None:
    state = position(MIDDLE, mover=BLACK, allotment=2, guess="E5")
    after = play_line(state, "E5xD5, D5-D6, guess D7")  # tails takes, turns heads, steps on
    assert after.last == LastTurn(BLACK, sq("E5"), 2)
    assert after.mover == WHITE and after.allotment == 3
    other = play_line(replace(state, guess=sq("E4")), "E5xD5, D5-D6, guess D7")
    assert other.last.count == 0 and other.allotment == 1


def test_named_piece_captured_mid_turn() -> None:
    diagram = """
    Bt Bt Bt .  .  Bt Bt Bt
    .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  .  .  Wh .  .  .  .
    .  .  .  Wt Wt .  .  .
    .  .  .  .  .  .  .  .
    Wt Wt .  Wt .  Wt Wt Wt
    """
    state = position(diagram, allotment=3, guess="D6", reserves=(1, 0))
    # The named D6 piece steps to C6 (counts 1); the E6 piece follows to D6 and captures it
    # on C6, turning heads up; from then on the named piece counts no more.
    after = play_line(state, "D6-C6, E6-D6, D6xC6, guess A1")
    assert after.last.count == 1
    assert after.board[sq("C6")] == Piece(WHITE, True)
    assert after.reserves == (2, 0)
    assert after.allotment == 2
    # Once captured it never counts again, even though its capturer now moves on.
    longer = play_line(replace(state, allotment=4), "D6-C6, E6-D6, D6xC6, C6-C7, guess A1")
    assert longer.last.count == 1
    not_named = play_line(replace(state, guess=sq("E6")), "D6-C6, E6-D6, D6xC6, guess A1")
    assert not_named.last.count == 2  # the capturer was named: it moved twice


# ----- the allotment and the count through a whole game ------------------------------------
# One game by mail, line by line, from Black's first guess to White's win (used for the
# allotment table, the replay and the golden playthrough).
GAME_LINES = (
    "guess D8",
    "D8xE8, guess D1",
    "D1xE1, E1-E2, guess C8",
    "C8-D8, +C8h/D8, E8-E7, guess E2",
    "E2-E3, +E1h, E3-E4, guess E7",
    "E7-E6, E6-E5, C8-C7, guess E4",
    "E4xE5, E5-D5, E1-E2, guess C7",
    "+C8h/B8, C8xC7, C7-D7, guess D5",
    "D5-E5, guess D7",
    "+D6h, D6-D5, guess E2",
    "E2-E3, E3-E4, guess D7",
    "D5-D4, D4-D3, D3-D2, guess E4",
    "E4-E3, guess D2",
    "D2-D1",
)

# After each line: who moves next, with how many moves, and the count just revealed.
ALLOTMENTS = (
    (WHITE, 1, None),
    (BLACK, 2, 1),  # Black named D8, which captured E8: once
    (WHITE, 3, 2),  # White named D1: it captured E1 and stepped to E2
    (BLACK, 3, 2),  # Black named C8: it stepped to D8, then anchored the drop on C8
    (WHITE, 3, 2),  # White named E2: two steps (the drop on E1 was anchored on F1)
    (BLACK, 3, 2),  # Black named E7: two steps
    (WHITE, 3, 2),  # White named E4: a capture and a step
    (BLACK, 1, 0),  # Black named C7, which White captured with its own dropped piece
    (WHITE, 2, 1),  # White named D5: one step
    (BLACK, 2, 1),  # Black named D7: it anchored the drop on D6
    (WHITE, 3, 2),  # White named E2: two steps
    (BLACK, 1, 0),  # Black named D7, which stayed put
    (WHITE, 2, 1),  # White named E4: one step
)


def test_allotment_carried_over_many_turns() -> None:
    state = GAME.start({}, 0)
    for text, (mover, allotment, count) in zip(GAME_LINES, ALLOTMENTS):
        state = play_line(state, text)
        assert (state.mover, state.allotment) == (mover, allotment), text
        assert (None if state.last is None else state.last.count) == count, text
        assert f"{('White', 'Black')[mover]} to move: {allotment} move" in GAME.render(state, None)
        if state.guess is not None:
            assert GAME.prompt(state, mover).startswith(f"Send {allotment} move")
    final = play_line(state, GAME_LINES[-1])
    outcome = GAME.result(final)
    assert outcome is not None and outcome.winners == {WHITE}
    assert outcome.reason == "White reached Black's home row (row 1) on D1."
    assert GAME.to_move(final) == frozenset()


def test_full_game_by_mail_replays_from_its_log() -> None:
    log = []
    state = GAME.start({}, 0)
    for text in GAME_LINES:
        seat = min(GAME.to_move(state))
        move = GAME.parse(state, seat, text.lower())
        log.append((seat, GAME.notation(move)))
        state = GAME.play(state, seat, move)
    assert [text for _, text in log] == list(GAME_LINES)
    assert [seat for seat, _ in log] == [BLACK] + [WHITE, BLACK] * 6 + [WHITE]
    rebuilt = replay(GAME, log)
    assert rebuilt == state
    assert GAME.decode(json.loads(json.dumps(GAME.encode(state)))) == state


# ----- the end -----------------------------------------------------------------------------
NEAR_THE_END = """
Bt Bt Bt Bt .  Bt Bt Bt
.  Wt .  Wh Wt .  .  .
.  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .
.  .  .  .  Bh .  .  .
Wt Wt .  Wt .  Wt Wt Wt
"""


def test_winning_mid_allotment_needs_no_guess_and_ends_the_turn() -> None:
    state = position(NEAR_THE_END, allotment=3, guess="D2", reserves=(1, 0))
    won = GAME.parse(state, WHITE, "B2-C2, D2-D1")
    assert won == Turn((Step(sq("B2"), sq("C2")), Step(sq("D2"), sq("D1"), True)), None)
    assert GAME.notation(won) == "B2-C2, D2xD1"
    after = GAME.play(state, WHITE, won)
    assert GAME.result(after).winners == {WHITE}
    assert GAME.result(after).reason == "White reached Black's home row (row 1) on D1."
    assert after.last == LastTurn(WHITE, sq("D2"), 1)
    assert after.reserves == (1, 1)
    assert GAME.to_move(after) == frozenset()
    # Moves after the winning one are refused (a guess sent anyway: see below).
    assert refused(state, "D2xD1, D1-D2, guess A1") == (
        "Item 2 (`D1-D2`): the game is already won by item 1 (`D2xD1`); leave out everything"
        " after it."
    )
    # Without a win the whole allotment is still due.
    assert refused(state, "B2-C2, guess A1") == (
        "Item 2 (`guess A1`) comes after only 1 move, but your allotment this turn is 3 moves;"
        " add 2 more before the guess."
    )


def test_a_guess_after_the_winning_move_is_kept_and_said_to_be_unneeded() -> None:
    """The ruling: a `guess` written after a winning item is not needed; the winning line is
    played and the final board says the guess was not used (nothing is dropped silently)."""
    state = position(NEAR_THE_END, allotment=3, guess="D2", reserves=(1, 0))
    won = GAME.parse(state, WHITE, "D2xD1, guess A1")
    assert won == Turn((Step(sq("D2"), sq("D1"), True),), None, sq("A1"))
    assert GAME.notation(won) == "D2xD1, guess A1"
    assert GAME.parse(state, WHITE, GAME.notation(won)) == won  # the log replays it
    after = GAME.play(state, WHITE, won)
    assert GAME.result(after).winners == {WHITE}
    assert GAME.result(after).reason == "White reached Black's home row (row 1) on D1."
    assert GAME.decode(json.loads(json.dumps(GAME.encode(after)))) == after
    for viewer in (WHITE, BLACK, None):
        shown = GAME.render(after, viewer)
        assert "White's `guess A1` after the winning move was not needed:" in shown
        assert "the game ended with that move, so the guess was not used." in shown
        assert GAME.move_text(state, WHITE, won, viewer) == "D2xD1, guess A1"
    # Without a spare guess the final board says nothing of one.
    plain = GAME.play(state, WHITE, GAME.parse(state, WHITE, "D2xD1"))
    assert "not needed" not in GAME.render(plain, BLACK)
    # A guess that is not the last item is still refused, as in any line.
    assert refused(state, "D2xD1, guess A1, guess B1") == (
        "Item 2 (`guess A1`): the guess comes last, after all your moves."
    )


def test_wins_by_drop_and_by_black_reaching_row_8() -> None:
    state = position(NEAR_THE_END, allotment=2, guess="D2", reserves=(1, 0))
    dropped = play_line(state, "+E1t")  # anchored on E2, the only tails piece beside E1
    assert GAME.result(dropped).winners == {WHITE}
    assert dropped.last.count == 0
    black = position(NEAR_THE_END, mover=BLACK, allotment=2, guess="E7")
    won = play_line(black, "E7-E8")
    assert GAME.result(won).winners == {BLACK}
    assert GAME.result(won).reason == "Black reached White's home row (row 8) on E8."
    assert "Revealed: for that turn White had named the piece on E7." in GAME.render(won, BLACK)


LAST_BLACK_PIECE = """
.  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .
.  .  .  .  Bt Wt .  .
.  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .
Wt Wt .  Wt .  Wt Wt Wt
"""


def test_no_legal_move_loses_at_once() -> None:
    state = position(LAST_BLACK_PIECE, allotment=3, guess="F4", reserves=(0, 7))
    # Capturing Black's last piece leaves Black without a move: the game ends there, the
    # rest of White's moves are not played and no guess is needed.
    after = play_line(state, "F4xE4")
    outcome = GAME.result(after)
    assert outcome is not None and outcome.winners == {WHITE}
    assert outcome.reason == "Black has no piece left on the board, so no legal move."
    assert GAME.to_move(after) == frozenset()
    assert after.last.count == 1
    assert refused(state, "F4xE4, E4-E3, guess A1") == (
        "Item 2 (`E4-E3`): the game is already won by item 1 (`F4xE4`); leave out everything"
        " after it."
    )
    # A mover who starts a turn without a piece on the board has lost, however it came about.
    stuck = replace(after, mover=BLACK, allotment=1, guess=sq("A8"), winner=None, reason="")
    outcome = GAME.result(stuck)
    assert outcome is not None and outcome.winners == {WHITE}
    assert outcome.reason == "Black has no legal move at the start of the turn."
    assert GAME.to_move(stuck) == frozenset()
    assert list(GAME.legal_moves(stuck, BLACK)) == []


# ----- reading lines -----------------------------------------------------------------------
def test_line_count_and_guess_errors() -> None:
    state = position(MIDDLE, allotment=2, guess="D7")
    assert refused(state, "D5-D4, guess E4") == (
        "Item 2 (`guess E4`) comes after only 1 move, but your allotment this turn is 2 moves;"
        " add 1 more before the guess."
    )
    assert refused(state, "D5-D4, D4-D3, D3-D2, guess E4") == (
        "Item 3 (`D3-D2`) would be move 3, but your allotment this turn is 2 moves; end the"
        " line with your guess."
    )
    assert refused(state, "D5-D4") == (
        "Your line has only 1 move, but your allotment this turn is 2 moves; add 1 more, then"
        " your guess."
    )
    assert refused(state, "D5-D4, D4-D3") == (
        "Your line ends after item 2 without a guess: add `guess <square>` naming one of"
        " Black's pieces, e.g. `guess A1`."
    )
    assert refused(state, "guess E4, D5-D4, D4-D3") == (
        "Item 1 (`guess E4`): the guess comes last, after all your moves."
    )
    assert refused(state, "D5-D4, D4-D3, guess D3") == (
        "Item 3 (`guess D3`): D3 holds White's heads piece after your moves; name the square"
        " of one of Black's pieces, e.g. `guess A1`."
    )
    assert refused(state, "D5-D4, D4-D3, guess D5") == (
        "Item 3 (`guess D5`): D5 is empty after your moves; name the square of one of Black's"
        " pieces, e.g. `guess A1`."
    )


def test_syntax_errors_say_how_to_write_a_line() -> None:
    state = position(MIDDLE, allotment=2, guess="D7")
    how = (
        "write steps like `A8-B8`, drops like `+C7h` (heads up) or `+C7t` (tails up),"
        " `+C7h/C8` to name the anchor, and end with your guess, e.g. `guess E1`."
    )
    assert refused(state, "  ", InvalidMove) == f"Your move is empty: {how}"
    assert refused(state, "D5-D4, jump D4, guess E4", InvalidMove) == (
        f"Item 2 (`jump D4`) is not a move: {how}"
    )
    assert refused(state, "D5-D4, D4-D3, guess", InvalidMove) == (
        "Item 3 (`guess`): a guess names the square of one of your opponent's pieces,"
        " e.g. `guess E1`."
    )
    assert refused(state, "D5-D4, D4-D3, guess E9", InvalidMove) == (
        "Item 3 (`guess E9`): there is no square E9; the board runs from A1 to H8."
    )
    assert refused(state, "D5-D4, J4-J3, guess E4", InvalidMove) == (
        "Item 2 (`J4-J3`): there is no square J4; the board runs from A1 to H8."
    )


def test_spacing_case_and_separators_are_forgiven() -> None:
    state = position(MIDDLE, allotment=2, guess="D7", reserves=(1, 0))
    texts = ("d5-d4 +c7H guess e4", "D5 - D4; + C7 h ;GUESS: e4", "D5\u2013D4,+C7h,guess=E4")
    for text in texts:
        assert GAME.notation(GAME.parse(state, WHITE, text)) == "D5-D4, +C7h, guess E4"


# ----- secrecy -----------------------------------------------------------------------------
def test_move_text_hides_the_guess_from_all_but_its_author() -> None:
    state = GAME.start({}, 0)
    first = GAME.parse(state, BLACK, "guess E8")
    assert GAME.move_text(state, BLACK, first, BLACK) == "guess E8"
    assert GAME.move_text(state, BLACK, first, WHITE) == "guess ..."
    assert GAME.move_text(state, BLACK, first, None) == "guess ..."
    state = GAME.play(state, BLACK, first)
    line = GAME.parse(state, WHITE, "A8-B8, guess E1")
    assert GAME.move_text(state, WHITE, line, WHITE) == "A8xB8, guess E1"
    assert GAME.move_text(state, WHITE, line, BLACK) == "A8xB8, guess ..."
    assert GAME.move_text(state, WHITE, line, None) == "A8xB8, guess ..."
    near = position(NEAR_THE_END, allotment=3, guess="D2")
    won = GAME.parse(near, WHITE, "D2xD1")
    assert GAME.move_text(near, WHITE, won, BLACK) == "D2xD1"


def test_render_shows_the_pending_guess_to_the_guesser_only() -> None:
    state = play_lines("guess E8", "A8-B8, guess E1")
    line = "Your secret guess for this turn: the piece on E1."
    assert line in GAME.render(state, WHITE)
    assert "guess" not in GAME.render(state, BLACK)
    assert "guess" not in GAME.render(state, None)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), length=st.integers(1, 80))
def test_secret_guess_never_reaches_the_mover_or_spectators(seed: int, length: int) -> None:
    """States that differ only in a guess look the same to everyone but the guesser."""
    rng = random.Random(seed)
    state = GAME.start({}, seed)
    compared = 0
    for _ in range(length):
        if GAME.result(state) is not None:
            break
        seat = min(GAME.to_move(state))
        move = GAME.random_move(state, seat, rng)
        _check_move_text(state, seat, move)
        state = GAME.play(state, seat, move)
        compared += _check_renders(state)
    assert compared > 0


def _check_move_text(state: OutguessState, seat: int, move: Turn) -> None:
    """The move list shows the same text whatever was guessed, except to the author."""
    if move.guess is None:
        return
    twin = Turn(move.actions, _other_square(move.guess))
    for viewer in (1 - seat, None):
        text = GAME.move_text(state, seat, move, viewer)
        assert text == GAME.move_text(state, seat, twin, viewer)
        assert text.endswith("guess ...")
    assert GAME.move_text(state, seat, move, seat) != GAME.move_text(state, seat, twin, seat)


def _other_square(square: int) -> int:
    return (square + 1) % 64


def _other_piece(state: OutguessState, seat: int, besides: int) -> int | None:
    squares = [s for s, p in enumerate(state.board) if p is not None and p.owner == seat]
    others = [s for s in squares if s != besides]
    return others[0] if others else None


def _check_renders(state: OutguessState) -> int:
    """Compare renders with twins whose pending or past guess differs; count comparisons."""
    compared = 0
    running = GAME.result(state) is None
    if running and state.guess is not None:
        other = _other_piece(state, state.mover, state.guess)
        if other is not None:
            twin = replace(state, guess=other)
            for viewer in (state.mover, None):
                assert GAME.render(twin, viewer) == GAME.render(state, viewer)
            assert GAME.render(twin, state.guesser) != GAME.render(state, state.guesser)
            compared += 1
    if state.last is not None:
        twin = replace(state, last=replace(state.last, guess=_other_square(state.last.guess)))
        for viewer in (0, 1, None):
            same = GAME.render(twin, viewer) == GAME.render(state, viewer)
            # Past guesses stay secret from everyone while the game runs; at the end they show.
            assert same == running
        compared += 1
    return compared


# ----- contract checks ---------------------------------------------------------------------
def test_legal_moves_parse_back_and_cover_random_moves() -> None:
    state = play_lines("guess E8", "A8-B8, guess E1", "A1xB1, guess B8")
    state = replace(state, allotment=2)  # White to move with 2 moves
    lines = list(GAME.legal_moves(state, WHITE))
    texts = {GAME.notation(line) for line in lines}
    assert len(texts) == len(lines)
    for line in lines[::37]:
        assert GAME.parse(state, WHITE, GAME.notation(line)) == line
    rng = random.Random(5)
    for _ in range(30):
        assert GAME.notation(GAME.random_move(state, WHITE, rng)) in texts


def test_play_never_mutates_and_encode_round_trips() -> None:
    state = play_lines(*GAME_LINES[:6])
    before = GAME.encode(state)
    move = GAME.parse(state, BLACK, GAME_LINES[6])
    after = GAME.play(state, BLACK, move)
    assert GAME.encode(state) == before
    assert after != state
    for each in (GAME.start({}, 0), state, after, play_lines(*GAME_LINES)):
        assert GAME.decode(json.loads(json.dumps(GAME.encode(each)))) == each


@pytest.mark.parametrize("seed", range(40))
def test_random_playouts_end(seed: int) -> None:
    playout = random_playout(GAME, seed, max_moves=5_000)
    assert playout.outcome is not None and len(playout.outcome.winners) == 1
    assert replay(GAME, playout.log, seed=seed) == playout.state


# ----- golden playthrough and help ---------------------------------------------------------
def test_golden_playthrough(golden) -> None:
    state = GAME.start({}, 0)
    parts = [_snapshot("Start", state)]
    for number, text in enumerate(GAME_LINES, 1):
        seat = min(GAME.to_move(state))
        move = GAME.parse(state, seat, text)
        shown = {viewer: GAME.move_text(state, seat, move, viewer) for viewer in (0, 1, None)}
        state = GAME.play(state, seat, move)
        title = (
            f"Move {number} by {('White', 'Black')[seat]}; in the move list White sees"
            f" `{shown[0]}`, Black `{shown[1]}`, spectators `{shown[None]}`"
        )
        parts.append(_snapshot(title, state))
    golden("outguess_playthrough", "\n".join(parts))


def _snapshot(title: str, state: OutguessState) -> str:
    out = [f"=== {title}"]
    for viewer, name in ((0, "White"), (1, "Black"), (None, "a spectator")):
        out.append(f"--- as {name}")
        out.append(GAME.render(state, viewer))
    return "\n".join(out)


def test_help_page_draws_its_boards_and_its_worked_turn_is_right() -> None:
    page = GAME.help_page()
    assert page.startswith("Help For Outguess\n")
    assert "[[" not in page
    for section in ("Introduction", "Rules", "Move notation", "References"):
        assert f"\n{section}\n" in page
    assert "outguess challenge userid1 userid2" in page
    before, after = help_worked_turn()
    for board in (GAME.start({}, 0).board, before.board, after.board):
        assert "\n".join(f"    {line}".rstrip() for line in board_lines(board)) in page
    assert f"outguess move 101 alice secret {HELP_WORKED_LINE}" in page
    for seat, text in HELP_GAME:
        assert f"{('White', 'Black')[seat]}: {text}" in page
    # What the page says about the worked turn: White has 3 moves, Black named C8, the
    # count is 2 so Black gets 3 moves; anchoring on B8 instead would have counted 1.
    assert before.allotment == 3 and before.guess == sq("C8")
    assert after.last.count == 2 and after.allotment == 3
    on_b8 = HELP_WORKED_LINE.replace("/D8", "/B8")
    assert GAME.play(before, WHITE, GAME.parse(before, WHITE, on_b8)).last.count == 1
    assert max(len(line) for line in page.splitlines()) < 78
