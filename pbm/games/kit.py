"""The pieces every board picture is built from: cells, discs, captions, the frame, and the
style sheet that gives them their looks.

Mail clients differ: Gmail drops inline SVG, Outlook ignores much of CSS. Plain tables,
border-radius and Unicode glyphs from common fonts are what renders nearly everywhere, so
pictures are made of those alone. Their looks are class rules in a <style> block at the
head of the mail (Gmail, Apple Mail, Outlook, Thunderbird and K-9 read one), each written
once: inline, the same style on each of Loophole's 343 cells made a board mail 75 KB.

A picture module declares every rule it uses once, at import, in its own Sheet (a class
name is the sheet's prefix and a short name), so that a rule's name never depends on what
was drawn before: the same position gives the same bytes in every process.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape

from pbm.games.base import PICTURE_WIDTH

# One palette, so that every game's picture looks part of one server.
BOARD = "#e9c98b"  # the wood of the board
GRID = "#a0793f"  # cell borders
EDGE = "#7a5a2b"  # the board's edge and labels
DARK = "#1d1d1d"  # black stones and pieces
LIGHT = "#fbfbf5"  # white stones and pieces
OUTLINE = "#555555"  # drawn round light pieces so they show on a light board
LAST = "#d0312d"  # the ring round whatever the last move changed
TEXT = "#222222"
FONT = "font-family:Verdana,Arial,sans-serif"


def css(**props: str | int) -> str:
    """Style text from keyword arguments: css(border_radius="50%") -> 'border-radius:50%'.
    A number is taken as pixels (0 needs no unit)."""
    return ";".join(f"{name.replace('_', '-')}:{_length(value)}" for name, value in props.items())


def _length(value: str | int) -> str:
    return value if isinstance(value, str) else f"{value}px" if value else "0"


# ----- the style sheet -----------------------------------------------------------------------
_NAME = re.compile(r"[a-z][a-z0-9]*\Z")
_SHEETS: dict[str, Sheet] = {}  # prefix -> its sheet: a class name is never given twice


class Sheet:
    """The class rules of one picture module (or of this kit), written in the <style> block
    of every mail that carries its picture. Rules are declared at import and keep their
    order: a rule that modifies another (a background over a square's) comes after it."""

    def __init__(self, prefix: str) -> None:
        if not _NAME.match(prefix) or any(p.startswith(prefix) or prefix.startswith(p)
                                          for p in _SHEETS):
            raise ValueError(f"sheet prefix {prefix!r} is not a new lower-case name")
        _SHEETS[prefix] = self
        self.prefix = prefix
        self.rules: dict[str, str] = {}  # class name -> its declarations
        self._css: str | None = None

    def rule(self, name: str, style: str) -> str:
        """Declare class `prefix + name` with `style` (css() text); its class name."""
        full = self.prefix + name
        if not _NAME.match(full) or full in self.rules:
            raise ValueError(f"class {full!r} is not a new lower-case name")
        self.rules[full] = style
        self._css = None
        return full

    def disc(self, name: str, size: int, fill: str, label_colour: str = TEXT) -> str:
        """A round piece `size` pixels across (kit.disc draws one): give it a border
        class too, OUTLINED or RINGED."""
        return self.rule(name, css(
            display="inline-block", width=size, height=size, border_radius="50%",
            background=fill, box_sizing="border-box", color=label_colour,
            font_size=max(9, size // 2), line_height=f"{size - 4}px", text_align="center",
            vertical_align="middle", font_weight="bold"))

    def label(self, name: str, width: int, height: int, align: str = "center",
              size: int = 9) -> str:
        """A cell of the frame round a board (a column letter, a row number)."""
        return self.rule(name, css(width=width, height=height, padding=0, font_size=size,
                                   color=EDGE, text_align=align,
                                   line_height=f"{height}px"))

    def spacer(self, name: str, width: int, height: int = 1,
               background: str = "transparent") -> str:
        """An empty cell that only takes room (a shift, a gap, a strip of colour)."""
        return self.rule(name, css(width=width, min_width=width, height=height, padding=0,
                                   background=background, font_size=0, line_height=0))

    def grid(self, name: str, size: int, style: str = "") -> Grid:
        """The classes of a board of `size`-pixel cells with its names round it (kit.grid):
        rules `name` (the table: `style`), `name`+"c" (a column's letter), `name`+"r"."""
        return Grid(self.rule(name, style), self.label(name + "c", size, _EDGE, size=11),
                    self.label(name + "r", _EDGE, size, size=11))

    def css(self) -> str:
        """The kit's rules and then this sheet's, one a line, as a <style> block holds them."""
        if self._css is None:
            own = "".join(f".{name}{{{style}}}\n" for name, style in self.rules.items())
            self._css = own if self is KIT else KIT.css() + own
        return self._css


def rules() -> dict[str, str]:
    """Every class of every sheet declared so far and its declarations (for tests and tools
    that read a picture's looks, such as the tests' inline())."""
    return {name: style for sheet in _SHEETS.values() for name, style in sheet.rules.items()}


@dataclass(frozen=True)
class Grid:
    """The classes of a board drawn by grid(): the table's, a column label's, a row label's."""

    table: str
    column: str
    row: str


KIT = Sheet("k")
# The frame sets the font; everything in it inherits it (a rule's bytes count in every mail).
_EDGE = 14  # the strip of names round a grid()
_FRAME = KIT.rule("f", css(max_width=PICTURE_WIDTH, margin="0 auto", padding="8px 0",
                           color=TEXT) + f";{FONT}")
_CAPTION = KIT.rule("c", css(font_size=13, color=TEXT, margin="6px 0"))
_TABLE = KIT.rule("t", css(border_collapse="collapse", border_spacing=0, margin="0 auto"))
_LEGEND = KIT.rule("l", css(font_size=12, color=TEXT, margin="4px 0"))
_ENTRY = KIT.rule("e", css(display="inline-block", margin="2px 8px 2px 0",
                           white_space="nowrap"))
_CORNER = KIT.label("g", _EDGE, _EDGE, size=11)
OUTLINED = KIT.rule("o", f"border:1px solid {OUTLINE}")  # a disc's border
RINGED = KIT.rule("r", f"border:2px solid {LAST}")  # a disc the last move changed
BARE = KIT.rule("z", "padding:0")  # a cell that holds a table, with no room round it


def classes(*names: str | None) -> str:
    """A class attribute's value from the names given (None and '' left out)."""
    return " ".join(name for name in names if name)


# How the kit writes markup, where every byte counts on a board of cells: a class of one
# word needs no quotes, and a cell followed by another cell (or the end of its row) no end
# tag. HTML allows both, and every parser (browsers', mail clients') knows them.
def look_of(names: str) -> str:
    """The class attribute ` class=names`, quoted only where it names several."""
    if not names:
        return ""
    return f" class={names}" if _WORD.match(names) else f' class="{names}"'


_WORD = re.compile(r"[a-z][a-z0-9]*\Z")


def cell(name: str, inner: str = "", look: str = "") -> str:
    """A table cell of the board named `name` (as in move notation), of class `look`:
    data-cell lets tests and tools find it. It ends where the next cell or its row does."""
    return f'<td data-cell="{escape(name)}"{look_of(look)}>{inner}'


def spot(inner: str, look: str) -> str:
    """A cell of a grid(..., board=NAME) of class `look`, without a name of its own: a tool
    finds it by its place, under its column's letter and beside its row's name."""
    return f"<td{look_of(look)}>{inner}"


def disc(look: str, label: str = "") -> str:
    """A round piece of class `look` (Sheet.disc and a border: OUTLINED or RINGED),
    optionally with a short label."""
    return f"<span{look_of(look)}>{escape(label)}</span>"


def caption(lines: Iterable[str]) -> str:
    """Text under or over a picture (whose turn, a legend): escaped, one line each."""
    body = "<br>".join(escape(line) for line in lines)
    return f"<div{look_of(_CAPTION)}>{body}</div>"


def table(rows: Iterable[str], look: str = "", board: str | None = None) -> str:
    """A table of `rows` (each '<tr>...</tr>' text) with no gaps between cells; `look`
    adds a class whose rules come after the kit's (a margin, a border). A board of spot()s
    names itself: data-board."""
    named = "" if board is None else f' data-board="{escape(board)}"'
    return (f'<table role="presentation"{look_of(classes(_TABLE, look))}{named}>'
            f'{"".join(rows)}</table>')


def frame(inner: str) -> str:
    """The whole picture: never wider than a phone, centred, with the board's colours."""
    return f"<div{look_of(_FRAME)}>{inner}</div>"


# ----- added for Loophole, Trou and Synapse-Ice ---------------------------------------------
RED = "#c0392b"  # Red's pieces (Trou, Synapse-Ice)
GREEN = "#2e8b3a"  # Green's pieces (Synapse-Ice)
# The last move's cell, where a red ring would be lost on a red piece.
LAST_BACKGROUND = "#f7dc6f"


def label(text: str, look: str) -> str:
    """A cell of the frame round a board of class `look` (Sheet.label): not a board cell."""
    return f"<td{look_of(look)}>{escape(text)}"


def spacer(look: str) -> str:
    """An empty table cell of class `look` (Sheet.spacer) that only takes room."""
    return f"<td{look_of(look)}>"


def row(cells: Iterable[str]) -> str:
    """A table row of `cells` (each '<td>...</td>' text), ending its line of the HTML.

    One row a line keeps a mail's lines short (a mail's line may not pass 998 bytes) and
    a picture's diffs readable; a line break between rows draws nothing.
    """
    return f"<tr>{''.join(cells)}</tr>\n"

# ----- shared by the pictures of Pipeline and Outguess ------------------------------------
LAST_TINT = "#f6cbbd"  # the background of squares the last move left or reached
MINE = "#2a6fdb"  # what only this viewer is shown (their own secret): a dashed outline


def grid(look: Grid, cells: Iterable[Iterable[str]], columns: Iterable[str],
         rows: Iterable[str], board: str | None = None) -> str:
    """A board of cell() texts, one list per row, with the column names above it and the row
    names on its left, in the classes of `look` (Sheet.grid). A `board` of spot()s is named:
    its cell under column C beside row R is "board:CR", or "CR" on the board "" (Pipeline's
    boards: their cells' names would be a KB of a mail)."""
    head = row([spacer(_CORNER), *(label(c, look.column) for c in columns)])
    body = [row([label(name, look.row), *line]) for name, line in zip(rows, cells)]
    return table([head, *body], look.table, board)


def legend(entries: Iterable[tuple[str, str]]) -> str:
    """A line of marks with their meaning, e.g. (disc(...), 'blue pawn'), that wraps
    on a narrow screen between entries, never inside one."""
    items = "".join(f'<span{look_of(_ENTRY)}>{mark + "&nbsp;" if mark else ""}'
                    f"{escape(meaning)}</span>" for mark, meaning in entries)
    return f"<div{look_of(_LEGEND)}>{items}</div>"
