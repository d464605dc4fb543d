"""What a Battleship seat may know (its view), and opponent fleets consistent with it.

A seat knows its own fleet, whether the opponent has placed theirs, every shot fired by
either side and what each was told: a miss, a hit, or the ship it sank. The opponent's
fleet is shown to nobody until the game is over.

A fleet agrees with the seat's own shots when every miss is open water, every hit lies on
a ship, each ship reported sunk by a shot lies on that shot's cell and on cells shot no
later than it, and every ship not reported sunk has a cell not shot yet. (The hits of a
ship still afloat need not be told apart from the others: a hit that does not sink is
"a hit", whichever ship it struck.) consistent_fleet() finds one by a search that first
covers every hit cell with a ship, then puts the ships left in open water, checking ahead
that every ship still has somewhere to go.
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

    A search with forward checking: each ship keeps the placements still open to it (its
    candidates off every cell taken so far), and a choice that leaves some ship none is
    dropped at once. It places the ships reported sunk first (they have few placements),
    then covers the lowest hit cell not yet covered, trying (in random order) each ship
    left in each of its placements through that cell; once every hit is covered, the ships
    left go in random open water, the one with the fewest placements first. It is complete
    (it tries everything before giving up), and random in what it finds, though not exactly
    uniform over the consistent fleets: fleets whose ships cover the hits in fewer ways
    come up somewhat more often. That is good enough for bots, which want plausible
    fleets, not exact odds.
    """
    open_to: dict[int, list[Placement]] = {}
    for ship, allowed in enumerate(candidates(evidence)):
        rng.shuffle(allowed)
        open_to[ship] = allowed
    if any(not allowed for allowed in open_to.values()):
        return None
    found = _search({}, 0, open_to, evidence, rng)
    return None if found is None else Fleet(tuple(found[ship] for ship in range(len(FLEET))))


def _search(chosen: dict[int, Placement], taken: int, open_to: dict[int, list[Placement]],
            evidence: Evidence, rng: random.Random) -> dict[int, Placement] | None:
    uncovered = evidence.hits & ~taken
    if not open_to:
        return chosen if not uncovered else None
    if sum(LENGTHS[ship] for ship in open_to) < uncovered.bit_count():
        return None
    sunk = [ship for ship in open_to if ship in evidence.sunk]
    if sunk:
        ship = min(sunk, key=lambda s: len(open_to[s]))
        tries = [(ship, option) for option in open_to[ship]]
    elif uncovered:
        low = uncovered & -uncovered
        ships = list(open_to)
        rng.shuffle(ships)
        tries = [(ship, option) for ship in ships for option in open_to[ship]
                 if option.mask & low]
    else:
        ship = min(open_to, key=lambda s: len(open_to[s]))
        tries = [(ship, option) for option in open_to[ship]]
    for ship, option in tries:
        now = taken | option.mask
        left = {other: [o for o in allowed if not o.mask & now]
                for other, allowed in open_to.items() if other != ship}
        if any(not allowed for allowed in left.values()):
            continue
        found = _search({**chosen, ship: option}, now, left, evidence, rng)
        if found is not None:
            return found
    return None


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
