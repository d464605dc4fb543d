"""Breakthrough's board: its squares, the steps forward from each, the position and a move.

Squares are numbered in reading order from row 1 (White's home row, printed at the bottom)
upwards: index = (row - 1) * size + column, so White's pieces step +size and Black's -size.
What depends only on the size (the squares' names, the steps from each square) is worked out
once per size (geometry()), so that making and playing a move is a few lookups: bots and
`pbm bench bots` play many thousands of random games.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from pbm.games.grid import Cell, Grid

SEATS = ("White", "Black")
WHITE, BLACK = 0, 1
# pbmserv's letters for the two sides: o (Ohs) start on rows 1-2, x (Eks) on the top two.
GLYPHS = ("o", "x")
EMPTY = "."
DEFAULT_SIZE = 8  # the published game: an 8x8 board, 16 pieces a side
# Two full rows a side need a board of at least 6 rows to leave two rows between them (and
# OpenSpiel gives smaller boards one row a side); 12 keeps the board readable in a mail.
SIZES = tuple(range(6, 13))


@dataclass(frozen=True)
class Step:
    """A move: the piece on `origin` goes one square forward to `target`, taking the
    opponent's piece there when `capture` (only ever diagonally)."""

    origin: Cell
    target: Cell
    capture: bool


# A step forward from a square: (target index, diagonal?); None where it would leave the board.
Forward = tuple[int, bool] | None


@dataclass(frozen=True)
class Geometry:
    """What depends only on the size: the grid, its squares, and the forward steps of each
    seat from each square, always three slots (left, straight, right: see random_move)."""

    size: int
    grid: Grid
    squares: tuple[Cell, ...]
    forward: tuple[tuple[tuple[Forward, Forward, Forward], ...], ...]

    def index(self, cell: Cell) -> int:
        return cell.row * self.size + cell.col

    def goal_row(self, seat: int) -> int:
        """The row index (0 is row 1) that `seat` wins by reaching: the far side."""
        return self.size - 1 if seat == WHITE else 0

    def home_rows(self, seat: int) -> tuple[int, int]:
        far = self.size - 1
        return (0, 1) if seat == WHITE else (far - 1, far)

    def row_of(self, index: int) -> int:
        return index // self.size


@cache
def geometry(size: int) -> Geometry:
    grid = Grid(size, size)
    forward = []
    for drow in (1, -1):  # White moves up the rows, Black down
        steps = []
        for cell in grid.cells:
            slots: list[Forward] = []
            for dcol in (-1, 0, 1):
                target = cell.step(dcol, drow)
                slots.append((target.row * size + target.col, dcol != 0)
                             if target in grid else None)
            steps.append((slots[0], slots[1], slots[2]))
        forward.append(tuple(steps))
    return Geometry(size, grid, grid.cells, tuple(forward))


@dataclass(frozen=True)
class BreakthroughState:
    """The position: the board, row 1 first, each square 'o', 'x' or '.'; the seat to move
    (the loser's, once the game is over); the winner, if any. Each seat's piece squares
    (sorted) follow from the board and are kept for quick random moves.

    `last` is the last move, for render() and the picture to show; it is no part of the
    position (two move orders reaching one board are one position).
    """

    size: int
    board: str
    turn: int
    pieces: tuple[tuple[int, ...], tuple[int, ...]]
    winner: int | None = None
    last: Step | None = field(default=None, compare=False)

    @property
    def geometry(self) -> Geometry:
        return geometry(self.size)

    def at(self, cell: Cell) -> int | None:
        """The seat whose piece is on `cell`, or None if it is empty."""
        glyph = self.board[cell.row * self.size + cell.col]
        return None if glyph == EMPTY else GLYPHS.index(glyph)

    def captured(self, seat: int) -> int:
        """How many of `seat`'s pieces the opponent has taken."""
        return 2 * self.size - len(self.pieces[seat])


def start_position(size: int) -> BreakthroughState:
    """Two full rows a side: White on rows 1 and 2, Black on the top two; White to move."""
    board = GLYPHS[WHITE] * (2 * size) + EMPTY * (size * (size - 4)) + GLYPHS[BLACK] * (2 * size)
    return position(size, board, WHITE)


def position(size: int, board: str, turn: int, last: Step | None = None) -> BreakthroughState:
    """The state of a whole board (row 1 first), its pieces and winner worked out."""
    if size not in SIZES:
        raise ValueError(f"no Breakthrough board of size {size}")
    if len(board) != size * size or set(board) - {EMPTY, *GLYPHS}:
        raise ValueError(f"not a {size}x{size} Breakthrough board: {board!r}")
    if turn not in (WHITE, BLACK):
        raise ValueError(f"no seat {turn}")
    pieces = (tuple(i for i, glyph in enumerate(board) if glyph == GLYPHS[WHITE]),
              tuple(i for i, glyph in enumerate(board) if glyph == GLYPHS[BLACK]))
    return BreakthroughState(size, board, turn, pieces, _winner(size, board, pieces), last)


def from_rows(rows: Sequence[str], turn: int = WHITE) -> BreakthroughState:
    """A position drawn as it is printed: the top row first, squares 'o', 'x' or '.' with
    or without spaces between them (for figures and tests)."""
    lines = [row.replace(" ", "") for row in rows]
    return position(len(lines), "".join(reversed(lines)), turn)


def _winner(size: int, board: str, pieces: tuple[tuple[int, ...], ...]) -> int | None:
    """Who has won on this board: a piece on its far row, or no opponent left."""
    if GLYPHS[WHITE] in board[size * (size - 1):] or not pieces[BLACK]:
        return WHITE
    if GLYPHS[BLACK] in board[:size] or not pieces[WHITE]:
        return BLACK
    return None


def play_step(state: BreakthroughState, seat: int, move: Step) -> BreakthroughState:
    """The position after `seat` makes `move` (already checked legal)."""
    size, board = state.size, state.board
    origin = move.origin.row * size + move.origin.col
    target = move.target.row * size + move.target.col
    glyph = GLYPHS[seat]
    if origin < target:
        board = board[:origin] + EMPTY + board[origin + 1:target] + glyph + board[target + 1:]
    else:
        board = board[:target] + glyph + board[target + 1:origin] + EMPTY + board[origin + 1:]
    mine = list(state.pieces[seat])
    mine.remove(origin)
    insort(mine, target)
    theirs = state.pieces[1 - seat]
    if move.capture:
        theirs = tuple(i for i in theirs if i != target)
    pieces = (tuple(mine), theirs) if seat == WHITE else (theirs, tuple(mine))
    # A game ends the moment a piece reaches its far row or takes the opponent's last piece.
    won = move.target.row == (size - 1 if seat == WHITE else 0) or not theirs
    return BreakthroughState(size, board, 1 - seat, pieces, seat if won else None, move)
