"""Reading Battleship moves from mail: a whole fleet, or one shot; and why one is refused.

A fleet is its five ships, each written as its two end cells joined by '-' (A1-A5), in any
order, optionally each after its name ("carrier A1-A5"); without names a ship is known by
its length, the first 3-cell ship written being the Cruiser and the second the Submarine.
Case, spaces, commas and semicolons do not matter. Mail may hold anything, so the text is
bounded and read with bounded patterns, never with int() of a long run of digits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbm.games.base import IllegalMove, InvalidMove
from pbm.games.battleship.fleet import FLEET, GRID, SIZE, Fleet, Placement, cell_name
from pbm.games.text import and_list, number_word, plural

COLUMNS = GRID.letters

FLEET_EXAMPLE = "A1-A5 C3-F3 H1-H3 J5-J7 E9-F9"
SHOT_EXAMPLE = "E5"
LONGEST = 300  # characters of a fleet: five named ships with room to spare
SHIP_LIST = ", ".join(f"{ship.name} {ship.length}" for ship in FLEET)
FLEET_HELP = (
    f"Send your whole fleet in one move, each ship as its two end cells joined by '-': "
    f"{SHIP_LIST} cells long, e.g. {FLEET_EXAMPLE}."
)
SHOT_HELP = (
    "A shot is one cell: a column letter A to J and a row number 1 to 10, "
    f"e.g. {SHOT_EXAMPLE}."
)
BOARD_RANGE = "the board runs from A1 to J10 (columns A to J, rows 1 to 10)"

# Names a player may write before a ship, upper case: the ship's name and short forms.
NAMES = {
    "CARRIER": 0, "AIRCRAFTCARRIER": 0, "BATTLESHIP": 1, "CRUISER": 2,
    "SUBMARINE": 3, "SUB": 3, "DESTROYER": 4,
}  # fmt: skip
# A cell (a letter and up to three digits: "K100" is read, then refused as off the board),
# a word (a ship's name), or the dash between a ship's ends.
_TOKEN = re.compile(r"(?P<cell>[A-Z] ?[0-9]{1,3})(?![0-9])|(?P<word>[A-Z]{2,20})|(?P<dash>-)")
# A shot: "E5", "e 5", or "E-5" as the players of the board game call it out.
_SHOT = re.compile(r"\s*([A-Za-z])\s*-?\s*([0-9]{1,3})\s*")


@dataclass(frozen=True)
class Written:
    """One ship as written: its name if given (an index in FLEET) and its end cells."""

    name: int | None
    ends: tuple[str, str]  # as written, upper case, without spaces: "A1", "K3"

    @property
    def text(self) -> str:
        return f"{self.ends[0]}-{self.ends[1]}"


def looks_like_shot(text: str) -> bool:
    return _SHOT.fullmatch(text) is not None


def read_shot(text: str) -> int:
    """The cell a shot names; InvalidMove for what is not a cell, IllegalMove off the board."""
    found = _SHOT.fullmatch(text)
    if found is None:
        shown = " ".join(text.split())[:30]
        raise InvalidMove(f"'{shown}' is not a shot. {SHOT_HELP}" if shown else SHOT_HELP)
    cell = _cell(found.group(1).upper(), found.group(2))
    if cell is None:
        name = f"{found.group(1).upper()}{found.group(2)}"
        raise IllegalMove(f"{name} is off the board: {BOARD_RANGE}.")
    return cell


def _cell(letter: str, digits: str) -> int | None:
    col = COLUMNS.find(letter) if len(letter) == 1 else -1
    row = int(digits) - 1  # at most three digits
    return row * SIZE + col if col >= 0 and 0 <= row < SIZE else None


def read_fleet(text: str) -> Fleet:
    """The fleet a placement names, or the first thing wrong with it, in words."""
    return check_fleet(written_ships(text))


def written_ships(text: str) -> list[Written]:
    """The ships as written, in order; InvalidMove for text that is no fleet at all."""
    if len(text) > LONGEST:
        raise InvalidMove(f"That is too long for a fleet. {FLEET_HELP}")
    # "aircraft carrier", the Carrier's full name, is read as one word.
    upper = re.sub(r"AIRCRAFT\s*CARRIER", "CARRIER", re.sub(r"[,;]", " ", text.upper()))
    tokens: list[tuple[str, str]] = []
    position = 0
    while position < len(upper):
        if upper[position].isspace():
            position += 1
            continue
        found = _TOKEN.match(upper, position)
        if found is None:
            shown = upper[position:].split()[0][:20]
            raise InvalidMove(f"Cannot read '{shown}' in your fleet. {FLEET_HELP}")
        kind = found.lastgroup
        assert kind is not None
        tokens.append((kind, found.group().replace(" ", "")))
        position = found.end()
    if not tokens:
        raise InvalidMove(FLEET_HELP)
    ships: list[Written] = []
    index = 0
    while index < len(tokens):
        name = None
        kind, word = tokens[index]
        if kind == "word":
            if word not in NAMES:
                raise InvalidMove(
                    f"'{word.lower()}' is no ship of the fleet: the ships are "
                    f"{and_list(ship.name for ship in FLEET)}. {FLEET_HELP}")
            name = NAMES[word]
            index += 1
        ends = _ends(tokens, index, FLEET[name].name if name is not None else None)
        ships.append(Written(name, ends))
        index += 3
    return ships


def _ends(tokens: list[tuple[str, str]], index: int, name: str | None) -> tuple[str, str]:
    """The two end cells from tokens[index] on: cell, dash, cell."""
    kinds = [kind for kind, _ in tokens[index:index + 3]]
    if kinds != ["cell", "dash", "cell"]:
        what = f"your {name}" if name else "each ship"
        after = " ".join(text for _, text in tokens[index:index + 3])
        near = f" (at '{after}')" if after else ""
        raise InvalidMove(
            f"Write {what} as its two end cells joined by '-', e.g. A1-A5{near}. "
            f"{FLEET_HELP}")
    return tokens[index][1], tokens[index + 2][1]


def _placement(ship: Written) -> Placement:
    """Where a written ship lies, or why it lies nowhere: off the board, or not straight."""
    cells = []
    for end in ship.ends:
        cell = _cell(end[0], end[1:])
        if cell is None:
            raise IllegalMove(f"{end} (in {ship.text}) is off the board: {BOARD_RANGE}.")
        cells.append(cell)
    low, high = sorted(cells)
    if low // SIZE == high // SIZE:
        return Placement(low, True, high - low + 1)
    if low % SIZE == high % SIZE:
        return Placement(low, False, (high - low) // SIZE + 1)
    raise IllegalMove(
        f"{ship.text} is not straight: a ship lies along a row or down a column, "
        "never diagonally.")


def _lengths_text() -> str:
    by_length: dict[int, list[str]] = {}
    for ship in FLEET:
        by_length.setdefault(ship.length, []).append(ship.name)
    return and_list(f"{length} ({' and '.join(names)})" for length, names in by_length.items())


def check_fleet(ships: list[Written]) -> Fleet:
    """The fleet these written ships make, or IllegalMove with the first thing wrong."""
    placed: dict[int, tuple[Placement, Written]] = {}
    unnamed: list[tuple[Placement, Written]] = []
    for ship in ships:
        placement = _placement(ship)
        if ship.name is None:
            unnamed.append((placement, ship))
            continue
        kind = FLEET[ship.name]
        if ship.name in placed:
            raise IllegalMove(
                f"You placed the {kind.name} twice ({placed[ship.name][1].text} and "
                f"{ship.text}); a fleet has one of each ship.")
        if placement.length != kind.length:
            raise IllegalMove(
                f"Your {kind.name} {ship.text} is {plural(placement.length, 'cell')} long; a "
                f"{kind.name} is {kind.length}.")
        placed[ship.name] = (placement, ship)
    for placement, ship in unnamed:
        free = [i for i, kind in enumerate(FLEET)
                if kind.length == placement.length and i not in placed]
        if not free:
            raise IllegalMove(_no_ship_of_length(placement.length, ship, ships))
        placed[free[0]] = (placement, ship)
    missing = [FLEET[i] for i in range(len(FLEET)) if i not in placed]
    if missing:
        lacks = and_list(f"the {kind.name} ({kind.length} cells)" for kind in missing)
        raise IllegalMove(f"Your fleet lacks {lacks}. {FLEET_HELP}")
    fleet = Fleet(tuple(placed[i][0] for i in range(len(FLEET))))
    _check_overlaps(fleet, {i: placed[i][1] for i in placed})
    return fleet


def _no_ship_of_length(length: int, ship: Written, ships: list[Written]) -> str:
    kinds = [kind for kind in FLEET if kind.length == length]
    if not kinds:
        return (f"{ship.text} is {plural(length, 'cell')} long; the ships are "
                f"{_lengths_text()} cells long.")
    same = [other.text for other in ships if _length(other) == length]
    names = and_list(f"the {kind.name}" for kind in kinds)
    count = number_word(len(kinds))
    return (f"You sent {number_word(len(same))} ships {length} cells long "
            f"({and_list(same)}); the fleet has {count}: {names}.")


def _length(ship: Written) -> int | None:
    try:
        return _placement(ship).length
    except IllegalMove:
        return None


def _check_overlaps(fleet: Fleet, written: dict[int, Written]) -> None:
    for first in range(len(FLEET)):
        for second in range(first + 1, len(FLEET)):
            shared = fleet.masks[first] & fleet.masks[second]
            if shared:
                cell = cell_name((shared & -shared).bit_length() - 1)  # the first shared
                raise IllegalMove(
                    f"Your {FLEET[first].name} {written[first].text} and "
                    f"{FLEET[second].name} {written[second].text} overlap at {cell}: "
                    "ships may touch but never share a cell.")
