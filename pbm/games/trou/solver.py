"""Trou solved: the game-theoretic value of every reachable position.

The game tree is small (91,957 positions from the empty board, Trou having no options), so
it is solved whole on first use and kept for the life of the process. Solving through the
rule module's own legal_moves, play and result takes about 7 s of CPU; this module solves
a compact copy of the same rules instead in about 1 s (0.9-1.2 s measured), the first time
a bot asks. tests/games/test_trou_bots.py walks the rule module's tree and proves the copy
agrees with it on every reachable position: the same moves, the same boards after them,
the same results.

The copy: a board is an int of nine 4-bit cells in reading order (A1 B1 C1 A2 ... C3, the
order of TrouState.board), cell i at bits 4i..4i+3 holding 0 for empty, 1-4 for Red's
pawn of that value, 5-8 for Black's pawn of value code - 4 (so a pawn's parity is its
code's). A position is its board (the pawns left and the seat to move follow from it).

This module stands apart from the rule module (which offers the bots built on it), so it
reads a position by its shape: a `board` of pawns with a `seat` and a `value`, or None.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from typing import Protocol

from pbm.games.grid import Grid

WIN, DRAW, LOSS = 1, 0, -1  # a value for one seat; its opponent's is the negation
RED, BLACK = 0, 1
PAWNS = 8  # four each: the game ends when all are placed

_GRID = Grid(3, 3)
_SIDES = tuple(tuple(_GRID.index(n) for n in _GRID.side_neighbours(c)) for c in _GRID.cells)
_CORNERS = tuple(
    tuple(_GRID.index(n) for n in _GRID.corner_neighbours(c)) for c in _GRID.cells
)
_CELLS = range(len(_GRID.cells))
_VALUES = (1, 2, 3, 4)


class Pawn(Protocol):
    @property
    def seat(self) -> int: ...

    @property
    def value(self) -> int: ...


class Position(Protocol):
    """What the solver reads of a TrouState."""

    @property
    def board(self) -> Sequence[Pawn | None]: ...


def key(position: Position) -> int:
    """The compact board of a position: its key in the table."""
    board = 0
    for i, pawn in enumerate(position.board):
        if pawn is not None:
            board |= (pawn.seat * 4 + pawn.value) << (4 * i)
    return board


def cells(board: int) -> list[int]:
    return [(board >> (4 * i)) & 15 for i in _CELLS]


def placements(board: int) -> Iterator[tuple[int, int]]:
    """The legal placements (value, cell index) of the seat to move, as the rules say."""
    codes = cells(board)
    placed = sum(1 for code in codes if code)
    if placed == PAWNS:
        return
    base = (placed % 2) * 4  # Red places the 1st, 3rd, ... pawns
    left = [v for v in _VALUES if base + v not in codes]
    for i in _CELLS:
        if codes[i]:
            continue
        # Every occupied neighbour sets a parity: across a side the opposite of its pawn's,
        # across a corner the same. A later pawn must touch one; the first goes anywhere.
        parities = {1 - (codes[j] & 1) for j in _SIDES[i] if codes[j]}
        parities |= {codes[j] & 1 for j in _CORNERS[i] if codes[j]}
        if placed and not parities:
            continue
        for v in left:
            if parities <= {v & 1}:
                yield v, i


def place(board: int, value: int, cell: int) -> int:
    """The board after the seat to move puts its pawn `value` on cell index `cell`."""
    placed = sum(1 for code in cells(board) if code)
    return board | (((placed % 2) * 4 + value) << (4 * cell))


def score(board: int) -> int:
    """Red's result on a full board: fewer own pawns beside the hole (by a side) wins, then
    the smaller sum of them, else a draw."""
    codes = cells(board)
    hole = codes.index(0)
    beside = [codes[j] for j in _SIDES[hole]]
    red = [code for code in beside if code <= 4]
    black = [code - 4 for code in beside if code > 4]
    if len(red) != len(black):
        return WIN if len(red) < len(black) else LOSS
    if sum(red) != sum(black):
        return WIN if sum(red) < sum(black) else LOSS
    return DRAW


@cache
def table() -> dict[int, int]:
    """Red's value with perfect play of every position reachable from the empty board."""
    values: dict[int, int] = {}

    def solve(board: int, placed: int) -> int:
        known = values.get(board)
        if known is not None:
            return known
        if placed == PAWNS:
            found = score(board)
        else:
            # No cut-offs: every reachable position gets its value.
            children = [solve(place(board, v, i), placed + 1) for v, i in placements(board)]
            found = max(children) if placed % 2 == RED else min(children)
        values[board] = found
        return found

    solve(0, 0)
    return values


def value(position: Position, seat: int) -> int:
    """WIN, DRAW or LOSS: what `seat` gets from `position` when both sides play perfectly.

    For the seat to move this is the position's value; for the other seat its negation.
    KeyError for a board the game cannot reach.
    """
    red = table()[key(position)]
    return red if seat == RED else -red
