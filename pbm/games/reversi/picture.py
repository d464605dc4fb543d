"""Reversi drawn for mails: the 8x8 board of discs, the last disc ringed, the discs it turned
over on tinted squares, and render()'s lines under it."""

from __future__ import annotations

from pbm.games.base import Viewer
from pbm.games.kit import (
    BOARD,
    DARK,
    EDGE,
    GRID,
    LAST_TINT,
    LIGHT,
    OUTLINED,
    RINGED,
    Sheet,
    caption,
    cell,
    classes,
    css,
    disc,
    frame,
    grid,
)
from pbm.games.reversi.board import COLUMNS, SIZE, name, square
from pbm.games.reversi.state import ReversiState
from pbm.games.reversi.words import status

SQUARE = 38  # eight of them and the row names fit a phone's 360 pixels
DISC = 30
FILL = (DARK, LIGHT)  # Black's discs, White's


def draw(state: ReversiState, viewer: Viewer) -> str:
    """The board and what render() says under it, of the picture's marks; every viewer
    sees the same."""
    rows = []
    for row in range(SIZE):
        rows.append([_square(state, square(col, row)) for col in range(SIZE)])
    board = grid(_BOARD, rows, COLUMNS, [str(row + 1) for row in range(SIZE)])
    return frame(board + caption(status(state, drawn=True)))


SHEET = Sheet("r")
_BOARD = SHEET.grid("g", SQUARE, css(border=f"2px solid {EDGE}"))
_SQUARE = SHEET.rule("q", css(width=SQUARE, height=SQUARE, padding=0, text_align="center",
                              vertical_align="middle", background=BOARD,
                              border=f"1px solid {GRID}", box_sizing="border-box"))
_TURNED = SHEET.rule("t", css(background=LAST_TINT))  # over _SQUARE: turned by the last move
_DISCS = [SHEET.disc(colour, DISC, fill) for colour, fill in zip(("k", "w"), FILL)]


def _square(state: ReversiState, sq: int) -> str:
    holder = state.at(sq)
    turned = bool(state.turned >> sq & 1)
    look = classes(_SQUARE, _TURNED if turned else None)
    if holder is None:
        return cell(name(sq), "", look)
    border = RINGED if sq == state.last else OUTLINED
    return cell(name(sq), disc(classes(_DISCS[holder], border)), look)
