"""An Amazons position: the board, where each seat's amazons stand, and how it changes."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from pbm.games.amazons.board import ARROW, BY_NAME, COLOUR, EMPTY, empty_board
from pbm.games.amazons.moves import AmazonMove, can_move

SEATS = ("White", "Black")
WHITE_SEAT, BLACK_SEAT = 0, 1
MARKS = ("W", "B")  # each seat's amazons on the text board
ARROW_MARK = "#"

# The published starting position (Zamkauskas): White moves first.
START = (("A4", "D1", "G1", "J4"), ("A7", "D10", "G10", "J7"))


@dataclass(frozen=True)
class AmazonsState:
    """The board (board.py's layout), each seat's amazons (sorted squares) and the number of
    moves made (= arrows on the board), whose parity says who is to move.

    `last` is the move just made, for the board to show; no part of the position.
    """

    board: bytes
    amazons: tuple[tuple[int, ...], tuple[int, ...]]
    plies: int = 0
    last: AmazonMove | None = field(default=None, compare=False)

    @property
    def turn(self) -> int:
        """The seat to move (White after an even number of moves)."""
        return self.plies % 2

    @cached_property
    def finished(self) -> bool:
        """The seat to move has no move: the game is over, and it has lost."""
        return not can_move(self.board, self.amazons[self.turn])


def start_state() -> AmazonsState:
    board = empty_board()
    amazons = []
    for seat, names in enumerate(START):
        squares = tuple(sorted(BY_NAME[name] for name in names))
        for sq in squares:
            board[sq] = COLOUR[seat]
        amazons.append(squares)
    return AmazonsState(bytes(board), (amazons[0], amazons[1]))


def after(state: AmazonsState, move: AmazonMove) -> AmazonsState:
    """The position once the seat to move has made `move` (already checked legal)."""
    seat = state.turn
    board = bytearray(state.board)
    board[move.origin] = EMPTY
    board[move.destination] = COLOUR[seat]
    board[move.arrow] = ARROW
    moved = tuple(sorted(move.destination if sq == move.origin else sq
                         for sq in state.amazons[seat]))
    amazons = (moved, state.amazons[1]) if seat == 0 else (state.amazons[0], moved)
    return AmazonsState(bytes(board), amazons, state.plies + 1, move)
