"""Lines of Action drawn for mails: the 8x8 board with both sides' pieces, the last move's two
squares tinted and its piece ringed, and render()'s own lines under it."""

from __future__ import annotations

from pbm.games.base import Viewer
from pbm.games.kit import (
    BOARD,
    DARK,
    EDGE,
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
from pbm.games.loa.board import FILES, SIZE, name
from pbm.games.loa.game import LoaState, status_lines
from pbm.games.loa.moves import Step

SQUARE = 38  # eight squares and the labels fit a phone's 360 pixels
PIECE = 30
SHADE = "#dcb877"  # every other square, so lines and diagonals are easy to follow
FILL = (DARK, LIGHT)  # Black's pieces, White's


def draw(state: LoaState, viewer: Viewer) -> str:
    """The board and its status; Lines of Action hides nothing, so every viewer sees one."""
    last = state.last if isinstance(state.last, Step) else None
    rows = []
    for rank in range(SIZE - 1, -1, -1):
        line = []
        for file in range(SIZE):
            square = rank * SIZE + file
            moved = last is not None and square in (last.origin, last.target)
            look = classes(_SQUARE, _SHADED if (rank + file) % 2 == 0 else None,
                           _TINTED if moved else None)
            seat = state.at(square)
            inner = "" if seat is None else disc(classes(
                _PIECES[seat], RINGED if last is not None and square == last.target
                else OUTLINED))
            line.append(cell(name(square), inner, look))
        rows.append(line)
    board = grid(_BOARD, rows, FILES, [str(rank + 1) for rank in range(SIZE - 1, -1, -1)])
    return frame(board + caption(status_lines(state, "its squares tinted, the piece ringed")))


SHEET = Sheet("n")
_BOARD = SHEET.grid("b", SQUARE, css(border=f"2px solid {EDGE}"))
_SQUARE = SHEET.rule("q", css(width=SQUARE, height=SQUARE, padding=0, text_align="center",
                              vertical_align="middle", background=BOARD,
                              box_sizing="border-box"))
# Over _SQUARE, in this order: every other square's shade, the last move's tint over it.
_SHADED = SHEET.rule("s", css(background=SHADE))
_TINTED = SHEET.rule("t", css(background=LAST_TINT))
_PIECES = [SHEET.disc(f"p{seat}", PIECE, fill) for seat, fill in enumerate(FILL)]
