"""What a Battleship viewer sees: the oceans with the shots on them, the last shot, the tally.

A seat sees its own fleet and every shot fired, with what each shot was told (hit or miss,
and the ship it sank); never where the opponent's ships are until the game is over. A
spectator sees the shots on both oceans and no ship. At the end both fleets are shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from textwrap import wrap

from pbm.games.base import Viewer
from pbm.games.battleship.fleet import FLEET, GRID, SIZE, Fleet, cell_name
from pbm.games.battleship.state import (
    HIT,
    MISS,
    SEATS,
    BattleshipState,
    Phase,
    move_number,
    reports,
)
from pbm.games.text import and_list, plural

WIDTH = 76  # the longest line of a board
CELL = 3  # characters a cell takes in the text board
GAP = " " * 4  # between two oceans side by side
SHIP_LEGEND = ", ".join(f"{ship.letter} {ship.name} {ship.length}" for ship in FLEET)
MARK_LEGEND = "X hit, o miss, . not shot at; the last shot is in brackets: (X)."


@dataclass(frozen=True)
class Ocean:
    """One seat's ocean as a viewer sees it: the shots fired at it (and what they hit),
    and its ships where the viewer may see them."""

    owner: int
    fleet: Fleet | None  # None: hidden from this viewer (or not placed yet)
    shots: frozenset[int]
    hits: frozenset[int]
    last: int | None  # the last shot of the game, when it was fired at this ocean
    title: str


def oceans(state: BattleshipState, viewer: Viewer) -> list[Ocean]:
    """The oceans `viewer` is shown, theirs first (a spectator's: Blue's first). Before
    the shooting an ocean not the viewer's own is drawn empty: nobody has shot at it."""
    revealed = state.phase is Phase.OVER
    order = [viewer, 1 - viewer] if viewer in (0, 1) else [0, 1]
    found = []
    for owner in order:
        assert owner is not None
        fleet = state.fleets[owner]
        shooter = 1 - owner
        shots = frozenset(i for i in range(GRID.columns * GRID.rows)
                          if state.fired[shooter] >> i & 1)
        target = state.fleets[owner]
        hits = frozenset(c for c in shots if target is not None and target.mask >> c & 1)
        last = None
        if state.shots and (len(state.shots) - 1) % 2 == shooter:
            last = state.shots[-1]
        seen = fleet if owner == viewer or revealed else None
        title = _title(owner, viewer, revealed, fleet is not None, state.placed)
        found.append(Ocean(owner, seen, shots, hits, last, title))
    return found


def _title(owner: int, viewer: Viewer, revealed: bool, own_placed: bool,
           placed: bool) -> str:
    if owner == viewer:
        return f"Your fleet ({SEATS[owner]})" if own_placed else f"Your ocean ({SEATS[owner]})"
    if revealed:
        return f"{SEATS[owner]}'s fleet"
    if not placed:  # before the shooting: the ocean is drawn, empty, for its names
        return f"{SEATS[owner]}'s ocean"
    if viewer is None:
        return f"{SEATS[1 - owner]}'s shots at {SEATS[owner]}"
    return f"Your shots at {SEATS[owner]}"


def mark(ocean: Ocean, cell: int) -> str:
    """What a cell of an ocean shows: X a hit, o a miss, a ship's letter, . open water."""
    if cell in ocean.hits:
        return "X"
    if cell in ocean.shots:
        return "o"
    if ocean.fleet is not None:
        ship = ocean.fleet.ship_at(cell)
        if ship is not None:
            return FLEET[ship].letter
    return "."


def draw_ocean(ocean: Ocean) -> list[str]:
    """The ocean's title, its column letters and its ten rows."""
    width = 4 + CELL * SIZE
    lines = [ocean.title.ljust(width), "    " + "".join(f"{c:^{CELL}}" for c in GRID.letters)]
    for row in range(SIZE):
        cells = []
        for col in range(SIZE):
            cell = row * SIZE + col
            shown = mark(ocean, cell)
            cells.append(f"({shown})" if cell == ocean.last else f" {shown} ")
        lines.append(f"{row + 1:>3} " + "".join(cells))
    return [line.ljust(width) for line in lines]


