"""Battleship's moves and game state: immutable values, and what every shot was told.

Both players place their fleets first, secretly and in either order; then they shoot in
turn, seat 0 first, one cell a turn. The state keeps the two fleets and every shot in the
order fired (shot k was fired by seat k % 2); whether a shot hit, and what it sank, follows
from them and is worked out, never stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from pbm.games.battleship.fleet import FLEET, Fleet

SEATS = ("Blue", "Red")

# What a shot was told, as every report() entry holds it: open water, a ship hit but still
# afloat, or (any number 0-4) the index in FLEET of the ship the shot sank.
MISS = -1
HIT = -2


class Phase(Enum):
    """Where the game stands; it follows from the state, so it is never stored."""

    PLACING = "placing"
    SHOOTING = "shooting"
    OVER = "over"


@dataclass(frozen=True)
class PlaceFleet:
    """A move: the whole fleet, placed at once."""

    fleet: Fleet


@dataclass(frozen=True)
class Shot:
    """A move: one shot at a cell of the opponent's ocean."""

    cell: int


Move = PlaceFleet | Shot


@dataclass(frozen=True)
class BattleshipState:
    """A whole game. `fired[s]` is the mask of cells seat s has shot at, kept beside the
    shots (it follows from them) so that a random playout's moves cost a few operations."""

    fleets: tuple[Fleet | None, Fleet | None] = (None, None)
    shots: tuple[int, ...] = ()
    # Ended by a resignation or forfeit (not by the rules): the fleets are shown as at an end.
    concluded: bool = False
    fired: tuple[int, int] = field(default=(0, 0), compare=False, repr=False)

    @property
    def placed(self) -> bool:
        return self.fleets[0] is not None and self.fleets[1] is not None

    @property
    def turn(self) -> int:
        """The seat whose shot is next (once both fleets are in)."""
        return len(self.shots) % 2

    def winner(self) -> int | None:
        """The seat that has sunk every ship of the other's fleet, if any."""
        first, second = self.fleets
        if first is None or second is None:
            return None
        # Only the seat that fired last can have just finished: check it first.
        for seat in ((len(self.shots) - 1) % 2, len(self.shots) % 2):
            target = second if seat == 0 else first
            if target.mask & self.fired[seat] == target.mask:
                return seat
        return None

    @property
    def phase(self) -> Phase:
        if self.concluded or self.winner() is not None:
            return Phase.OVER
        return Phase.SHOOTING if self.placed else Phase.PLACING


def with_fired(fleets: tuple[Fleet | None, Fleet | None], shots: tuple[int, ...],
               concluded: bool = False) -> BattleshipState:
    """The state of these fleets and shots, its `fired` masks worked out."""
    fired = [0, 0]
    for index, cell in enumerate(shots):
        fired[index % 2] |= 1 << cell
    return BattleshipState(fleets, shots, concluded, (fired[0], fired[1]))


def reports(fleets: tuple[Fleet | None, Fleet | None], shots: tuple[int, ...]) -> list[int]:
    """What each shot was told, in order: MISS, HIT, or the index of the ship it sank."""
    told = []
    fired = [0, 0]
    for index, cell in enumerate(shots):
        seat = index % 2
        target = fleets[1 - seat]
        assert target is not None, "shots start once both fleets are placed"
        fired[seat] |= 1 << cell
        ship = target.ship_at(cell)
        if ship is None:
            told.append(MISS)
        elif target.masks[ship] & fired[seat] == target.masks[ship]:
            told.append(ship)
        else:
            told.append(HIT)
    return told


def report_words(report: int, owner: str) -> str:
    """'a miss', 'a hit', or 'a hit that sank Red's Cruiser' (`owner` as in "Red's")."""
    if report == MISS:
        return "a miss"
    if report == HIT:
        return "a hit"
    return f"a hit that sank {owner} {FLEET[report].name}"


def move_number(shot_index: int) -> int:
    """The move number of the shot at this index: the two fleets are moves 1 and 2."""
    return shot_index + 3
