"""Battleship's own bots: hunt and target (good), and shots by the odds (best).

Both see only their seat's view (seats.BattleshipView) and place a fleet drawn uniformly.
Random playouts tell Monte Carlo search little here (a random shooter needs some ninety
shots to sink a fleet, so one shot barely moves a playout's result), while two classic
ways of shooting are far stronger and cheap:

* good hunts on a checkerboard of cells (every ship, two cells or longer, covers one of
  each colour) until it hits, then targets the cells beside its hits that no sunk ship
  accounts for, along the line two hits make when it has one;
* best shoots where ships most often lie in fleets drawn to agree with every report so
  far (seats.consistent_fleet): the density of the opponent's possible fleets.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pbm.games.base import AnyGame
from pbm.games.battleship.fleet import CELLS, FLEET, SIZE, cells_of, random_fleet
from pbm.games.battleship.seats import BattleshipView, Evidence, consistent_fleet, evidence
from pbm.games.battleship.state import Move, PlaceFleet, Shot


def _placing(view: BattleshipView) -> bool:
    return view.own is None


def _open_water(fired: int) -> list[int]:
    return [cell for cell in range(CELLS) if not fired >> cell & 1]


def unaccounted_hits(found: Evidence) -> int:
    """The hit cells no sunk ship needs: for each sunk ship, a straight run of its length
    through the cell that sank it, of cells hit by then, is taken as that ship (the first
    such run; where several fit, the bot may guess wrong and fire a few shots more)."""
    left = found.hits
    for ship, (cell, by_then) in sorted(found.sunk.items()):
        left &= ~_sunk_run(FLEET[ship].length, cell, found.hits & by_then & left)
    return left


def _sunk_run(length: int, cell: int, hit: int) -> int:
    """The first straight run of `length` cells through `cell` that lies on `hit` cells
    (across, then down; 0 if none does)."""
    row, col = divmod(cell, SIZE)
    for across, place in ((True, col), (False, row)):
        step = 1 if across else SIZE
        for offset in range(length):
            if not 0 <= place - offset <= SIZE - length:
                continue
            start = cell - offset * step
            run = sum(1 << (start + i * step) for i in range(length))
            if run & hit == run:
                return run
    return 0


@dataclass(frozen=True)
class HuntTargetBot:
    """Checkerboard hunting, then the cells beside unaccounted hits."""

    strength: str = "good"
    method: str = "hunt on a checkerboard, then target the cells around its hits"

    def choose(self, game: AnyGame, view: BattleshipView, seat: int, rng: random.Random,
               seconds: float) -> Move:
        if _placing(view):
            return PlaceFleet(random_fleet(rng))
        found = evidence(view.shots, view.told, seat)
        targets = _targets(unaccounted_hits(found), found.fired)
        if targets:
            return Shot(rng.choice(targets))
        water = _open_water(found.fired)
        hunting = [cell for cell in water if (cell // SIZE + cell % SIZE) % 2 == 0]
        return Shot(rng.choice(hunting or water))


def _targets(hits: int, fired: int) -> list[int]:
    """Unshot cells beside the hits; those that extend a line of two hits if any."""
    beside: list[int] = []
    in_line: list[int] = []
    for cell in range(CELLS):
        if not hits >> cell & 1:
            continue
        row, col = divmod(cell, SIZE)
        for drow, dcol in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            near_row, near_col = row + drow, col + dcol
            if not (0 <= near_row < SIZE and 0 <= near_col < SIZE):
                continue
            near = near_row * SIZE + near_col
            if fired >> near & 1:
                continue
            beside.append(near)
            back_row, back_col = row - drow, col - dcol
            if 0 <= back_row < SIZE and 0 <= back_col < SIZE and \
                    hits >> (back_row * SIZE + back_col) & 1:
                in_line.append(near)
    return sorted(set(in_line or beside))


@dataclass(frozen=True)
class DensityBot:
    """Shoots the unshot cell most often covered in `samples` fleets that agree with every
    report (ties broken at random)."""

    strength: str = "best"
    samples: int = 150

    @property
    def method(self) -> str:
        return f"shoots where ships most often lie in {self.samples} fleets fitting its reports"

    def choose(self, game: AnyGame, view: BattleshipView, seat: int, rng: random.Random,
               seconds: float) -> Move:
        if _placing(view):
            return PlaceFleet(random_fleet(rng))
        found = evidence(view.shots, view.told, seat)
        counts = [0] * CELLS
        for _ in range(self.samples):
            fleet = random_fleet(rng) if not found.fired else consistent_fleet(found, rng)
            assert fleet is not None, "the real fleet agrees with the reports"
            for cell in cells_of(fleet.mask & ~found.fired):
                counts[cell] += 1
        water = _open_water(found.fired)
        best = max(counts[cell] for cell in water)
        return Shot(rng.choice([cell for cell in water if counts[cell] == best]))


BOTS = {"good": HuntTargetBot(), "best": DensityBot()}
