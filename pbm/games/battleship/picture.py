"""Battleship drawn for mails: the oceans the viewer may see, pegs on them, the last shot.

Everything comes from what render() shows the same viewer (view.oceans, view.status_lines):
the viewer's own ships, every shot with its hit or miss, and the opponent's ships only once
the game is over. As on the board game's plastic units, the ocean one shoots at is drawn
above the viewer's own; a red cell is a hit, a white one a miss. Each ocean is a grid named
by its owner (kit.grid's data-board), so its cells are "Blue:A1" and so on.
"""

from __future__ import annotations

from html import escape

from pbm.games.base import Viewer
from pbm.games.battleship.fleet import FLEET, GRID, SIZE
from pbm.games.battleship.state import SEATS, BattleshipState
from pbm.games.battleship.view import Ocean, oceans, status_lines
from pbm.games.kit import (
    EDGE,
    LAST_BACKGROUND,
    LIGHT,
    RED,
    Sheet,
    caption,
    classes,
    css,
    frame,
    grid,
    legend,
    look_of,
    spot,
)

SQUARE = 26  # a cell of an ocean, in pixels: ten and the row names fit a phone
WATER = "#9cc3e6"
WATER_LINE = "#6d9bc3"
HULL = "#7d8590"  # a ship's cells
SPLASH = "#eef3f7"  # a miss: a white peg in the water

# A late game's two oceans hold some two hundred shots: every cell's markup counts (the
# whole mail has 16 KB). So open water is a bare <td> on the ocean's own background (its
# size comes from its column's letter and its row's number), and a cell shot at or holding
# a ship is one class: a hit red, a miss white, a ship grey with its letter.
SHEET = Sheet("w")
_GRID = SHEET.grid("g", SQUARE, css(border=f"2px solid {EDGE}", background=WATER))
# A legend's swatch: water, unless a colour's class comes after it (declared before them).
_SWATCH = SHEET.rule("w", css(display="inline-block", width=12, height=12,
                              border=f"1px solid {WATER_LINE}", vertical_align="middle",
                              background=WATER))
_HULL = SHEET.rule("h", css(background=HULL, color=LIGHT, font_size=11, font_weight="bold",
                            text_align="center", padding=0))
_HIT = SHEET.rule("x", css(background=RED))
_MISS = SHEET.rule("o", css(background=SPLASH))
# Over any of them: the last shot's cell, ringed in yellow (seen on red, white and water).
_LAST = SHEET.rule("l", css(border=f"3px solid {LAST_BACKGROUND}"))
_BOX = SHEET.rule("b", css(margin="0 0 8px", text_align="center"))
_TITLE = SHEET.rule("t", css(font_size=12, font_weight="bold", margin="0 0 2px"))


def draw(state: BattleshipState, viewer: Viewer) -> str:
    """The whole picture for `viewer`: the ocean shot at first, then the viewer's own."""
    drawn = oceans(state, viewer)
    if viewer in (0, 1):
        drawn.reverse()  # the target above, the viewer's fleet below
    parts = [_ocean(ocean) for ocean in drawn]
    if drawn:
        parts.append(_LEGEND)
    # Unwrapped: the caption's lines wrap to the phone's width themselves.
    parts.append(caption(line for line in status_lines(state, viewer, width=None) if line))
    return frame("\n".join(parts))


def _ocean(ocean: Ocean) -> str:
    rows = []
    for row in range(SIZE):
        rows.append([_cell(ocean, row * SIZE + col) for col in range(SIZE)])
    board = grid(_GRID, rows, GRID.letters, [str(row + 1) for row in range(SIZE)],
                 SEATS[ocean.owner])
    return f"<div{look_of(_BOX)}><div{look_of(_TITLE)}>{escape(ocean.title)}</div>\n{board}</div>"


def _cell(ocean: Ocean, cell: int) -> str:
    ship = ocean.fleet.ship_at(cell) if ocean.fleet is not None else None
    last = _LAST if cell == ocean.last else None
    if cell in ocean.hits:
        return spot("", classes(_HIT, last))
    if cell in ocean.shots:
        return spot("", classes(_MISS, last))
    if ship is not None:
        return spot(FLEET[ship].letter, _HULL)
    return spot("", "")


def _swatch(*looks: str) -> str:
    return f'<span{look_of(classes(_SWATCH, *looks))}></span>'


_LEGEND = legend([
    (_swatch(), "water"),
    (_swatch(_HULL), "ship"),
    (_swatch(_HIT), "hit"),
    (_swatch(_MISS), "miss"),
    (_swatch(_LAST), "the last shot"),
    ("", ", ".join(f"{ship.letter} {ship.name}" for ship in FLEET)),
])
