"""Amazons' board: 100 squares A1-J10 in a frame of walls, square names and queen lines.

A board is `bytes` of BOARD_CELLS codes, row by row from rank 0 (a wall row below rank 1)
to rank 11 (a wall row above rank 10), each row eleven cells wide: files A-J and one wall
cell that is the right edge of its row and the left edge of the next. So a queen step is
one fixed offset (N = +11, NE = +12, ...) and every line ends on a wall: move generation
never checks coordinates. A square is its index in this layout.
"""

from __future__ import annotations

from collections.abc import Iterable

FILES = "ABCDEFGHIJ"
SIZE = 10
WIDTH = SIZE + 1  # a row and its wall cell
BOARD_CELLS = WIDTH * (SIZE + 2)

EMPTY, WHITE, BLACK, ARROW, WALL = 0, 1, 2, 3, 4
COLOUR = (WHITE, BLACK)  # each seat's amazons, by seat

# The eight queen steps: north, south, east, west, then the diagonals.
STEPS = (WIDTH, -WIDTH, 1, -1, WIDTH + 1, WIDTH - 1, -WIDTH + 1, -WIDTH - 1)


def square(file: int, rank: int) -> int:
    """The square of file 0-9 (A-J) and rank 1-10."""
    return rank * WIDTH + file


def file_of(sq: int) -> int:
    return sq % WIDTH


def rank_of(sq: int) -> int:
    return sq // WIDTH


# Every square on the board, A1 B1 ... J1 A2 ... J10: the order of a stored board.
SQUARES = tuple(square(f, r) for r in range(1, SIZE + 1) for f in range(SIZE))
NAME = {sq: f"{FILES[file_of(sq)]}{rank_of(sq)}" for sq in SQUARES}
BY_NAME = {name: sq for sq, name in NAME.items()}


def names(squares: Iterable[int]) -> list[str]:
    """The names of `squares`, in board order (A1 first, then along rank 1, ...)."""
    return [NAME[sq] for sq in sorted(squares)]


def empty_board() -> bytearray:
    board = bytearray([WALL]) * BOARD_CELLS
    for sq in SQUARES:
        board[sq] = EMPTY
    return board


def _line(start: int, step: int) -> tuple[int, ...]:
    """The squares from `start` (not included) to the edge along `step`, on an empty board."""
    walls = empty_board()
    found = []
    at = start + step
    while walls[at] == EMPTY:
        found.append(at)
        at += step
    return tuple(found)


# LINES[sq]: every square a queen on `sq` could reach on an empty board, each with the
# squares it would pass over on the way (those between, nearest first). What the uniform
# sampler draws from (moves.random_move) and how a refusal finds a blocked path.
LINES: dict[int, tuple[tuple[int, tuple[int, ...]], ...]] = {
    sq: tuple((line[k], line[:k]) for step in STEPS for line in [_line(sq, step)]
              for k in range(len(line)))
    for sq in SQUARES
}
BETWEEN: dict[tuple[int, int], tuple[int, ...]] = {
    (sq, target): between for sq in SQUARES for target, between in LINES[sq]
}


def direction(start: int, target: int) -> str | None:
    """'a column', 'a row' or 'a diagonal' joining two squares, or None if none does."""
    files = file_of(target) - file_of(start)
    ranks = rank_of(target) - rank_of(start)
    if files == 0 and ranks:
        return "a column"
    if ranks == 0 and files:
        return "a row"
    if files and abs(files) == abs(ranks):
        return "a diagonal"
    return None
