"""A rectangular board of lettered columns and numbered rows, and the cells on it ("B2")."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from string import ascii_uppercase

# (columns, rows) per step, rows growing downwards as printed. The order is the order in
# which neighbours are listed, and so the order messages name them in.
SIDE_STEPS = ((0, -1), (-1, 0), (1, 0), (0, 1))
CORNER_STEPS = ((-1, -1), (1, -1), (-1, 1), (1, 1))


@dataclass(frozen=True, order=True)
class Cell:
    """A cell by position; col 0 is column A, row 0 is row 1 (the top row).

    A cell knows nothing of the board's size, so a step may lead off the board: ask the
    Grid whether it holds the cell before using it.
    """

    col: int
    row: int

    @property
    def name(self) -> str:
        """'B2'; only meaningful for a cell on a board (see Grid.__contains__)."""
        return f"{ascii_uppercase[self.col]}{self.row + 1}"

    def step(self, dcol: int, drow: int, times: int = 1) -> Cell:
        """The cell `times` steps of (dcol, drow) away, on the board or not."""
        return Cell(self.col + times * dcol, self.row + times * drow)


@dataclass(frozen=True)
class Grid:
    """A board `columns` wide and `rows` high: which cells it holds, in which order."""

    columns: int
    rows: int
    cells: tuple[Cell, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 0 < self.columns <= len(ascii_uppercase) or self.rows <= 0:
            raise ValueError(f"no {self.columns}x{self.rows} grid: columns are letters A-Z")
        # Reading order (row 1 left to right, then row 2, ...), the order of a stored board.
        cells = tuple(Cell(c, r) for r in range(self.rows) for c in range(self.columns))
        object.__setattr__(self, "cells", cells)

    @property
    def letters(self) -> str:
        """The column letters: 'ABC' for three columns."""
        return ascii_uppercase[: self.columns]

    def __contains__(self, cell: object) -> bool:
        return (
            isinstance(cell, Cell) and 0 <= cell.col < self.columns and 0 <= cell.row < self.rows
        )

    def index(self, cell: Cell) -> int:
        """Position of `cell` in `cells` (and in a board stored row by row)."""
        return cell.row * self.columns + cell.col

    def at(self, letter: str, number: int) -> Cell | None:
        """The cell in column `letter` (either case), row `number`; None if off the board."""
        col = self.letters.find(letter.upper()) if len(letter) == 1 else -1
        cell = Cell(col, number - 1)
        return cell if col >= 0 and cell in self else None

    def parse(self, name: str) -> Cell | None:
        """The cell a name such as 'b2' or ' B2 ' names, or None if it names none here."""
        name = name.strip()
        if len(name) < 2 or not name[1:].isdigit() or not name[1:].isascii():
            return None
        return self.at(name[0], int(name[1:]))

    def named(self, name: str) -> Cell:
        """The cell `name` names, for stored data and tables; ValueError if it names none."""
        cell = self.parse(name)
        if cell is None:
            raise ValueError(f"{name!r} names no cell of a {self.columns}x{self.rows} grid")
        return cell

    def neighbours(self, cell: Cell, steps: tuple[tuple[int, int], ...]) -> Iterator[Cell]:
        """The cells one of `steps` away that are on the board, in the order of `steps`."""
        for dcol, drow in steps:
            near = cell.step(dcol, drow)
            if near in self:
                yield near

    def side_neighbours(self, cell: Cell) -> Iterator[Cell]:
        """Cells sharing a side: above, left, right, below."""
        return self.neighbours(cell, SIDE_STEPS)

    def corner_neighbours(self, cell: Cell) -> Iterator[Cell]:
        """Cells sharing only a corner: above left, above right, below left, below right."""
        return self.neighbours(cell, CORNER_STEPS)
