"""Hex's board: the rhombus of one size, its cells' names and neighbours, and the union-find
that tells in constant work per stone whether a player's edges are joined."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

SMALLEST, LARGEST, DEFAULT_SIZE = 5, 19, 11
LETTERS = "ABCDEFGHIJKLMNOPQRS"  # column letters, none skipped: A-K on 11, A-S on 19

# Cell codes in the board bytes; a seat's stone is seat + 1.
EMPTY, BLACK_STONE, WHITE_STONE = 0, 1, 2

# Hex neighbours on the rhombus, as (columns, rows): along the row, along the column, and
# the diagonal that goes up-right / down-left. Each row is drawn half a cell right of the
# row above, so these are the six cells that touch a cell on the page.
STEPS = ((0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1))


def cell_name(col: int, row: int) -> str:
    """'F6' for column 5, row 5 (both 0-based); the name does not depend on the size."""
    return f"{LETTERS[col]}{row + 1}"


@dataclass(frozen=True)
class Board:
    """The rhombus of `size`: cell i is column i % size, row i // size (row 1 on top).

    Union-find slots come after the cells: the four edges, each an extra stone of its owner
    (Black's top and bottom, White's left and right), so a seat has won when its two edge
    slots share a set.
    """

    size: int
    cells: int = field(init=False, compare=False)
    names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    index_of: dict[str, int] = field(init=False, repr=False, compare=False)
    neighbours: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    # Neighbours earlier in reading order: enough to join every touching pair in one sweep.
    earlier: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    edges: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False, repr=False, compare=False)
    mirror: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = self.size
        if not SMALLEST <= n <= LARGEST:
            raise ValueError(f"no Hex board of size {n}: sizes run from {SMALLEST} to {LARGEST}")
        count = n * n
        top, bottom, left, right = count, count + 1, count + 2, count + 3
        names = tuple(cell_name(i % n, i // n) for i in range(count))
        neighbours = []
        for i in range(count):
            row, col = divmod(i, n)
            near = [(row + dr) * n + col + dc for dc, dr in STEPS
                    if 0 <= col + dc < n and 0 <= row + dr < n]
            neighbours.append(tuple(near))
        black_edges = tuple(((top,) if i < n else ()) + ((bottom,) if i >= count - n else ())
                            for i in range(count))
        white_edges = tuple(((left,) if i % n == 0 else ()) + ((right,) if i % n == n - 1
                                                                else ())
                            for i in range(count))
        setattr_ = object.__setattr__
        setattr_(self, "cells", count)
        setattr_(self, "names", names)
        setattr_(self, "index_of", {name: i for i, name in enumerate(names)})
        setattr_(self, "neighbours", tuple(neighbours))
        setattr_(self, "earlier", tuple(tuple(j for j in near if j < i)
                                        for i, near in enumerate(neighbours)))
        setattr_(self, "edges", (black_edges, white_edges))
        # The long diagonal runs from A1 to the far corner; a cell's mirror image across it
        # swaps its column and row: C5 <-> E3.
        setattr_(self, "mirror", tuple((i % n) * n + i // n for i in range(count)))

    @property
    def letters(self) -> str:
        return LETTERS[: self.size]

    @property
    def slots(self) -> int:
        """Cells and the four edges: the length of a union-find parent list."""
        return self.cells + 4

    def edge_slots(self, seat: int) -> tuple[int, int]:
        """The two edges `seat` must join: Black top and bottom, White left and right."""
        return (self.cells, self.cells + 1) if seat == 0 else (self.cells + 2, self.cells + 3)

    def build_parent(self, stones: bytes) -> list[int]:
        """Union-find of a whole board (for decode; play() updates it stone by stone)."""
        parent = [-1] * self.slots
        for cell, code in enumerate(stones):
            if code == EMPTY:
                continue
            for other in self.earlier[cell]:
                if stones[other] == code:
                    union(parent, cell, other)
            for edge in self.edges[code - 1][cell]:
                union(parent, cell, edge)
        return parent

    def attach(self, parent: list[int], stones: bytes | bytearray, cell: int, seat: int) -> None:
        """Join `seat`'s stone just put on `cell` to its like neighbours and own edges."""
        stone = seat + 1
        for other in self.neighbours[cell]:
            if stones[other] == stone:
                union(parent, cell, other)
        for edge in self.edges[seat][cell]:
            union(parent, cell, edge)

    def joined(self, parent: Sequence[int], seat: int) -> bool:
        """Whether `seat`'s two edges are in one set: an unbroken chain of its stones."""
        first, second = self.edge_slots(seat)
        return find(parent, first) == find(parent, second)


@cache
def board_of(size: int) -> Board:
    """The one Board of each size (its tables are built once per process)."""
    return Board(size)


# ----- union-find ------------------------------------------------------------------------
# parent[i] >= 0 is i's parent; parent[i] < 0 marks a root whose set has -parent[i] members.


def find(parent: Sequence[int], slot: int) -> int:
    """Root of `slot`, without changing `parent` (usable on an immutable tuple)."""
    while parent[slot] >= 0:
        slot = parent[slot]
    return slot


def _find_halving(parent: list[int], slot: int) -> int:
    """Root of `slot`, halving the path on the way (only on a private working copy)."""
    while True:
        up = parent[slot]
        if up < 0:
            return slot
        above = parent[up]
        if above < 0:
            return up
        parent[slot] = above
        slot = above


def union(parent: list[int], a: int, b: int) -> None:
    """Join the sets of `a` and `b`, the smaller under the larger."""
    ra, rb = _find_halving(parent, a), _find_halving(parent, b)
    if ra == rb:
        return
    if parent[ra] > parent[rb]:  # ra is the smaller set: hang it under rb
        ra, rb = rb, ra
    parent[ra] += parent[rb]
    parent[rb] = ra
