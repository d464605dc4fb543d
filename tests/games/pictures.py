"""What tests of board pictures share: reading a picture's cells, checking it is safe in mail,
and the page a browser test wraps it in."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from pbm.games import registry
from pbm.games.base import AnyGame, Viewer

# Anything that would run, fetch or link outside the mail.
UNSAFE = re.compile(r"<script|<img|<link|<style|<svg|<iframe|url\(|https?:|@import|\bon\w+=",
                    re.IGNORECASE)


def drawn(game: AnyGame, state: Any, viewer: Viewer) -> str:
    """The game's picture of `state` for `viewer`, as a board mail asks the registry for it."""
    draw = registry.picture(game.info.name)
    assert draw is not None, f"{game.info.name} draws no picture"
    return draw(state, viewer)


def page(fragment: str) -> str:
    """The smallest mail-like page around a picture, as a browser test loads it."""
    return ('<!DOCTYPE html><html><head><meta charset="utf-8"></head>'
            f'<body style="margin:8px;background:#ffffff">{fragment}</body></html>')


def assert_mail_safe(html: str) -> None:
    """No script, image, style sheet or address outside the mail; inline styles only."""
    found = UNSAFE.search(html)
    assert found is None, f"not safe in a mail: {found.group()!r}"
    assert "<html" not in html and "<body" not in html, "a fragment, not a page"


class _Cells(HTMLParser):
    """Collects the whole HTML of every element that carries data-cell, its tags included."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=False)
        self.html = html
        self.cells: dict[str, str] = {}
        self._open: list[tuple[str | None, str, int]] = []  # (cell name, tag, start offset)
        self._lines = [0]
        for line in html.splitlines(keepends=True):
            self._lines.append(self._lines[-1] + len(line))
        self.feed(html)

    def _offset(self) -> int:
        line, column = self.getpos()
        return self._lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "meta"):
            return
        name = dict(attrs).get("data-cell")
        self._open.append((name, tag, self._offset()))

    def handle_endtag(self, tag: str) -> None:
        name, opened, start = self._open.pop()
        assert opened == tag, f"<{opened}> closed by </{tag}>"
        if name is not None:
            assert name not in self.cells, f"two cells named {name}"
            self.cells[name] = self.html[start:self._offset()] + f"</{tag}>"


def cells(html: str) -> dict[str, str]:
    """data-cell name -> that cell's HTML, its own tags included; every tag must be closed
    in order."""
    return _Cells(html).cells
