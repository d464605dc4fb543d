"""Outguess drawn for mails: the two-sided pieces on the board, the reserves, the last turn.

The rule module hands over what this viewer may see: the public position, the square of a
named piece only where render() tells it (shown_guess) and render()'s own status lines.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbm.games.base import Viewer
from pbm.games.kit import (
    BOARD,
    DARK,
    EDGE,
    LAST_TINT,
    LIGHT,
    MINE,
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
)
from pbm.games.outguess.game import (
    SEATS,
    OutguessState,
    Piece,
    shown_guess,
    status_lines,
)
from pbm.games.outguess.notation import COLUMNS, HOME_ROWS, SIZE, cell_name, square_at

SQUARE = 38  # a square of the board, in pixels: eight of them and the labels fit a phone
PIECE = 30
MARK = 16  # a piece in the legend and the reserves
SHADE = "#dcb877"  # every other square, so rows and columns are easy to follow
FILL = (LIGHT, DARK)  # White's pieces, Black's
INK = (DARK, LIGHT)  # the arrow drawn on each
# The arrow says which way the side that is up lets the piece step.
ARROW = {True: "\u21d5", False: "\u21d4"}  # heads: up or down; tails: sideways


def draw(state: OutguessState, viewer: Viewer) -> str:
    """The board as `viewer` may see it: the guess shown only to whom the text shows it."""
    return picture(state, shown_guess(state, viewer), status_lines(state, viewer))


def picture(state: OutguessState, guess: int | None, status: Sequence[str]) -> str:
    """The picture for a viewer to whom `guess` (or nothing) is shown and `status` is told."""
    notes = []
    if guess is not None:
        notes.append(f"The dashed square ({cell_name(guess)}) is the one the guess named.")
    parts = [
        _board(state, guess),
        _legend(),
        _reserves(state),
        caption([" ".join(status), *notes]),
    ]
    return frame("".join(parts))


SHEET = Sheet("o")
_BOARD = SHEET.grid("b", SQUARE, css(border=f"2px solid {EDGE}"))
_SQUARE = SHEET.rule("q", css(width=SQUARE, height=SQUARE, padding=0, text_align="center",
                              vertical_align="middle", background=BOARD,
                              border=f"1px solid {BOARD}", box_sizing="border-box"))
# Over _SQUARE, in this order: every other square's shade, the last turn's tint (over the
# shade), the dashed outline of the square the guess named.
_SHADED = SHEET.rule("s", css(background=SHADE))
_TINTED = SHEET.rule("t", css(background=LAST_TINT))
_GUESSED = SHEET.rule("g", css(border=f"2px dashed {MINE}"))
# A piece's disc by its size and owner, in the owner's colour with the arrow in the other's.
_PIECES = {size: [SHEET.disc(f"{name}{size}", size, fill, ink)
                  for name, fill, ink in zip(("w", "b"), FILL, INK, strict=True)]
           for size in (PIECE, MARK)}


def _board(state: OutguessState, guess: int | None) -> str:
    rows = []
    for row in range(1, SIZE + 1):
        cells = []
        for col in range(SIZE):
            square = square_at(col, row)
            piece = state.board[square]
            touched = square in state.left or square in state.reached
            shade = _TINTED if touched else _SHADED if (row + col) % 2 else None
            look = classes(_SQUARE, shade, _GUESSED if square == guess else None)
            ringed = piece is not None and square in state.reached
            inner = "" if piece is None else _piece(piece, ringed)
            cells.append(cell(cell_name(square), inner, look))
        rows.append(cells)
    return grid(_BOARD, rows, COLUMNS, [str(row) for row in range(1, SIZE + 1)])


def _piece(piece: Piece, ringed: bool, size: int = PIECE) -> str:
    look = classes(_PIECES[size][piece.owner], RINGED if ringed else OUTLINED)
    return disc(look, ARROW[piece.heads])


def _legend() -> str:
    homes = ", ".join(f"{SEATS[seat]}'s home row is {row}" for seat, row in
                      sorted(enumerate(HOME_ROWS), key=lambda pair: pair[1]))
    return legend([
        (_piece(Piece(0, False), False, MARK), "tails: steps sideways"),
        (_piece(Piece(0, True), False, MARK), "heads: steps up or down"),
        ("", f"({homes})"),
    ])


def _reserves(state: OutguessState) -> str:
    entries = [(_piece(Piece(seat, False), False, MARK),
                f"{SEATS[seat]} {state.reserves[seat]}") for seat in (0, 1)]
    return legend([("", "In reserve:"), *entries])
