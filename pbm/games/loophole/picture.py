"""Loophole drawn as its hex rhombus: each row half a cell right of the row above, so that
the cells touching on the picture are exactly the cells the rules call neighbours."""

from __future__ import annotations

from pbm.games.base import Viewer
from pbm.games.kit import (
    BOARD,
    DARK,
    EDGE,
    LAST,
    LIGHT,
    OUTLINE,
    Sheet,
    caption,
    css,
    frame,
    look_of,
    row,
    spacer,
    table,
)
from pbm.games.loophole.board import (
    BLACK,
    COLUMNS,
    EMPTY,
    HOLE,
    SIZE,
    WHITE,
    cell_name,
    describe_loops,
)
from pbm.games.loophole.game import SEATS, LoopholeState

SPOT = 11  # a cell, drawn as a round spot of wood (or a stone) this many pixels across
GAP = 1  # between the spots of a row
PITCH = SPOT + GAP  # from one cell to the next in a row; the rows shift by half of it
SHIFT = PITCH // 2
NUMBER_WIDTH = 12  # the row numbers, left of each row
EDGE_WIDTH = 5  # the strips that mark each player's edges
ROW_WIDTH = SIZE * PITCH + GAP


def draw(state: LoopholeState, viewer: Viewer) -> str:
    """The board with its stones, windows, edges and labels, the last stone ringed.

    Its cells carry no data-cell: on 343 cells the names alone would double a lean mail.
    A cell is found by its place instead: the i-th cell of the table whose data-row is N
    is column COLUMNS[i] of row N (windows included, as cells of no class but lo).
    """
    # Loophole hides nothing: every viewer sees the same picture. Every board mail draws
    # one, so all that does not depend on the position was built once, below.
    cells, last = state.cells, state.last
    lines = [_TOP]
    for r, (before, after) in enumerate(_ROW_ENDS):
        spots = "".join(_CELL[cells[at]] if at != last else _LAST_CELL[cells[at]]
                        for at in range(r * SIZE, (r + 1) * SIZE))
        lines.append(before + spots + after)
    lines.append(_BOTTOM)
    board = table([row([f'<td{look_of(_HOLDER)}>{"".join(lines)}</td>'])])
    return frame(board + caption(_caption_lines(state)))


SHEET = Sheet("l")
_LINE = SHEET.rule("r", css(margin=0))  # a line of the picture, left-aligned
# What holds the lines: a cell's padding but on the right, where the widest row's table
# ends in the gap after its edge (without it, the page would squeeze that row).
_HOLDER = SHEET.rule("y", css(padding="1px 0 1px 1px"))
_LETTER = SHEET.label("a", PITCH, 12)
# A row's number ends where it did after the row's spacer: its cell ends a gap earlier.
_NUMBER = SHEET.rule("n", css(
    padding=0, font_size=9, color=EDGE, text_align="right", line_height=f"{SPOT}px",
    height=SPOT, position="relative", left=GAP))
_BEFORE_LETTERS = SHEET.spacer("m", NUMBER_WIDTH + EDGE_WIDTH + GAP)
_BEFORE_EDGE = SHEET.spacer("k", NUMBER_WIDTH + EDGE_WIDTH, EDGE_WIDTH)
_BLACK_EDGE = SHEET.spacer("s", ROW_WIDTH, EDGE_WIDTH, DARK)
_WHITE_EDGE = SHEET.rule("x", css(width=EDGE_WIDTH - 2, height=SPOT, padding=0,
                                  background=LIGHT, border_left=f"1px solid {OUTLINE}",
                                  border_right=f"1px solid {OUTLINE}"))
# The cells' own table keeps a gap between spots, so that round spots do not touch.
_SPOTS = SHEET.rule("g", css(margin=0, border_collapse="separate",
                             border_spacing=f"{GAP}px 0"))


def _size(inner: int) -> str:
    """A round cell `inner` pixels across inside its ring (the ring adds to it)."""
    return css(width=inner, height=inner, padding=0, border_radius="50%")


