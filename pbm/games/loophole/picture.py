"""Loophole drawn as its hex rhombus: each row half a cell right of the row above, so that
the cells touching on the picture are exactly the cells the rules call neighbours."""

from __future__ import annotations

from pbm.games.base import Viewer
from pbm.games.kit import (
    BOARD,
    DARK,
    LAST,
    LIGHT,
    OUTLINE,
    caption,
    cell,
    css,
    frame,
    label,
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
    """The board with its stones, windows, edges and labels, the last stone ringed."""
    # Loophole hides nothing: every viewer sees the same picture. Every board mail draws
    # one, so all that does not depend on the position was built once, below.
    cells, last = state.cells, state.last
    lines = [_TOP]
    for r, (before, after) in enumerate(_ROW_ENDS):
        spots = "".join(_CELL[cells[at]][at] if at != last else _LAST_CELL[cells[at]][at]
                        for at in range(r * SIZE, (r + 1) * SIZE))
        lines.append(before + spots + after)
    lines.append(_BOTTOM)
    board = table([row([f"<td>{''.join(lines)}</td>"])])
    return frame(board + caption(_caption_lines(state)))


def _line(shift_of_row: int, cells: list[str]) -> str:
    """One line of the picture, shifted like board row `shift_of_row`, left-aligned."""
    shift = [spacer(SHIFT * shift_of_row)] if shift_of_row else []
    return table([row(shift + cells)], css(margin=0))


def _letters(board_row: int) -> str:
    """Column letters over (or under) the board row they label."""
    letters = [label(letter, PITCH, 12) for letter in COLUMNS]
    return _line(board_row, [spacer(NUMBER_WIDTH + EDGE_WIDTH + GAP), *letters])


def _black_edge(board_row: int) -> str:
    """Black's edge: a dark strip along the top (or bottom) row."""
    strip = spacer(ROW_WIDTH, EDGE_WIDTH, DARK)
    return _line(board_row, [spacer(NUMBER_WIDTH + EDGE_WIDTH, EDGE_WIDTH), strip])


def _white_edge() -> str:
    """A piece of White's left or right edge, beside one row."""
    style = css(width=EDGE_WIDTH - 2, height=SPOT, padding=0, background=LIGHT,
                border_left=f"1px solid {OUTLINE}", border_right=f"1px solid {OUTLINE}")
    return f'<td style="{style}"></td>'


def _row_ends(r: int) -> tuple[str, str]:
    """What comes before and after the cells of board row `r`: its shift, number and edges."""
    number = label(str(r + 1), NUMBER_WIDTH, SPOT, align="right")
    # The cells' own table keeps a gap between spots, so that round spots do not touch.
    marker = "\0"
    spots = table([row([marker])],
                  css(margin=0, border_collapse="separate", border_spacing=f"{GAP}px 0"))
    line = _line(r, [number, _white_edge(), f'<td style="padding:0">{spots}</td>',
                     _white_edge()])
    before, after = line.split(marker)
    return before, after


def _cell(code: int, at: int, last: bool) -> str:
    """A cell drawn as a round spot: wood when empty, else the stone; nothing for a window.

    Every byte here counts 343 times (some clients clip a mail's HTML past about 100 KB),
    so the cell itself is the spot: no element inside it.
    """
    if code == HOLE:
        # Window cells do not exist: no cell, no wood, only the page showing through.
        return f'<td style="{_size(SPOT)}"></td>'
    if code == EMPTY:
        return cell(cell_name(at), "", f"{_size(SPOT)};{css(background=BOARD)}")
    fill = DARK if code == BLACK else LIGHT
    ring, width = (LAST, 2) if last else (OUTLINE, 1) if code != BLACK else (None, 0)
    style = f"{_size(SPOT - 2 * width)};{css(background=fill)}"
    if ring:
        style += f";border:{width}px solid {ring}"
    return cell(cell_name(at), "", style)


def _size(inner: int) -> str:
    """A round cell `inner` pixels across inside its ring (the ring adds to it)."""
    return css(width=inner, height=inner, padding=0, border_radius="50%")


# Every cell's HTML for every code it can hold (EMPTY, BLACK, WHITE, HOLE), with and
# without the last-stone ring: drawing a board is then only picking strings.
_CODES = (EMPTY, BLACK, WHITE, HOLE)
_CELL = {code: [_cell(code, at, False) for at in range(SIZE * SIZE)] for code in _CODES}
_LAST_CELL = {code: [_cell(code, at, True) for at in range(SIZE * SIZE)] for code in _CODES}
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