def render_lines(state: BattleshipState, viewer: Viewer) -> list[str]:
    """Everything `viewer` may see, line by line."""
    drawn = [draw_ocean(ocean) for ocean in oceans(state, viewer)]
    lines: list[str] = []
    if drawn:
        lines = [GAP.join(parts).rstrip() for parts in zip(*drawn)]
        lines += ["", SHIP_LEGEND + ".", MARK_LEGEND] if state.placed else ["", SHIP_LEGEND + "."]
    if lines:
        lines.append("")
    return lines + status_lines(state, viewer)


def status_lines(state: BattleshipState, viewer: Viewer,
                 width: int | None = WIDTH) -> list[str]:
    """What is said under the oceans: the fleets (as far as the viewer may see them), the
    last shot and what it was told, and each seat's shots, hits and ships sunk; a long
    line wrapped at `width` (None: never)."""
    lines = _fleet_lines(state, viewer)
    if state.placed:
        told = reports(state.fleets, state.shots)
        lines += ["", *_last_shot(state, told, viewer), *_tally(state, told, viewer, width)]
    return lines


def _fleet_lines(state: BattleshipState, viewer: Viewer) -> list[str]:
    revealed = state.phase is Phase.OVER
    order = [viewer, 1 - viewer] if viewer in (0, 1) else [0, 1]
    lines = []
    for owner in order:
        assert owner is not None
        fleet = state.fleets[owner]
        label = "Your fleet" if owner == viewer else f"{SEATS[owner]}'s fleet"
        if fleet is None:
            lines.append(f"{label}: not placed yet.")
        elif owner == viewer or revealed:
            lines.append(f"{label}: {fleet.notation()}")
        elif state.placed:
            lines.append(f"{label}: secret until the game ends.")
        else:
            lines.append(f"{label}: placed.")
    return lines


def _last_shot(state: BattleshipState, told: list[int], viewer: Viewer) -> list[str]:
    if not state.shots:
        return [f"No shots yet: {SEATS[0]} shoots first."]
    index = len(state.shots) - 1
    shooter, cell, report = index % 2, state.shots[-1], told[-1]
    target = 1 - shooter
    who = "you" if viewer == shooter else SEATS[shooter]
    answer = "a miss" if report == MISS else "a hit"
    line = f"Last shot: by {who} at {cell_name(cell)} (move {move_number(index)}): {answer}."
    if report in (MISS, HIT):
        return [line]
    ship = FLEET[report].name
    if viewer == shooter:
        sank = f"You sank {SEATS[target]}'s {ship}!"
    elif viewer == target:
        sank = f"{SEATS[shooter]} sank your {ship}."
    else:
        sank = f"{SEATS[shooter]} sank {SEATS[target]}'s {ship}."
    return [line, sank]


def _tally(state: BattleshipState, told: list[int], viewer: Viewer,
           width: int | None) -> list[str]:
    """Per seat: shots fired, hits, and the ships it has sunk (named, as the rules tell
    them); for the viewer, the damage to their own fleet, ship by ship."""
    lines = []
    for seat in (0, 1):
        mine = told[seat::2]
        hits = sum(1 for report in mine if report != MISS)
        sunk = [FLEET[report].name for report in mine if report >= 0]
        afloat = len(FLEET) - len(sunk)
        lines.append(f"{SEATS[seat]}: {plural(len(mine), 'shot')}, {plural(hits, 'hit')}; "
                     f"{afloat} of {SEATS[1 - seat]}'s ships afloat.")
        if sunk:
            lines.append(f"  {SEATS[seat]} sank {SEATS[1 - seat]}'s {and_list(sunk)}.")
    if viewer in (0, 1):
        damage = _damage(state, viewer)
        lines += [damage] if width is None else wrap(damage, width, subsequent_indent="  ")
    return lines


def _damage(state: BattleshipState, seat: int) -> str:
    fleet = state.fleets[seat]
    assert fleet is not None
    fired = state.fired[1 - seat]
    parts = []
    for kind, mask in zip(FLEET, fleet.masks):
        struck = (mask & fired).bit_count()
        if struck == kind.length:
            parts.append(f"{kind.name} sunk")
        elif struck:
            parts.append(f"{kind.name} {struck} of {kind.length}")
    return "Hits on your fleet: " + (", ".join(parts) if parts else "none") + "."
