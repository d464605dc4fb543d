"""A Swiss player's colour (seat) history: what they may be given, and what they would like.

White is seat 0, black seat 1. Only games played count: a bye or a forfeit gives no colour
(FIDE counts colours of played games only, for the same reason: nobody sat in the seat).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum


class Colour(Enum):
    WHITE = "W"
    BLACK = "B"

    @property
    def other(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE


MAX_DIFFERENCE = 2  # whites minus blacks stays within -2..+2
MAX_RUN = 2  # never the same colour three times running

# How much a granted preference is worth to the pairing (absolute ones are not wishes but
# rules: can_take() refuses the other colour, so they need no weight of their own).
STRONG = 2  # one colour more of one kind than of the other
MILD = 1  # level: the colour the player did not have last


@dataclass(frozen=True)
class Preference:
    colour: Colour | None  # None: no games yet, either will do
    strength: int = 0


def difference(colours: Sequence[Colour]) -> int:
    """Whites minus blacks."""
    return sum(1 if colour is Colour.WHITE else -1 for colour in colours)


def can_take(colours: Sequence[Colour], colour: Colour) -> bool:
    """Whether giving `colour` next keeps the absolute colour rules: the difference within
    ±MAX_DIFFERENCE and no run of more than MAX_RUN."""
    step = 1 if colour is Colour.WHITE else -1
    if abs(difference(colours) + step) > MAX_DIFFERENCE:
        return False
    return not (len(colours) >= MAX_RUN and all(c is colour for c in colours[-MAX_RUN:]))


def preference(colours: Sequence[Colour]) -> Preference:
    """The colour the player should have next (Dutch's strong and mild preferences)."""
    if not colours:
        return Preference(None)
    diff = difference(colours)
    if diff:
        return Preference(Colour.BLACK if diff > 0 else Colour.WHITE, STRONG)
    return Preference(colours[-1].other, MILD)
