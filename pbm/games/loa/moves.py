"""Moves of Lines of Action: what they are, which are legal, and why one is not.

A piece moves along its row, column or diagonal exactly as many squares as there are pieces
(of both colours, itself included) on that whole line; it may pass over its own pieces but
not the opponent's, and it lands on an empty square or captures by landing on an opponent's
piece. A player who has no such move passes (the rules of the Mind Sports Olympiad, rule 9).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pbm.games.loa.board import (
    LINE_NAMES,
    LINES,
    RAYS,
    STEPS,
    bit,
    direction_between,
    name,
    squares,
)


@dataclass(frozen=True, slots=True)
class Step:
    """A piece moved from `origin` to `target`; `capture` if an opponent's piece was there."""

    origin: int
    target: int
    capture: bool = False

    @property
    def notation(self) -> str:
        return f"{name(self.origin)}{'x' if self.capture else '-'}{name(self.target)}"


@dataclass(frozen=True, slots=True)
class Pass:
    """No move: allowed only to a player who has no legal move."""

    @property
    def notation(self) -> str:
        return "pass"


PASS = Pass()
Move = Step | Pass

# Attempts of a random (piece, direction) before listing every move: most positions accept
# one in three or so, so this is reached only where nearly nothing is legal.
_TRIES = 40


def steps_of(own: int, opponent: int, origin: int) -> list[Step]:
    """The legal moves of the piece on `origin` (one of `own`), in direction order."""
    occupied = own | opponent
    found = []
    lines = LINES[origin]
    for direction, ways in enumerate(STEPS[origin]):
        count = (occupied & lines[direction % 4]).bit_count()
        if count > len(ways):
            continue
        target, passed = ways[count - 1]
        if own >> target & 1 or opponent & passed:
            continue
        found.append(Step(origin, target, bool(opponent >> target & 1)))
    return found


def all_steps(own: int, opponent: int) -> list[Step]:
    """Every legal move of the side whose pieces are `own`, piece by piece from A1."""
    return [step for origin in squares(own) for step in steps_of(own, opponent, origin)]


def random_step(own: int, opponent: int, rng: random.Random) -> Move:
    """A uniformly chosen legal move, or PASS when there is none.

    Each legal move is one (piece, direction) pair, so drawing pairs uniformly and keeping
    the first legal one is uniform over the legal moves, and costs a few tries instead of
    listing all of them; after _TRIES misses the list decides, uniformly too.
    """
    pieces = squares(own)
    occupied = own | opponent
    choices = len(pieces) * 8
    for _ in range(_TRIES):
        pick = rng.randrange(choices)
        origin, direction = pieces[pick >> 3], pick & 7
        ways = STEPS[origin][direction]
        count = (occupied & LINES[origin][direction % 4]).bit_count()
        if count > len(ways):
            continue
        target, passed = ways[count - 1]
        if own >> target & 1 or opponent & passed:
            continue
        return Step(origin, target, bool(opponent >> target & 1))
    every = all_steps(own, opponent)
    return rng.choice(every) if every else PASS


def why_illegal(own: int, opponent: int, origin: int, target: int,
                colours: tuple[str, str]) -> str | None:
    """Why moving the piece on `origin` to `target` breaks the rules, in words, or None if
    it is legal. `colours` names the mover's side and the opponent's ("Black", "White")."""
    if not own >> origin & 1:
        if opponent >> origin & 1:
            return f"The piece on {name(origin)} is {colours[1]}'s; you play {colours[0]}."
        mine = " ".join(name(s) for s in squares(own))
        return f"There is no piece on {name(origin)}; your pieces are on {mine}."
    if origin == target:
        return f"A move goes somewhere: {name(origin)} to {name(target)} stays put."
    way = direction_between(origin, target)
    if way is None:
        return (f"{name(origin)} and {name(target)} are not on one line: a piece moves along"
                " its row, its column or a diagonal.")
    direction, distance = way
    line = LINES[origin][direction % 4]
    count = ((own | opponent) & line).bit_count()
    if distance != count:
        reach = RAYS[origin][direction]
        where = (f"that way it would reach {name(reach[count - 1])}" if count <= len(reach)
                 else "that way it would leave the board")
        return (f"The {LINE_NAMES[direction % 4]} through {name(origin)} holds {count}"
                f" pieces (of both colours, this one included), so the piece moves exactly"
                f" {count} squares along it, not {distance}: {where}.")
    passed = STEPS[origin][direction][distance - 1][1] & opponent
    if passed:
        first = next(s for s in RAYS[origin][direction] if bit(s) & passed)
        return (f"The piece on {name(origin)} cannot jump {colours[1]}'s piece on"
                f" {name(first)}: a piece jumps only pieces of its own colour.")
    if own >> target & 1:
        return (f"{name(target)} holds one of your own pieces: a piece lands on an empty"
                " square or on an opponent's piece (capturing it), never on its own.")
    return None
