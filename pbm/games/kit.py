"""The pieces every board picture is built from: cells, discs, captions, the frame.

Mail clients differ: Gmail drops inline SVG and <style> blocks in some views, Outlook
ignores much of CSS. Plain tables, inline styles, border-radius and Unicode glyphs from
common fonts are what renders nearly everywhere, so pictures are made of those alone.
"""

from __future__ import annotations

from collections.abc import Iterable
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
    """Inline style text from keyword arguments: css(border_radius="50%") -> 'border-radius:50%'.
    A number is taken as pixels."""
    return ";".join(f"{name.replace('_', '-')}:{value}px" if isinstance(value, int)
                    else f"{name.replace('_', '-')}:{value}" for name, value in props.items())


def cell(name: str, inner: str = "", style: str = "") -> str:
    """A table cell of the board named `name` (as in move notation): data-cell lets tests and
    tools find it, title shows the name when a pointer rests on it."""
    name = escape(name)
    return f'<td data-cell="{name}" title="{name}" style="{style}">{inner}</td>'


def disc(size: int, fill: str, *, ring: str | None = None, label: str = "",
         label_colour: str = TEXT) -> str:
    """A round piece `size` pixels across, optionally with a coloured ring and a short label."""
    border = f"2px solid {ring}" if ring else f"1px solid {OUTLINE}"
    style = css(display="inline-block", width=size, height=size, border_radius="50%",
                background=fill, border=border, box_sizing="border-box", color=label_colour,
                font_size=max(9, size // 2), line_height=f"{size - 4}px", text_align="center",
                vertical_align="middle", font_weight="bold")
    return f'<span style="{style};{FONT}">{escape(label)}</span>'


def caption(lines: Iterable[str]) -> str:
    """Text under or over a picture (whose turn, a legend): escaped, one line each."""
    body = "<br>".join(escape(line) for line in lines)
    return f'<div style="{css(font_size=13, color=TEXT, margin="6px 0")};{FONT}">{body}</div>'


def table(rows: Iterable[str], style: str = "") -> str:
    """A table of `rows` (each '<tr>...</tr>' text) with no gaps between cells."""
    base = css(border_collapse="collapse", border_spacing=0, margin="0 auto")
    return f'<table role="presentation" style="{base};{style}">{"".join(rows)}</table>'


def frame(inner: str) -> str:
    """The whole picture: never wider than a phone, centred, with the board's colours."""
    style = css(max_width=PICTURE_WIDTH, margin="0 auto", padding="8px 0", color=TEXT)
    return f'<div style="{style};{FONT}">{inner}</div>'


# ----- added for Loophole, Trou and Synapse-Ice ---------------------------------------------
RED = "#c0392b"  # Red's pieces (Trou, Synapse-Ice)
GREEN = "#2e8b3a"  # Green's pieces (Synapse-Ice)
# The last move's cell, where a red ring would be lost on a red piece.
LAST_BACKGROUND = "#f7dc6f"


def label(text: str, width: int, height: int, align: str = "center", size: int = 9) -> str:
    """A cell of the frame round a board (a column letter, a row number): not a board cell."""
    style = css(width=width, height=height, padding=0, font_size=size, color=EDGE,
                text_align=align, line_height=f"{height}px")
    return f'<td style="{style};{FONT}">{escape(text)}</td>'


def spacer(width: int, height: int = 1, background: str = "transparent") -> str:
    """An empty table cell that only takes room (a shift, a gap, a strip of colour)."""
    style = css(width=width, min_width=width, height=height, padding=0, background=background,
                font_size=0, line_height=0)
    return f'<td style="{style}"></td>'


def row(cells: Iterable[str]) -> str:
    """A table row of `cells` (each '<td>...</td>' text), ending its line of the HTML.

    One row a line keeps a mail's lines short and a picture's diffs readable; a line break
    between rows draws nothing.
    """
    return f"<tr>{''.join(cells)}</tr>\n"

# ----- shared by the pictures of Pipeline and Outguess ------------------------------------
LAST_TINT = "#f6cbbd"  # the background of squares the last move left or reached
MINE = "#2a6fdb"  # what only this viewer is shown (their own secret): a dashed outline


def grid(cells: Iterable[Iterable[str]], columns: Iterable[str], rows: Iterable[str],
         size: int, style: str = "") -> str:
    """A board of cell() texts, one list per row, with the column names above it and the row
    names on its left; `size` is a cell's width and height in pixels."""
    edge = 14
    head = ("<tr>" + label("", edge, edge, size=11)
            + "".join(label(c, size, edge, size=11) for c in columns))
    body = ["<tr>" + label(name, edge, size, size=11) + "".join(row) + "</tr>"
            for name, row in zip(rows, cells)]
    return table([head + "</tr>", *body], style)


def legend(entries: Iterable[tuple[str, str]]) -> str:
    """A line of marks with their meaning, e.g. (disc(12, BLUE), 'blue pawn'), that wraps
    on a narrow screen between entries, never inside one."""
    style = css(display="inline-block", margin="2px 8px 2px 0", white_space="nowrap")
    items = "".join(f'<span style="{style}">{mark + "&nbsp;" if mark else ""}{escape(meaning)}'
                    "</span>" for mark, meaning in entries)
    return f'<div style="{css(font_size=12, color=TEXT, margin="4px 0")};{FONT}">{items}</div>'
