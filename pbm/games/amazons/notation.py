"""Reading an Amazons move as players write it: D1-D6/G3, d1d6g3, D1-D6 G3, d1-d6,g3.

The canonical spelling is FROM-TO/ARROW in upper case. Also read: any case, spaces
anywhere between the parts, the dashes left out, the arrow after a space or a comma as the
published game records write it ("1. d1-d5,g8;": an en dash, a comma and a closing
semicolon, the move number left out). A square's letter and digits always end where the
next letter starts, so "d10d1a1" is unambiguous.
"""

from __future__ import annotations

import re

from pbm.games.amazons.board import BY_NAME
from pbm.games.base import IllegalMove, InvalidMove

EXAMPLE = "D1-D6/G3"
HOW = ("write the amazon's square, the square it moves to and the square its arrow"
       f" lands on, e.g. {EXAMPLE} (from D1 to D6, then an arrow to G3)")
LONGEST = 40  # characters: no move needs more, and mail may hold anything at all

# Bounded digits: a square has at most two; int() of a few more is still harmless.
_SQUARE = r"([A-Za-z])\s*([0-9]{1,3})"
_DASH = r"\s*(?:[-\u2013\u2014]\s*)?"
_MOVE = re.compile(rf"{_SQUARE}{_DASH}{_SQUARE}\s*(?:[/,]\s*)?{_SQUARE}\s*;?")
_HALF = re.compile(rf"{_SQUARE}{_DASH}{_SQUARE}\s*;?")


def read(text: str) -> tuple[int, int, int]:
    """The squares (origin, destination, arrow) `text` names. InvalidMove if it is no move
    at all, IllegalMove if it names a square the board does not have."""
    written = text.strip()
    if len(written) > LONGEST:
        raise InvalidMove(f"Cannot read '{written[:20]}...' as an Amazons move: {HOW}.")
    found = _MOVE.fullmatch(written)
    if found is None:
        if _HALF.fullmatch(written):
            raise InvalidMove(
                f"'{written}' moves an amazon but shoots no arrow: every move ends with an"
                f" arrow; {HOW}.")
        raise InvalidMove(f"Cannot read '{written[:20]}' as an Amazons move: {HOW}.")
    parts = found.groups()
    origin, destination, arrow = (square_named(parts[i], parts[i + 1]) for i in (0, 2, 4))
    return origin, destination, arrow


def square_named(letter: str, digits: str) -> int:
    name = f"{letter.upper()}{int(digits)}"
    sq = BY_NAME.get(name)
    if sq is None:
        raise IllegalMove(
            f"There is no square {letter.upper()}{digits}: the board has columns A to J and"
            " rows 1 to 10.")
    return sq
