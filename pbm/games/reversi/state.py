"""Reversi's position: the discs of each colour, the seat to move, and the last move's marks."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbm.games.reversi.board import SQUARES, bit, by_column, legal_squares, name, square

SEATS = ("Black", "White")
BLACK, WHITE = 0, 1
MARKS = ("#", "O")  # a disc of each colour on the text board (Loophole's stones too)
PASS = SQUARES  # the move of a player without a legal move (OpenSpiel's number for it too)
PASS_WORD = "pass"

# The World Othello Federation's start: White on D4 and E5, Black on E4 and D5.
START_BLACK = bit(square(4, 3)) | bit(square(3, 4))
START_WHITE = bit(square(3, 3)) | bit(square(4, 4))


@dataclass(frozen=True, slots=True)
class ReversiState:
    """The discs of each colour (bitboards, board.py) and the seat to move.

    `last` is the last move (a square, PASS, or None before the first) and `turned` the
    discs it turned over: for the board's marks, no part of the position. `legal` (the
    mover's legal squares) and `finished` follow from the position; they are worked out
    once, here, as every bot playout asks for them after every move.
    """

    black: int
    white: int
    mover: int = BLACK
    last: int | None = field(default=None, compare=False)
    turned: int = field(default=0, compare=False)
    legal: int = field(init=False, compare=False, repr=False)
    finished: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        own, other = self.discs(self.mover), self.discs(1 - self.mover)
        legal = legal_squares(own, other)
        object.__setattr__(self, "legal", legal)
        # Over when neither can move: the mover has nothing, and passing would not help.
        object.__setattr__(self, "finished", not legal and not legal_squares(other, own))

    def discs(self, seat: int) -> int:
        return self.white if seat else self.black

    def at(self, sq: int) -> int | None:
        """The seat whose disc is on `sq`, or None for an empty square."""
        if self.black >> sq & 1:
            return BLACK
        if self.white >> sq & 1:
            return WHITE
        return None

    @property
    def must_pass(self) -> bool:
        """The mover has no legal move, but the other player has one: the mover passes."""
        return not self.legal and not self.finished

    @property
    def last_mover(self) -> int:
        """Who made the last move: a move always hands the turn to the other player."""
        return 1 - self.mover


def legal_names(state: ReversiState) -> list[str]:
    """The mover's legal squares by name, column by column (C4, D3, E6, F5)."""
    return [name(sq) for sq in by_column(state.legal)]
