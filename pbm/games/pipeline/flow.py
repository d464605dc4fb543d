"""Pipeline's squares, secret pipes and liquid flow: the pure geometry under the rule module."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import Enum

from pbm.games.base import IllegalMove
from pbm.games.text import plural

COLUMNS = "ABCD"
SIZE = 4
# Reading order: row 1 (top) first, column A first within a row.
CELLS: tuple[str, ...] = tuple(f"{col}{row}" for row in range(1, SIZE + 1) for col in COLUMNS)
MIN_INTERIOR = 3  # squares strictly between head and tail
HOLES = 3


class Colour(Enum):
    """A pawn colour, valued by its letter in the notation."""

    BLUE = "B"
    YELLOW = "Y"
    WHITE = "W"

    @property
    def word(self) -> str:
        return self.name.lower()


PAWN_COUNTS: dict[Colour, int] = {Colour.BLUE: 2, Colour.YELLOW: 2, Colour.WHITE: 4}


class Reading(Enum):
    """What a white pawn reports about the square under it on one pipeline."""

    MISS = "miss"
    EMPTY = "empty"
    BLUE = "blue"
    YELLOW = "yellow"
    GREEN = "green"


def parse_cell(text: str) -> str | None:
    """The canonical name of a square ('c3' -> 'C3'), or None if it is not on the board."""
    text = text.strip().upper()
    # Digits 0-9 only: str.isdigit() is also true of '²' and '①', which int() refuses.
    if len(text) != 2 or text[0] not in COLUMNS or text[1] not in "0123456789":
        return None
    return text if 1 <= int(text[1]) <= SIZE else None


def coords(cell: str) -> tuple[int, int]:
    """(column index, row index), both from 0."""
    return COLUMNS.index(cell[0]), int(cell[1:]) - 1


def cell_at(col: int, row: int) -> str:
    return f"{COLUMNS[col]}{row + 1}"


def neighbours(cell: str) -> list[str]:
    """The squares beside this one: up, down, left and right (pipes never run diagonally)."""
    col, row = coords(cell)
    steps = ((0, -1), (0, 1), (-1, 0), (1, 0))
    return [
        cell_at(col + dc, row + dr)
        for dc, dr in steps
        if 0 <= col + dc < SIZE and 0 <= row + dr < SIZE
    ]


def adjacent(a: str, b: str) -> bool:
    (ac, ar), (bc, br) = coords(a), coords(b)
    return abs(ac - bc) + abs(ar - br) == 1


@dataclass(frozen=True)
class Pipe:
    """One secret pipeline: the squares from head to tail in flow order, and its holes."""

    path: tuple[str, ...]
    holes: frozenset[str]

    @property
    def head(self) -> str:
        return self.path[0]

    @property
    def tail(self) -> str:
        return self.path[-1]

    def notation(self) -> str:
        return "-".join(cell + ("*" if cell in self.holes else "") for cell in self.path)

    def sorted_holes(self) -> list[str]:
        return sorted(self.holes)


def liquid(pipe: Pipe, pawns: Mapping[str, Colour]) -> dict[str, Reading]:
    """The colour of every square of the pipe under this probe configuration.

    A source on p_i colours p_i up to the first hole at or after it (or the tail); valves
    keep liquid from ever flowing back toward the head. Two colours on a square make green.
    """
    colours: list[set[Colour]] = [set() for _ in pipe.path]
    index = {cell: i for i, cell in enumerate(pipe.path)}
    for cell, colour in pawns.items():
        if colour is Colour.WHITE or cell not in index:
            continue
        for j in range(index[cell], len(pipe.path)):
            colours[j].add(colour)
            if pipe.path[j] in pipe.holes:
                break  # the hole takes the liquid, itself coloured
    return {cell: _mix(found) for cell, found in zip(pipe.path, colours)}


def _mix(colours: set[Colour]) -> Reading:
    if len(colours) == 2:
        return Reading.GREEN
    if Colour.BLUE in colours:
        return Reading.BLUE
    if Colour.YELLOW in colours:
        return Reading.YELLOW
    return Reading.EMPTY


def readings(pipe: Pipe, pawns: Mapping[str, Colour]) -> tuple[tuple[str, Reading], ...]:
    """What every white pawn reads on this pipe, its squares in order (A1, A2, ... D4)."""
    colours = liquid(pipe, pawns)
    return tuple(
        (cell, colours.get(cell, Reading.MISS))
        for cell in sorted(pawns)
        if pawns[cell] is Colour.WHITE
    )


# ----- checking a submitted pipeline -------------------------------------------------------


def check_pipe(head: str, tail: str, squares: list[str], holes: list[str]) -> Pipe:
    """The pipe the player wrote, or IllegalMove saying exactly what is wrong with it.

    Messages speak only of the author's own text and the public coins: they are mailed to
    the author alone, but must stay safe to show even so.
    """
    if squares[0] != head:
        raise IllegalMove(
            f"Your pipeline starts at {squares[0]}, but it must start at the head coin on {head}."
        )
    if squares[-1] != tail:
        raise IllegalMove(
            f"Your pipeline ends at {squares[-1]}, but it must end at the tail coin on {tail}."
        )
    for a, b in zip(squares, squares[1:]):
        _check_step(a, b)
    seen: set[str] = set()
    for cell in squares:
        if cell in seen:
            raise IllegalMove(
                f"Your pipeline visits {cell} twice; it may pass through each square only once."
            )
        seen.add(cell)
    interior = len(squares) - 2
    if interior < MIN_INTERIOR:
        raise IllegalMove(
            f"Your pipeline has only {plural(interior, 'square')} between "
            f"the head and the tail; it needs at least {MIN_INTERIOR}."
        )
    for cell, coin in ((head, "head"), (tail, "tail")):
        if cell in holes:
            raise IllegalMove(f"The {coin} square {cell} cannot be a hole; move that '*'.")
    if len(holes) != HOLES:
        raise IllegalMove(
            f"Your pipeline marks {plural(len(holes), 'hole')}; "
            f"mark exactly {HOLES} of its squares with '*'."
        )
    return Pipe(tuple(squares), frozenset(holes))


def _check_step(a: str, b: str) -> None:
    if a == b:
        raise IllegalMove(f"Your pipeline lists {a} twice in a row; each step must move on.")
    if adjacent(a, b):
        return
    (ac, ar), (bc, br) = coords(a), coords(b)
    if abs(ac - bc) == 1 and abs(ar - br) == 1:
        raise IllegalMove(
            f"The step from {a} to {b} is diagonal; a pipe only runs up, down, left or right."
        )
    raise IllegalMove(
        f"{a} and {b} are not next to each other; each step of a pipe goes to a square "
        "beside the last one."
    )


# ----- making pipelines ----------------------------------------------------------------------


def random_pipe(head: str, tail: str, rng: random.Random) -> Pipe:
    """A random valid pipe: a self-avoiding random walk from head to tail, then 3 holes."""
    path = _random_walk(head, tail, rng) or next(all_paths(head, tail))
    holes = rng.sample(list(path[1:-1]), HOLES)
    return Pipe(path, frozenset(holes))


def _random_walk(head: str, tail: str, rng: random.Random, tries: int = 200) -> tuple[str, ...]:
    for _ in range(tries):
        path = [head]
        while True:
            last = path[-1]
            options = [
                cell
                for cell in neighbours(last)
                if cell not in path and (cell != tail or len(path) - 1 >= MIN_INTERIOR)
            ]
            if not options:
                break
            step = rng.choice(options)
            path.append(step)
            if step == tail:
                return tuple(path)
    return ()


def all_paths(head: str, tail: str) -> Iterator[tuple[str, ...]]:
    """Every path a pipeline may take between the coins, depth first (lazily)."""
    path = [head]

    def extend() -> Iterator[tuple[str, ...]]:
        for cell in neighbours(path[-1]):
            if cell in path:
                continue
            if cell == tail:
                if len(path) - 1 >= MIN_INTERIOR:
                    yield (*path, tail)
                continue
            path.append(cell)
            yield from extend()
            path.pop()

    yield from extend()

