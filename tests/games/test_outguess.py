"""Outguess: steps, flips, drops and anchors, the secret guess and its count, the end."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbm.games.base import IllegalMove, InvalidMove
from pbm.games.outguess import (
    GAME,
    HELP_GAME,
    HELP_WORKED_LINE,
    LastTurn,
    OutguessState,
    Piece,
    board_lines,
    help_worked_turn,
)
from pbm.games.outguess_notation import Drop, Step, Turn, cell_name
from tests.games.playout import random_playout, replay

WHITE, BLACK = 0, 1
LABELS = {"Wt": Piece(WHITE, False), "Wh": Piece(WHITE, True),
          "Bt": Piece(BLACK, False), "Bh": Piece(BLACK, True), ".": None}


def sq(name: str) -> int:
    return (int(name[1:]) - 1) * 8 + "ABCDEFGH".index(name[0].upper())


def position(diagram: str, *, mover: int = WHITE, allotment: int = 1, guess: str | None = None,
             reserves: tuple[int, int] = (0, 0)) -> OutguessState:
    """A state from 8 rows of 8 tokens (Wt, Wh, Bt, Bh or .), row 1 first."""
    rows = [line.split() for line in diagram.strip().splitlines()]
    assert len(rows) == 8 and all(len(row) == 8 for row in rows)
    board = tuple(LABELS[token] for row in rows for token in row)
    return OutguessState(board, reserves, mover, allotment,
                         None if guess is None else sq(guess))


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
    # A heads piece is no anchor: D6 touches only the heads piece on D5 and the tails on D7.
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
Bt Bt Bt .  .  Bt Bt Bt
.  Wt .  Wh .  .  .  .
.  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .
.  .  .  .  Bh .  .  .
Wt Wt .  Wt .  Wt Wt Wt
"""


def test_winning_mid_allotment_needs_no_guess_and_ends_the_turn() -> None:
    state = position(NEAR_THE_END, allotment=3, guess="D2", reserves=(1, 0))
    won = GAME.parse(state, WHITE, "D2-D1")
    assert won == Turn((Step(sq("D2"), sq("D1")),), None)
    after = GAME.play(state, WHITE, won)
    assert GAME.result(after).winners == {WHITE}
    assert GAME.result(after).reason == "White reached Black's home row (row 1) on D1."
    assert after.last == LastTurn(WHITE, sq("D2"), 1)
    assert GAME.to_move(after) == frozenset()
    # A guess sent anyway is dropped; moves after the winning one are refused.
    assert GAME.notation(GAME.parse(state, WHITE, "D2-D1, guess A1")) == "D2-D1"
    assert refused(state, "D2-D1, D1-D2, guess A1") == (
        "Item 2 (`D1-D2`): the game is already won by item 1 (`D2-D1`); leave out everything"
        " after it."
    )
    # Entering the home row by a capture wins too, and so does a drop (anchored on B2).
    by_capture = play_line(state, "D2-C2? ".replace("? ", "") + "") if False else None
    assert by_capture is None


def test_wins_by_capture_and_by_drop_into_the_home_row() -> None:
    state = position(NEAR_THE_END, allotment=3, guess="D2", reserves=(1, 0))
    taken = play_line(state, "B2-C2, B2-A2? ".replace(", B2-A2? ", "") + ", C2-D2? "
                      .replace(", C2-D2? ", "")) if False else None
    assert taken is None
