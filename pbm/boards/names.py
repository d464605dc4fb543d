"""Board names as players write them: 101, or a101 for a board of a tournament.

A name is a tournament's letters (1 to 4 ASCII letters, any case: pbmserv's `a101`), or
none, then the board's number (ASCII digits). The one place that says so: commands, the
mail's Subjects and the operator's tools all read names here, so no two of them disagree
on what `A0101` names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_PREFIX = 4  # Board.prefix is a String(4)
MAX_DIGITS = 9  # past what the database stores, a number names no board
# Letters and digits only, and the letters first: `101a` and `a1b` are no names. Digits
# run unbounded here so that a 100 KB number is "no such board", as it always was, not
# "not a name"; the callers quote what they echo through context.shorten.
NAME = re.compile(rf"([A-Za-z]{{0,{MAX_PREFIX}}})([0-9]+)")
# A name inside a text we wrote (a Subject): bounded, so that it can be searched for.
IN_TEXT = rf"[A-Za-z]{{0,{MAX_PREFIX}}}[0-9]{{1,{MAX_DIGITS}}}"


@dataclass(frozen=True)
class BoardName:
    """A parsed name: the prefix lowered (prefixes are stored in lower case), the number
    as written without its leading zeros, and how to quote it back (its letters as the
    player wrote them)."""

    prefix: str
    digits: str
    written: str

    @property
    def storable(self) -> bool:
        """Whether the number fits the database: a longer one names no board."""
        return len(self.digits) <= MAX_DIGITS

    @property
    def number(self) -> int:
        return int(self.digits)

    @property
    def label(self) -> str:
        """As Board.label writes it: the name any board mail uses."""
        return f"{self.prefix}{self.digits}"


def parse(text: str) -> BoardName | None:
    """The board name `text` is written as (a leading '#' or two allowed, as in `#101`);
    None if it is none."""
    found = NAME.fullmatch(text.lstrip("#"))
    if found is None:
        return None
    letters, digits = found.group(1), found.group(2).lstrip("0") or "0"
    return BoardName(letters.lower(), digits, letters + digits)


def is_name(text: str) -> bool:
    return parse(text) is not None
