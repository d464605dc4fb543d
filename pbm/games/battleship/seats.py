"""What a Battleship seat may know (its view), and opponent fleets consistent with it.

A seat knows its own fleet, whether the opponent has placed theirs, every shot fired by
either side and what each was told: a miss, a hit, or the ship it sank. The opponent's
fleet is shown to nobody until the game is over.

A fleet agrees with the seat's own shots when every miss is open water, every hit lies on
a ship, each ship reported sunk by a shot lies on that shot's cell and on cells shot no
later than it, and every ship not reported sunk has a cell not shot yet. (The hits of a
ship still afloat need not be told apart from the others: a hit that does not sink is
"a hit", whichever ship it struck.) consistent_fleet() finds one by a search that first
covers every hit cell with a ship, then puts the ships left in open water.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from pbm.games.battleship.fleet import FLEET, LENGTHS, Fleet, Placement, placements, random_fleet
from pbm.games.battleship.state import MISS, BattleshipState, Phase, reports, with_fired


@dataclass(frozen=True)
class BattleshipView:
    """All that `seat` may know of a Battleship game: plain values, never the state.

    `other` (the opponent's fleet) is None while the game runs; `other_placed` says whether
    it has been placed, which both players are told. `told[k]` is what shot k was told."""

    seat: int
    own: Fleet | None
    other_placed: bool
    other: Fleet | None
    shots: tuple[int, ...]
    told: tuple[int, ...]
    concluded: bool

    def as_state(self, other: Fleet | None) -> BattleshipState:
        """The whole state this view and the opponent fleet `other` make."""
        fleets = (self.own, other) if self.seat == 0 else (other, self.own)
        return with_fired(fleets, self.shots, self.concluded)


def seat_view(state: BattleshipState, seat: int) -> BattleshipView:
    other = state.fleets[1 - seat]
    told = tuple(reports(state.fleets, state.shots)) if state.placed else ()
    return BattleshipView(
        seat=seat,
        own=state.fleets[seat],
        other_placed=other is not None,
        other=other if state.phase is Phase.OVER else None,
        shots=state.shots,
        told=told,
        concluded=state.concluded,
    )


@dataclass(frozen=True)
class Evidence:
    """What a seat's own shots tell of the opponent's fleet, as masks."""

    misses: int  # open water
    hits: int  # a cell of some ship
    fired: int  # every cell shot at
    sunk: dict[int, tuple[int, int]]  # ship index -> (the cell that sank it, cells shot by then)


def evidence(shots: Sequence[int], told: Sequence[int], seat: int) -> Evidence:
    """The evidence of `seat`'s shots (every other shot, from the seat's first)."""
    misses = hits = fired = 0
    sunk: dict[int, tuple[int, int]] = {}
    for index in range(seat, len(shots), 2):
        cell = 1 << shots[index]
        fired |= cell
        report = told[index]
        if report == MISS:
            misses |= cell
        else:
            hits |= cell
            if report >= 0:
                sunk[report] = (shots[index], fired)
    return Evidence(misses, hits, fired, sunk)


def candidates(evidence: Evidence) -> list[list[Placement]]:
    """Per ship of FLEET, the placements its own report allows (overlaps left aside)."""
    found = []
    for ship, length in enumerate(LENGTHS):
        allowed = []
        sinking = evidence.sunk.get(ship)
        for option in placements(length):
            mask = option.mask
            if mask & evidence.misses:
                continue
            if sinking is not None:
                cell, by_then = sinking
                if not mask >> cell & 1 or mask & ~by_then:
                    continue
            elif mask & ~evidence.fired == 0:  # every cell shot, yet not reported sunk
                continue
            allowed.append(option)
        found.append(allowed)
    return found


def consistent_fleet(evidence: Evidence, rng: random.Random) -> Fleet | None:
    """A fleet that agrees with the evidence, or None if none does.

    The search covers the lowest hit cell not yet covered, trying (in random order) each
    ship not yet placed in each of its placements through that cell; once every hit is
    covered, the ships left go in random open water. It is complete (it tries everything
    before giving up), and random in what it finds, though not exactly uniform over the
    consistent fleets: fleets whose ships cover the hits in fewer ways come up somewhat
    more often. That is good enough for bots, which want plausible fleets, not exact odds.
    """
    options = candidates(evidence)
    for allowed in options:
        rng.shuffle(allowed)
    chosen: list[Placement | None] = [None] * len(FLEET)

    def cover(taken: int) -> bool:
        uncovered = evidence.hits & ~taken
        if not uncovered:
            return water(taken, [ship for ship in range(len(FLEET)) if chosen[ship] is None])
        if sum(LENGTHS[ship] for ship in range(len(FLEET)) if chosen[ship] is None) \
                < uncovered.bit_count():
            return False
        low = uncovered & -uncovered
        ships = [ship for ship in range(len(FLEET)) if chosen[ship] is None]
        rng.shuffle(ships)
        for ship in ships:
            for option in options[ship]:
                if option.mask & low and not option.mask & taken:
                    chosen[ship] = option
                    if cover(taken | option.mask):
                        return True
            chosen[ship] = None
        return False

    def water(taken: int, ships: list[int]) -> bool:
        if not ships:
            return True
        ship, rest = ships[0], ships[1:]
        for option in options[ship]:
            # The hits are all covered, so a ship left over lies off every shot cell.
            if not option.mask & (taken | evidence.hits):
                chosen[ship] = option
                if water(taken | option.mask, rest):
                    return True
        chosen[ship] = None
        return False

    if not cover(0):
        return None
    return Fleet(tuple(option for option in chosen if option is not None))


def sample_state(view: BattleshipView, rng: random.Random) -> BattleshipState:
    """A whole state with the view's seat's knowledge: the opponent's fleet drawn among
    those that agree with every report (uniformly before any shot)."""
    if view.other is not None or not view.other_placed:
        return view.as_state(view.other)
    if not view.shots:
        return view.as_state(random_fleet(rng))
    fleet = consistent_fleet(evidence(view.shots, view.told, view.seat), rng)
    if fleet is None:
        # Only a view no real game gives (reports no fleet can make) comes here.
        raise ValueError("no opponent fleet agrees with this view's shots")
    return view.as_state(fleet)
