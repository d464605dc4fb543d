"""Help pages shipped as package data: one text file per game plus the general pages."""

from __future__ import annotations

from importlib.resources import files


class NoSuchPage(LookupError):
    """No help page has that name."""


def load_page(name: str) -> str:
    """The text of help page `name` (e.g. 'trou', 'commands', 'general')."""
    resource = files("pbm.help") / f"{name}.txt"
    if not resource.is_file():
        raise NoSuchPage(name)
    return resource.read_text(encoding="utf-8")


def page_names() -> list[str]:
    """Names of every help page shipped."""
    return sorted(
        entry.name[: -len(".txt")]
        for entry in files("pbm.help").iterdir()
        if entry.name.endswith(".txt")
    )
