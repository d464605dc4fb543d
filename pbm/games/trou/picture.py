"""Trou drawn as its 3x3 board of holes: numbered pawns in each seat's colour, the last
placement highlighted, the pawns still to place, and at the end the hole and its score."""

from __future__ import annotations

from pbm.games.base import Viewer
from pbm.games.grid import Cell
from pbm.games.kit import (
    BARE,
    BOARD,
    DARK,
    GRID,
    LAST_BACKGROUND,
    LIGHT,
    OUTLINED,
    RED,
    Sheet,
    caption,
    cell,
    classes,
    css,
    disc,
    frame,
    label,
    look_of,
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
    letters = [spacer(_CORNER), *(label(letter, _LETTER) for letter in COLUMNS)]
    rows = [row(letters)]
    for r in range(SIZE):
        cells = [_cell(state, Cell(c, r), hole) for c in range(SIZE)]
        rows.append(row([label(str(r + 1), _NUMBER), *cells]))
    board = table(rows)
    return frame(board + _under_board(state))


SHEET = Sheet("t")
_CORNER = SHEET.spacer("g", 18)
_LETTER = SHEET.label("a", SQUARE, 18, size=12)
_NUMBER = SHEET.label("n", 18, SQUARE, size=12)
_SQUARE = SHEET.rule("q", css(width=SQUARE, height=SQUARE, padding=0, text_align="center",
                              background=BOARD, border=f"1px solid {GRID}"))
_LAST = SHEET.rule("l", css(background=LAST_BACKGROUND))  # over _SQUARE: the last placement
_HOLLOW = SHEET.rule("h", css(display="inline-block", width=HOLLOW, height=HOLLOW,
                              border_radius="50%", border=f"2px solid {GRID}",
                              background=BOARD, box_sizing="border-box",
                              vertical_align="middle"))
_PIT = SHEET.rule("p", css(background=PIT))  # over _HOLLOW: the hole left at the end
# A pawn's disc by its size and seat, with the seat's colour.
_PAWNS = {size: [SHEET.disc(f"{name}{size}", size, colour, LIGHT)
                 for name, colour in zip(("r", "b"), COLOURS, strict=True)]
          for size in (PAWN, LEFT_PAWN)}
_LEFT_NAME = SHEET.label("w", 130, LEFT_PAWN + 6, "left", 13)
_UNDER = SHEET.rule("u", css(margin="6px auto 0"))  # the table under the board


def _cell(state: TrouState, at: Cell, hole: Cell | None) -> str:
    look = classes(_SQUARE, _LAST if at == state.last else None)
    pawn = state.at(at)
    if pawn is not None:
        return cell(at.name, _pawn(pawn, PAWN), look)
    hollow = classes(_HOLLOW, _PIT if at == hole else None)
    return cell(at.name, f'<span{look_of(hollow)}></span>', look)


def _pawn(pawn: Pawn, size: int) -> str:
    return disc(classes(_PAWNS[size][pawn.seat], OUTLINED), str(pawn.value))


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
        name_cell = label(f"{name} pawns left:", _LEFT_NAME)
        rows.append(row([name_cell, f'<td{look_of(BARE)}>{left}</td>']))
    return table(rows, _UNDER)
