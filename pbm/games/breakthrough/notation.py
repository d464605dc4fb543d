"""Move notation: how a move is written (B2-B3, B2xC3) and how mailed text is read.

The canonical form names the piece's square and the square it goes to, joined by '-' for
a plain move and 'x' for a capture. Read as well: either case, spaces anywhere, no joiner
at all (B2C3) or a colon, and pbmserv's short form, the piece's square and a direction
(E2F: forward, E2L: diagonally towards column A, E2R: towards the last column).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbm.games.base import InvalidMove
from pbm.games.breakthrough.board import BreakthroughState, Step

EXAMPLE = "B2-B3"
LONGEST = 40  # no move is longer, spaces and all: longer text is not read at all

# Bounded repetitions only: mail may hold anything, and no square has a long number.
_SQUARE = r"([a-z])\s{0,3}([0-9]{1,3})"
_PAIR = re.compile(_SQUARE + r"\s{0,3}([-x:]?)\s{0,3}" + _SQUARE)
_SHORT = re.compile(_SQUARE + r"\s{0,3}([lfr])")

PLAIN, TAKES = "-", "x"
DIRECTIONS = {"l": -1, "f": 0, "r": 1}  # column change of pbmserv's L, F and R


@dataclass(frozen=True)
class Reading:
    """What the text says, before the board is looked at: the piece's square (letter and
    number as written) and either the target square or a direction (-1, 0, 1 columns),
    and whether the text claims a capture ('x')."""

    origin: tuple[str, int]
    target: tuple[str, int] | None
    direction: int | None
    claims_capture: bool


def notation(move: Step) -> str:
    return f"{move.origin.name}{TAKES if move.capture else PLAIN}{move.target.name}"


def read(text: str) -> Reading:
    """The squares `text` names; InvalidMove, saying how to write a move, if it names none."""
    words = text.strip().lower()
    pair = _PAIR.fullmatch(words) if len(words) <= LONGEST else None
    if pair is not None:
        letter, number, joiner, to_letter, to_number = pair.groups()
        return Reading((letter.upper(), int(number)), (to_letter.upper(), int(to_number)),
                       None, joiner == TAKES)
    short = _SHORT.fullmatch(words) if len(words) <= LONGEST else None
    if short is not None:
        letter, number, direction = short.groups()
        return Reading((letter.upper(), int(number)), None, DIRECTIONS[direction], False)
    shown = text.strip()
    shown = shown if len(shown) <= 20 else shown[:20] + "..."
    raise InvalidMove(
        f"Cannot read '{shown}' as a Breakthrough move: write the square of your piece and"
        f" the square it goes to, e.g. {EXAMPLE}, or B2xC3 to capture on C3 (pbmserv's"
        " B2F, B2L and B2R are read too)."
    )


_STORED = re.compile(r"([A-Z][0-9]{1,2})([-x])([A-Z][0-9]{1,2})")


def stored(text: str, state: BreakthroughState) -> Step:
    """The move a snapshot's canonical notation names on `state`'s board (ValueError if
    it is not one)."""
    found = _STORED.fullmatch(text)
    if found is None:
        raise ValueError(f"not a stored Breakthrough move: {text!r}")
    grid = state.geometry.grid
    return Step(grid.named(found[1]), grid.named(found[3]), found[2] == TAKES)
