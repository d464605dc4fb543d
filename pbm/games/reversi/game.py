"""Reversi's rule module: reading and checking a move, playing it, the end and the score.

The rules are the World Othello Federation's (the help page cites them): the standard
start, Black first, a move must outflank, a player passes only without a legal move, the
game ends when neither can move, and the empty squares then go to the winner's score.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from textwrap import wrap
from typing import Any

from pbm.games.base import Game, GameInfo, IllegalMove, InvalidMove, Outcome, Viewer
from pbm.games.reversi.board import (
    COLUMNS,
    SIZE,
    SQUARES,
    bit,
    count,
    flips,
    name,
    square,
)
from pbm.games.reversi.state import (
    BLACK,
    PASS,
    PASS_WORD,
    SEATS,
    START_BLACK,
    START_WHITE,
    WHITE,
    ReversiState,
    legal_names,
)
from pbm.games.reversi.words import WIDTH, board_text, score_reason, status_lines
from pbm.games.text import and_list

EXAMPLE = "D3"

# A square is a letter and a number of at most three digits (mail may hold anything: a
# number of thousands of digits is never handed to int()), spaces allowed round both.
_SQUARE_RE = re.compile(r"\s*([A-Za-z])\s*([0-9]{1,3})\s*")
_PASS_RE = re.compile(r"\s*pass\s*", re.IGNORECASE)


class Reversi(Game[ReversiState, int]):
    """The rule module; stateless, one instance registered as GAME. A move is a square
    number (0 is A1, 63 is H8) or PASS."""

    info = GameInfo(
        name="reversi",
        title="Reversi",
        seats=SEATS,
        rules_version=1,
        summary="Outflank and turn over the other colour's discs; most discs wins (8x8).",
    )

    # ----- starting -------------------------------------------------------------------
    def start(self, options: dict[str, Any], seed: int) -> ReversiState:
        return ReversiState(START_BLACK, START_WHITE)

    # ----- playing --------------------------------------------------------------------
    def to_move(self, state: ReversiState) -> frozenset[int]:
        # A player without a legal move is still to move: they mail pass (as a player
        # says "pass" over the board in the WOF's rules), unless neither can move.
        return frozenset() if state.finished else frozenset({state.mover})

    def parse(self, state: ReversiState, seat: int, text: str) -> int:
        move = _read(text)
        _check(state, seat, move)
        return move

    def play(self, state: ReversiState, seat: int, move: int) -> ReversiState:
        if move == PASS:
            return ReversiState(state.black, state.white, 1 - seat, PASS)
        own, other = state.discs(seat), state.discs(1 - seat)
        turned = flips(own, other, move)
        own |= turned | bit(move)
        other &= ~turned
        black, white = (other, own) if seat else (own, other)
        return ReversiState(black, white, 1 - seat, move, turned)

    def notation(self, move: int) -> str:
        return PASS_WORD if move == PASS else name(move)

    def result(self, state: ReversiState) -> Outcome | None:
        if not state.finished:
            return None
        discs = (count(state.black), count(state.white))
        if discs[BLACK] == discs[WHITE]:
            winners: frozenset[int] = frozenset()
        else:
            winners = frozenset({BLACK if discs[BLACK] > discs[WHITE] else WHITE})
        return Outcome(winners, score_reason(SEATS, discs))

    def legal_moves(self, state: ReversiState, seat: int) -> Iterator[int]:
        if state.finished or seat != state.mover:
            return
        if state.must_pass:
            yield PASS
            return
        legal = state.legal
        while legal:
            low = legal & -legal
            yield low.bit_length() - 1
            legal ^= low

    def random_move(self, state: ReversiState, seat: int, rng: random.Random) -> int:
        # Uniform over the legal moves without listing them: drop the lowest set bit of the
        # legal squares a random number of times and take the next one.
        legal = state.legal
        if not legal:
            if state.must_pass and seat == state.mover:
                return PASS
            raise ValueError(f"{SEATS[seat]} has no move here")
        for _ in range(rng.randrange(legal.bit_count())):
            legal &= legal - 1
        return (legal & -legal).bit_length() - 1

    def prompt(self, state: ReversiState, seat: int) -> str | None:
        if state.finished or seat != state.mover:
            return None
        if state.must_pass:
            return f"You have no legal move: send {PASS_WORD}."
        # A mail's line holds 76 characters, and a position may have twenty legal moves.
        return "\n".join(wrap(f"Your legal moves: {and_list(legal_names(state))}.", WIDTH))

    # ----- showing --------------------------------------------------------------------
    def render(self, state: ReversiState, viewer: Viewer) -> str:
        # Reversi hides nothing: every viewer sees the same board.
        return board_text(state) + "\n" + "\n".join(status_lines(state)) + "\n"

    # ----- storing --------------------------------------------------------------------
    def encode(self, state: ReversiState) -> Any:
        # The bitboards in hexadecimal: JSON numbers past 2**53 lose digits in some readers.
        data: dict[str, Any] = {"b": f"{state.black:x}", "w": f"{state.white:x}",
                                "m": state.mover}
        if state.last is not None:
            data["l"] = state.last
            data["t"] = f"{state.turned:x}"
        return data

    def decode(self, data: Any) -> ReversiState:
        black, white, mover = int(data["b"], 16), int(data["w"], 16), int(data["m"])
        if black & white or (black | white) >> SQUARES or mover not in (BLACK, WHITE):
            raise ValueError(f"not a Reversi position: {data!r}")
        last = data.get("l")
        return ReversiState(black, white, mover, None if last is None else int(last),
                            int(data.get("t", "0"), 16))

    # ----- helping --------------------------------------------------------------------
    def help_figures(self) -> dict[str, str]:
        start = self.start({}, 0)
        return {
            "start": board_text(start),
            "after D3": self.render(self.play(start, BLACK, square(3, 2)), None),
        }


def _read(text: str) -> int:
    """The move `text` names, by its syntax and the board's size alone."""
    if _PASS_RE.fullmatch(text):
        return PASS
    match = _SQUARE_RE.fullmatch(text)
    if match is None:
        shown = " ".join(text.split())[:20]
        raise InvalidMove(
            f"Cannot read '{shown}' as a Reversi move: write the square for your disc, a"
            f" column letter A to H and a row number 1 to 8, e.g. {EXAMPLE}; or {PASS_WORD}"
            " when you have no legal move."
        )
    letter, number = match[1].upper(), int(match[2])
    if letter not in COLUMNS or not 1 <= number <= SIZE:
        raise IllegalMove(
            f"There is no square {letter}{number}: the board has columns A to H and rows"
            " 1 to 8."
        )
    return square(COLUMNS.index(letter), number - 1)


def _check(state: ReversiState, seat: int, move: int) -> None:
    """Raise IllegalMove with the rule that forbids `move` by `seat` now, if any."""
    if state.finished:
        raise IllegalMove("The game is over: neither player can move.")
    if seat != state.mover:
        raise IllegalMove(f"It is {SEATS[state.mover]}'s turn, not {SEATS[seat]}'s.")
    own, other = SEATS[seat], SEATS[1 - seat]
    if state.must_pass:
        if move != PASS:
            raise IllegalMove(
                f"You have no legal move: no empty square lets a {own} disc outflank a"
                f" {other} disc. You must pass: send {PASS_WORD}."
            )
        return
    listed = f"Your legal moves: {and_list(legal_names(state))}."
    if move == PASS:
        raise IllegalMove(
            f"You cannot pass while you have a legal move: only a player who has none"
            f" passes. {listed}"
        )
    holder = state.at(move)
    if holder is not None:
        raise IllegalMove(f"{name(move)} already holds a {SEATS[holder]} disc. {listed}")
    if not state.legal & bit(move):
        raise IllegalMove(
            f"A disc on {name(move)} would outflank no {other} disc: a move must turn over"
            f" at least one, in a straight line from it to a {own} disc. {listed}"
        )


GAME = Reversi()
