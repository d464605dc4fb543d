"""Amazons drawn for mails: the 10x10 board, White's and Black's amazons as discs, arrows as
burnt squares, the last move marked, and the status lines render() prints under the board.

Amazons hides nothing: every viewer sees the same picture.
"""

from __future__ import annotations

from pbm.games.amazons.board import ARROW, FILES, NAME, SIZE, square
from pbm.games.amazons.state import SEATS, AmazonsState
from pbm.games.amazons.view import notation_of, status_lines
from pbm.games.base import Viewer
from pbm.games.kit import (
    BOARD,
    DARK,
    EDGE,
    LAST,
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
    legend,
    look_of,
)

SQUARE = 30  # ten of them and the labels fit a phone (PICTURE_WIDTH)
AMAZON = 24
MARK = 14  # an amazon or an arrow in the legend
SHADE = "#dcb877"  # every other square, so lines are easy to follow
BURNT = "#5a4020"  # a square an arrow has landed on: out of the game for good
FILL = (LIGHT, DARK)  # White's amazons, Black's


def draw(state: AmazonsState, viewer: Viewer) -> str:
    """The board, its legend and the lines under it; the same for every viewer."""
    words = [*_last_words(state), *status_lines(state, marks=False)]
    return frame(_board(state) + _legend() + caption(words))


SHEET = Sheet("a")
_BOARD = SHEET.grid("b", SQUARE, css(border=f"2px solid {EDGE}"))
_SQUARE = SHEET.rule("q", css(width=SQUARE, height=SQUARE, padding=0, text_align="center",
                              vertical_align="middle", background=BOARD,
                              border=f"1px solid {BOARD}", box_sizing="border-box"))
# Over _SQUARE, in this order: the shade of every other square, the tint of the square the
# last move's amazon left, the burnt square of an arrow, the ring round the last arrow.
_SHADED = SHEET.rule("s", css(background=SHADE))
_LEFT = SHEET.rule("t", css(background=LAST_TINT))
_BURNT = SHEET.rule("x", css(background=BURNT, border=f"1px solid {BURNT}"))
_LAST_ARROW = SHEET.rule("l", css(border=f"2px solid {LAST}"))
# An amazon's disc by size and seat; an arrow's square in the legend.
_AMAZONS = {size: [SHEET.disc(f"{name}{size}", size, fill)
                   for name, fill in zip(("w", "k"), FILL, strict=True)]
            for size in (AMAZON, MARK)}
_ARROW_MARK = SHEET.rule("m", css(display="inline-block", width=MARK, height=MARK,
                                  background=BURNT, vertical_align="middle"))


def _board(state: AmazonsState) -> str:
    last = state.last
    rows = []
    for rank in range(SIZE, 0, -1):
        cells = []
        for file in range(SIZE):
            sq = square(file, rank)
            shade = _SHADED if (file + rank) % 2 else None  # A1 dark, as in chess
            inner = ""
            if state.board[sq] == ARROW:
                ringed = last is not None and sq == last.arrow
                look = classes(_SQUARE, _BURNT, _LAST_ARROW if ringed else None)
            else:
                left = last is not None and sq == last.origin
                look = classes(_SQUARE, _LEFT if left else shade)
                for seat, squares in enumerate(state.amazons):
                    if sq in squares:
                        moved = last is not None and sq == last.destination
                        inner = _amazon(seat, AMAZON, moved)
            cells.append(cell(NAME[sq], inner, look))
        rows.append(cells)
    return grid(_BOARD, rows, FILES, [str(rank) for rank in range(SIZE, 0, -1)])


def _amazon(seat: int, size: int, ringed: bool = False) -> str:
    return disc(classes(_AMAZONS[size][seat], RINGED if ringed else OUTLINED))


def _legend() -> str:
    return legend([
        (_amazon(0, MARK), f"{SEATS[0]} amazon"),
        (_amazon(1, MARK), f"{SEATS[1]} amazon"),
        (f"<span{look_of(_ARROW_MARK)}></span>", "arrow"),
    ])


def _last_words(state: AmazonsState) -> list[str]:
    last = state.last
    if last is None:
        return []
    mover = SEATS[1 - state.turn]
    where = ("it shot its arrow back where it was" if last.arrow == last.origin
             else "the square it left is tinted")
    return [f"Last move: {mover} {notation_of(*last)}; the amazon and its arrow are ringed"
            f" in red, {where}."]