def _stone(fill: str, ring: str | None, width: int) -> str:
    style = f"{_size(SPOT - 2 * width)};{css(background=fill)}"
    return style + (f";border:{width}px solid {ring}" if ring else "")


# A cell is a round spot: wood when empty, else the stone; a window's cell is only the
# page showing through. Every byte of a cell counts 343 times, so the cell itself is the
# spot: no element inside it, and nothing on it but its class.
_LOOKS = {
    EMPTY: SHEET.rule("e", f"{_size(SPOT)};{css(background=BOARD)}"),
    BLACK: SHEET.rule("b", _stone(DARK, None, 0)),
    WHITE: SHEET.rule("w", _stone(LIGHT, OUTLINE, 1)),
    HOLE: SHEET.rule("o", _size(SPOT)),
}
_LAST_LOOKS = {
    BLACK: SHEET.rule("p", _stone(DARK, LAST, 2)),
    WHITE: SHEET.rule("q", _stone(LIGHT, LAST, 2)),
}


def _line(shift_of_row: int, cells: list[str]) -> str:
    """One line of the picture, shifted like board row `shift_of_row`, left-aligned (the
    shift is the one width a line has of its own, so it stays on the spacer)."""
    shift = [f'<td{look_of(_SHIFT)} style="{css(width=SHIFT * shift_of_row)};'
             f'{css(min_width=SHIFT * shift_of_row)}"></td>'] if shift_of_row else []
    return table([row(shift + cells)], _LINE)


_SHIFT = SHEET.rule("h", css(height=1, padding=0, background="transparent", font_size=0,
                             line_height=0))


def _letters(board_row: int) -> str:
    """Column letters over (or under) the board row they label."""
    letters = "".join(f"<td class={_LETTER}>{letter}" for letter in COLUMNS)  # as _CELL
    return _line(board_row, [spacer(_BEFORE_LETTERS) + letters])


def _black_edge(board_row: int) -> str:
    """Black's edge: a dark strip along the top (or bottom) row."""
    return _line(board_row, [spacer(_BEFORE_EDGE), spacer(_BLACK_EDGE)])


def _row_ends(r: int) -> tuple[str, str]:
    """What comes before and after the cells of board row `r`: its number and edges.

    One table a row, its cells GAP apart so that round spots do not touch. The row's shift
    is in the width of its number's cell, less the two gaps the table puts before and
    after it, so that each edge and spot stands where it would after a spacer. (A min-width,
    not a width: the widest row is not squeezed to fit the page.) Written as _CELL is:
    </table> ends the last cell and the row.
    """
    width = SHIFT * r + NUMBER_WIDTH - 2 * GAP
    edge = f"<td class={_WHITE_EDGE}>"
    before = (f"<table class={_SPOTS} data-row={r + 1}><tr>"
              f'<td class={_NUMBER} style="{css(min_width=width)}">{r + 1}{edge}')
    return before, f"{edge}</table>\n"


# A class of one word needs no quotes, and a cell followed by another cell (or the end
# of its row) no end tag (HTML allows both, every parser knows them): 2.5 KB of a mail.
_CELL = {code: f"<td class={look}>" for code, look in _LOOKS.items()}
_LAST_CELL = {**_CELL, **{code: f"<td class={look}>" for code, look in _LAST_LOOKS.items()}}
_ROW_ENDS = [_row_ends(r) for r in range(SIZE)]
_TOP = _letters(0) + _black_edge(0)
_BOTTOM = _black_edge(SIZE - 1) + _letters(SIZE - 1)


def _caption_lines(state: LoopholeState) -> list[str]:
    lines = ["Black's edges: top and bottom (dark). White's: left and right (light)."]
    for seat, name in enumerate(SEATS):
        masks = state.loops(seat)
        lines.append(f"{name} loops: {describe_loops(masks) if masks else 'none'}")
    if state.last >= 0:
        who = SEATS[state.cells[state.last] - 1]
        lines.append(f"Last stone: {who} {cell_name(state.last)}, ringed in red.")
    return lines
