"""What tests of board pictures share: reading a picture's cells, checking it is safe in mail,
and the page a browser test wraps it in."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
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


# Elements whose end tag HTML lets go (the kit writes cells so): closed by the next of their
# kind or by the end of what holds them, as every HTML parser does.
IMPLIED = {"td": {"td", "tr"}, "tr": {"tr"}}  # tag -> the start tags that close it
HOLDERS = {"td": ("tr", "table"), "tr": ("table",)}  # tag -> the end tags that close it
VOID = {"br", "hr", "wbr", "meta", "img", "input"}
_TAGS = re.compile(r"<[^>]*>")


@dataclass
class _Board:
    """A grid with a data-board being read: its column letters (the corner's '' first)."""

    name: str
    depth: int  # how many tables are open inside it and it
    row: int = -1
    column: int = -1
    columns: list[str] = field(default_factory=list)
    row_name: str = ""
    cell_start: int = 0


class _Closer(HTMLParser):
    """Writes HTML back with every end tag HTML implies, and names the spots of a grid with
    a data-board by their place: the cell under column C beside row R is "board:CR"."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.out: list[str] = []
        self.open: list[str] = []
        self.boards: list[_Board] = []

    def _board(self) -> _Board | None:
        """The grid whose own rows and cells are being read, if any."""
        board = self.boards[-1] if self.boards else None
        return board if board and self.open.count("table") == board.depth else None

    def _close(self, tag: str) -> None:
        self.out.append(f"</{tag}>")
        board = self._board()
        if tag == "td" and board is not None:
            text = _TAGS.sub("", "".join(self.out[board.cell_start:]))
            if board.row == 0:
                board.columns.append(text)
            elif board.column == 0:
                board.row_name = text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        while self.open and tag in IMPLIED.get(self.open[-1], ()):
            self._close(self.open.pop())
        text = self.get_starttag_text() or f"<{tag}>"
        board = self._board()
        if board is not None and tag == "tr":
            board.row, board.column = board.row + 1, -1
        elif board is not None and tag == "td":
            board.column += 1
            if board.row > 0 and board.column > 0:
                name = f"{board.columns[board.column]}{board.row_name}"
                name = f"{board.name}:{name}" if board.name else name
                text = f'<td data-cell="{name}"' + text[3:]
            board.cell_start = len(self.out) + 1
        self.out.append(text)
        if tag not in VOID:
            self.open.append(tag)
        named = dict(attrs).get("data-board")
        if tag == "table" and named is not None:
            self.boards.append(_Board(named, self.open.count("table")))

    def handle_endtag(self, tag: str) -> None:
        while self.open and tag in HOLDERS.get(self.open[-1], ()):
            self._close(self.open.pop())
        if self.open and self.open[-1] == tag:
            self.open.pop()
        self._close(tag)
        if tag == "table" and self.boards and self.open.count("table") < self.boards[-1].depth:
            self.boards.pop()

    def handle_data(self, data: str) -> None:
        self.out.append(data)

    def handle_entityref(self, name: str) -> None:
        self.out.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.out.append(f"&#{name};")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.append(self.get_starttag_text() or f"<{tag}/>")

    def handle_decl(self, decl: str) -> None:
        self.out.append(f"<!{decl}>")

    def handle_comment(self, data: str) -> None:
        self.out.append(f"<!--{data}-->")


def closed(html: str) -> str:
    """`html` as a reader's parser sees it, written out: every end tag HTML implies (the
    kit's cells leave theirs out) in place, and each spot of a grid with a data-board named
    by its place (kit.grid), as a data-cell."""
    closer = _Closer()
    closer.feed(html)
    closer.close()
    return "".join(closer.out)


_CLASS = re.compile(r' class=(?:"([^"]*)"|([a-z][a-z0-9]*)\b)')  # quoted, or one word


def looks(html: str) -> str:
    """`html` closed() and with each element's classes written out as its inline style (the
    rules of games/kit.py's sheets, in their order), so a test can read what colour a cell
    is."""
    from pbm.games.kit import rules

    known = rules()

    def inline(found: re.Match[str]) -> str:
        names = (found.group(1) or found.group(2)).split()
        missing = [name for name in names if name not in known]
        assert not missing, f"classes no sheet declares: {missing}"
        return ' style="' + ";".join(known[name] for name in names) + '"'

    return _CLASS.sub(inline, closed(html))


def has_classes(html: str) -> bool:
    """Whether an element of `html` names a class (quoted or not)."""
    return _CLASS.search(html) is not None


def without_classes(html: str) -> str:
    """`html` with its class attributes renamed data-class: its rules no longer apply."""
    return _CLASS.sub(lambda found: f' data-class="{found.group(1) or found.group(2)}"', html)


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
