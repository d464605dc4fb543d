"""English for game messages: counted nouns ("2 pawns") and lists ("B7, C8 and D7")."""

from __future__ import annotations

from collections.abc import Iterable

# Small counts read better as words in prose ("two distinct loops"); zero reads as "no".
_NUMBER_WORDS = (
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
)  # fmt: skip


def plural(count: int, word: str, many: str | None = None) -> str:
    """'1 pawn', '0 pawns', '2 pawns'; `many` for a noun that does not just take an s."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def number_word(count: int) -> str:
    """'no', 'one', ... 'ten' for small counts; digits beyond."""
    return _NUMBER_WORDS[count] if 0 <= count < len(_NUMBER_WORDS) else str(count)


def and_list(items: Iterable[object]) -> str:
    """'A1', 'A1 and B2', 'A1, B2 and C3'; '' for no items."""
    return _series(items, "and")


def or_list(items: Iterable[object]) -> str:
    """'1', '1 or 3', '1, 2 or 4'; '' for no items."""
    return _series(items, "or")


def _series(items: Iterable[object], conjunction: str) -> str:
    # No comma before the conjunction, as everywhere in the help pages and messages.
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {conjunction} {words[-1]}"
