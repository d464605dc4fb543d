"""Pages of a long list: which page a query string asks for, and the links to the others."""

from __future__ import annotations

from dataclasses import dataclass

from pbm.web.lookup import BadRequest, NotFound


@dataclass(frozen=True)
class Pager:
    """Page `number` (1-based) of `total` items, `size` to a page."""

    number: int
    total: int
    size: int

    @property
    def offset(self) -> int:
        return (self.number - 1) * self.size

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.size))

    def link(self, path: str, key: str, number: int) -> str | None:
        """The address of page `number`, or None where there is none."""
        if not 1 <= number <= self.pages or number == self.number:
            return None
        return path if number == 1 else f"{path}?{key}={number}"


def page_number(text: str | None, key: str) -> int:
    """The page `?key=` asks for (1 when none)."""
    if text is None or text == "":
        return 1
    if not (text.isascii() and text.isdigit()) or len(text) > 6 or int(text) < 1:
        raise BadRequest(f"?{key}= takes a page number from 1, not {text[:20]!r}.")
    return int(text)


def pager(number: int, total: int, size: int, what: str) -> Pager:
    """The pager, refusing a page past the last (an empty list has its first page)."""
    found = Pager(number, total, size)
    if number > found.pages:
        raise NotFound(f"There are {found.pages} pages of {what}; page {number} is past "
                       "the last.")
    return found
