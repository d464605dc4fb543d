"""Battleship's ocean and fleet: cells as numbers, the five ships, where a ship may lie.

A cell is a number 0-99, row by row from A1 (row 1 is the top row, as printed): cell
`row * 10 + col`, the order of pbm.games.grid and of OpenSpiel's actions. A set of cells is
a bit mask (bit n is cell n), so that overlaps, hits and sinkings are a few ANDs: random
playouts and the bots' samplers test millions of them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache

from pbm.games.grid import Grid

SIZE = 10
GRID = Grid(SIZE, SIZE)
CELLS = SIZE * SIZE
NAMES = tuple(cell.name for cell in GRID.cells)  # cell number -> "A1"
ALL = (1 << CELLS) - 1


@dataclass(frozen=True)
class ShipType:
    """One of the five ships every fleet has: its name, length and letter on the board."""

    name: str
    length: int
    letter: str


# The Milton Bradley fleet (1967, and the 1990 edition's rules), in the order a fleet is
# written: longest first, the Cruiser before the Submarine (both are 3 cells long).
FLEET = (
    ShipType("Carrier", 5, "C"),
    ShipType("Battleship", 4, "B"),
    ShipType("Cruiser", 3, "R"),
    ShipType("Submarine", 3, "S"),
    ShipType("Destroyer", 2, "D"),
)
SHIPS = len(FLEET)
LENGTHS = tuple(ship.length for ship in FLEET)


def cell_name(cell: int) -> str:
    return NAMES[cell]


def bit(cell: int) -> int:
    return 1 << cell


def cells_of(mask: int) -> Iterator[int]:
    """The cells of a mask, in reading order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True)
class Placement:
    """Where one ship lies: its bow (the top or left end) and whether it runs across a row
    (else down a column)."""

    bow: int
    across: bool
    length: int
    mask: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        step = 1 if self.across else SIZE
        object.__setattr__(self, "mask", sum(1 << (self.bow + i * step)
                                              for i in range(self.length)))

    @property
    def stern(self) -> int:
        """The other end: the bottom or right one."""
        return self.bow + (self.length - 1) * (1 if self.across else SIZE)

    def cells(self) -> list[int]:
        return list(cells_of(self.mask))

    def notation(self) -> str:
        """'A1-E1': the bow, then the stern."""
        return f"{NAMES[self.bow]}-{NAMES[self.stern]}"


@cache
def placements(length: int) -> tuple[Placement, ...]:
    """Every way a ship of `length` lies on the board: across first, then down, each in
    reading order of its bow."""
    found = [Placement(row * SIZE + col, True, length)
             for row in range(SIZE) for col in range(SIZE - length + 1)]
    found += [Placement(row * SIZE + col, False, length)
              for row in range(SIZE - length + 1) for col in range(SIZE)]
    return tuple(found)


@dataclass(frozen=True)
class Fleet:
    """A whole fleet: one placement per ship of FLEET, in its order. `mask` is every cell
    it covers; `masks` each ship's."""

    ships: tuple[Placement, ...]
    mask: int = field(init=False, repr=False, compare=False)
    masks: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        masks = tuple(ship.mask for ship in self.ships)
        object.__setattr__(self, "masks", masks)
        object.__setattr__(self, "mask", sum(masks))

    def notation(self) -> str:
        """'A1-E1 A3-D3 ...': each ship's ends, in the fleet's order."""
        return " ".join(ship.notation() for ship in self.ships)

    def ship_at(self, cell: int) -> int | None:
        """The index (in FLEET) of the ship on `cell`, or None for open water."""
        probe = 1 << cell
        for index, mask in enumerate(self.masks):
            if mask & probe:
                return index
        return None


def can_complete(taken: int, lengths: Sequence[int]) -> bool:
    """Whether ships of these `lengths` still fit, one after another, on the cells not in
    `taken` (the fleet's rule: no two ships share a cell)."""
    if not lengths:
        return True
    first, rest = lengths[0], lengths[1:]
    return any(not p.mask & taken and can_complete(taken | p.mask, rest)
               for p in placements(first))


def ship_options(placed: Sequence[Placement]) -> list[Placement]:
    """Where the next ship of FLEET (after those `placed`, in order) may lie so that the
    whole fleet can still be placed: the choices of a fleet written ship by ship."""
    taken = sum(p.mask for p in placed)
    rest = LENGTHS[len(placed) + 1:]
    return [p for p in placements(LENGTHS[len(placed)])
            if not p.mask & taken and can_complete(taken | p.mask, rest)]


def all_fleets() -> Iterator[Fleet]:
    """Every legal fleet, lazily (there are about 3 * 10^10 of them), ship by ship."""

    def extend(placed: tuple[Placement, ...], taken: int) -> Iterator[Fleet]:
        if len(placed) == SHIPS:
            yield Fleet(placed)
            return
        for option in placements(LENGTHS[len(placed)]):
            if not option.mask & taken:
                yield from extend((*placed, option), taken | option.mask)

    return extend((), 0)


def random_fleet(rng: random.Random) -> Fleet:
    """A fleet drawn uniformly among all legal fleets: every ship placed uniformly and
    independently, the whole drawn again while two overlap (about one draw in two does not,
    so this costs a few draws)."""
    options = [placements(length) for length in LENGTHS]
    while True:
        ships = tuple(rng.choice(choices) for choices in options)
        taken = 0
        for ship in ships:
            if ship.mask & taken:
                break
            taken |= ship.mask
        else:
            return Fleet(ships)
