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


_ROW_TABLE = re.compile(r'<table class=(\w+) data-row=(\d+)><tr>(.*?)</table>', re.S)
_ROW_CELL = re.compile(r'<td class=(\w+)(?: style="([^"]*)")?>([^<]*)')


def loophole_named(html: str) -> str:
    """Loophole's picture as a tool reads it: in the table whose data-row is N, the cells
    after the row's number and White's edge, and before its other edge, are columns A, B,
    ... of row N, and each (but the rules' windows) gets its data-cell name; the row is
    written out in full (quoted classes, closed cells), as the other pictures are."""
    from pbm.games.loophole.board import COLUMNS, SIZE, WINDOW_OF, cell_name

    def name_row(found: re.Match[str]) -> str:
        r = int(found.group(2)) - 1
        tds = _ROW_CELL.findall(found.group(3))
        assert _ROW_CELL.sub("", found.group(3)) == "", "a row of more than cells"
        assert len(tds) == 2 + SIZE + 1 and len(COLUMNS) == SIZE, "not a row"
        out = []
        for i, (look, style, text) in enumerate(tds):
            cell = r * SIZE + i - 2
            name = "" if not 0 <= i - 2 < SIZE or cell in WINDOW_OF else \
                f' data-cell="{cell_name(cell)}"'
            styled = f' style="{style}"' if style else ""
            out.append(f'<td{name} class="{look}"{styled}>{text}</td>')
        return (f'<table class="{found.group(1)}" data-row="{r + 1}"><tr>{"".join(out)}'
                "</tr></table>")

    return _ROW_TABLE.sub(name_row, html)


_CLASS = re.compile(r' class=(?:"([^"]*)"|([a-z][a-z0-9]*)\b)')  # quoted, or one word


def looks(html: str) -> str:
    """`html` with each element's classes written out as its inline style (the rules of
    games/kit.py's sheets, in their order), so a test can read what colour a cell is."""
    from pbm.games.kit import rules

    known = rules()

    def inline(found: re.Match[str]) -> str:
        names = (found.group(1) or found.group(2)).split()
        missing = [name for name in names if name not in known]
        assert not missing, f"classes no sheet declares: {missing}"
        return ' style="' + ";".join(known[name] for name in names) + '"'

    return _CLASS.sub(inline, html)


def used_rules(fragment: str) -> str:
    """The rules of the classes `fragment` uses, one a line, in their sheets' order, as a
    mail's <style> block has them."""
    from pbm.games.kit import rules

    used = {name for quoted, word in _CLASS.findall(fragment)
            for name in (quoted or word).split()}
    return "".join(f".{name}{{{rule}}}\n" for name, rule in rules().items() if name in used)


def page(fragment: str) -> str:
    """The smallest mail-like page around a picture, as a browser test loads it."""
    return ('<!DOCTYPE html><html><head><meta charset="utf-8">'
            f"<style>\n{used_rules(fragment)}</style>\n</head>"
            f'<body style="margin:8px;background:#ffffff">{fragment}</body></html>')


def assert_mail_safe(html: str) -> None:
    """No script, image, style sheet or address outside the mail; a fragment whose classes
    its sheets declare (the mail writes their rules in its head)."""
    found = UNSAFE.search(html)
    assert found is None, f"not safe in a mail: {found.group()!r}"
    assert "<html" not in html and "<body" not in html, "a fragment, not a page"
    looks(html)


EXTERNAL = re.compile(r"<script|<img|<link|<svg|<iframe|url\(|https?:|@import|\bon\w+=",
                      re.IGNORECASE)
SHEET_BLOCK = re.compile(r"<head>.*<style>\n(?P<rules>.*?)</style>\n</head>", re.S)
RULE_LINE = re.compile(r"\.[a-z][a-z0-9]*\{[^{}<>@]*\}")
MAX_LINE = 998


def assert_document_safe(html: str) -> None:
    """A whole mail document: nothing run, fetched or linked; one <style> block, in the
    head, of class rules alone (one a line); no line past MAX_LINE bytes as mailed (with
    character references for what is not ASCII)."""
    found = EXTERNAL.search(html)
    assert found is None, f"not safe in a mail: {found.group()!r}"
    assert html.lower().count("<style") == 1, "not one <style> block"
    sheet = SHEET_BLOCK.search(html)
    assert sheet is not None, "the <style> block is not the end of the document's head"
    for line in sheet.group("rules").splitlines():
        assert RULE_LINE.fullmatch(line), f"not a class rule: {line[:80]!r}"
    mailed = html.encode("ascii", "xmlcharrefreplace")
    longest = max(map(len, mailed.split(b"\n")))
    assert longest <= MAX_LINE, f"a line of {longest} bytes"


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
    """data-cell name -> that cell's HTML, its own tags included and its classes written
    out as inline styles (looks()); every tag must be closed in order."""
    return _Cells(looks(html)).cells
