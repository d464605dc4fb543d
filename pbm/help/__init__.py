"""Help pages shipped as package data: one text file per game plus the general pages."""

from __future__ import annotations

from functools import cache
from importlib.resources import files


class NoSuchPage(LookupError):
    """No help page has that name."""


@cache
def page_names() -> frozenset[str]:
    """Names of every help page shipped (read once: the set is fixed at install)."""
    return frozenset(
        entry.name[: -len(".txt")]
        for entry in files("pbm.help").iterdir()
        if entry.name.endswith(".txt")
    )


def load_page(name: str) -> str:
    """The text of help page `name` (e.g. 'trou', 'general').

    The name is looked up among the pages shipped, never joined into a path: it may come
    from a mail, and `../../etc/x` or a 100 KB word must select nothing."""
    if name not in page_names():
        raise NoSuchPage(name)
    return (files("pbm.help") / f"{name}.txt").read_text(encoding="utf-8")
