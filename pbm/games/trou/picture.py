"""Trou drawn as its 3x3 board of holes: numbered pawns in each seat's colour, the last
placement highlighted, the pawns still to place, and at the end the hole and its score."""

from __future__ import annotations

from pbm.games.base import Viewer
from pbm.games.grid import Cell
from pbm.games.kit import (
    BOARD,
    DARK,
    GRID,
    LAST_BACKGROUND,
    LIGHT,
    RED,
    caption,
    cell,
    css,
    disc,
    frame,
    label,
    row,
    spacer,
    table,
)
from pbm.games.trou.game import (
    COLUMNS,
    SEATS,
    SIZE,
    Pawn,
    TrouState,
    scoring,
)

COLOURS = (RED, DARK)  # Red's and Black's pawns
SQUARE = 64  # a cell of the board
PAWN = 44
HOLLOW = 30  # the empty hole a pawn goes in
LEFT_PAWN = 22  # a pawn still to be placed, under the board
PIT = "#5a4020"  # the hole left at the end: deeper than any empty cell


def draw(state: TrouState, viewer: Viewer) -> str:
    """The board, then the pawns left (or, once all are placed, the score)."""
    # Trou hides nothing: every viewer sees the same picture.
    hole = state.hole()
    letters = [spacer(18), *(label(letter, SQUARE, 18, size=12) for letter in COLUMNS)]
    rows = [row(letters)]
    for r in range(SIZE):
        cells = [_cell(state, Cell(c, r), hole) for c in range(SIZE)]
        rows.append(row([label(str(r + 1), 18, SQUARE, size=12), *cells]))
    board = table(rows)
    return frame(board + _under_board(state))


def _cell(state: TrouState, at: Cell, hole: Cell | None) -> str:
    background = LAST_BACKGROUND if at == state.last else BOARD
    style = css(width=SQUARE, height=SQUARE, padding=0, text_align="center",
                background=background, border=f"1px solid {GRID}")
    pawn = state.at(at)
    if pawn is not None:
        return cell(at.name, _pawn(pawn, PAWN), style)
    pit = at == hole
    hollow = css(display="inline-block", width=HOLLOW, height=HOLLOW, border_radius="50%",
                 border=f"2px solid {GRID}", background=PIT if pit else BOARD,
                 box_sizing="border-box", vertical_align="middle")
    return cell(at.name, f'<span style="{hollow}"></span>', style)


def _pawn(pawn: Pawn, size: int) -> str:
    return disc(size, COLOURS[pawn.seat], label=str(pawn.value), label_colour=LIGHT)


def _under_board(state: TrouState) -> str:
    """What render() prints under the board: the pawns left, or the hole's score."""
    score = scoring(state)
    if score is not None:
        beside = ", ".join(f"{at.name} {SEATS[p.seat]}'s {p.value}" for at, p in score.beside)
        lines = [f"The hole is {score.hole.name} (the dark pit). Beside it: {beside}."]
        for seat, name in enumerate(SEATS):
            lines.append(f"{name}: {score.count(seat)} beside the hole, sum {score.total(seat)}")
        return caption(lines)
    rows = []
    for seat, name in enumerate(SEATS):
        pawns = [_pawn(Pawn(seat, value), LEFT_PAWN) for value in state.pawns_left(seat)]
        left = " ".join(pawns) if pawns else "none"
        name_cell = label(f"{name} pawns left:", 130, LEFT_PAWN + 6, "left", 13)
        rows.append(row([name_cell, f'<td style="{css(padding=0)}">{left}</td>']))
    return table(rows, css(margin="6px auto 0"))
