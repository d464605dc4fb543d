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
    LAST,
    LAST_TINT,
    LIGHT,
    MINE,
    caption,
    cell,
    css,
    disc,
    frame,
    grid,
    legend,
)
from pbm.games.outguess.game import (
    HOME_ROWS,
    SEATS,
    OutguessState,
    Piece,
    shown_guess,
    status_lines,
)
from pbm.games.outguess.notation import COLUMNS, SIZE, cell_name, square_at

SQUARE = 38  # a square of the board, in pixels: eight of them and the labels fit a phone
PIECE = 30
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


def _board(state: OutguessState, guess: int | None) -> str:
    rows = []
    for row in range(1, SIZE + 1):
        cells = []
        for col in range(SIZE):
            square = square_at(col, row)
            piece = state.board[square]
            touched = square in state.left or square in state.reached
            background = LAST_TINT if touched else SHADE if (row + col) % 2 else BOARD
            border = f"2px dashed {MINE}" if square == guess else f"1px solid {BOARD}"
            style = css(width=SQUARE, height=SQUARE, padding=0, text_align="center",
                        vertical_align="middle", background=background, border=border,
                        box_sizing="border-box")
            ring = LAST if piece is not None and square in state.reached else None
            inner = "" if piece is None else _piece(piece, ring)
            cells.append(cell(cell_name(square), inner, style))
        rows.append(cells)
    return grid(rows, COLUMNS, [str(row) for row in range(1, SIZE + 1)], SQUARE,
                css(border=f"2px solid {EDGE}"))


def _piece(piece: Piece, ring: str | None, size: int = PIECE) -> str:
    return disc(size, FILL[piece.owner], ring=ring, label=ARROW[piece.heads],
                label_colour=INK[piece.owner])


def _legend() -> str:
    homes = ", ".join(f"{SEATS[seat]}'s home row is {row}" for seat, row in
                      sorted(enumerate(HOME_ROWS), key=lambda pair: pair[1]))
    return legend([
        (_piece(Piece(0, False), None, 16), "tails: steps sideways"),
        (_piece(Piece(0, True), None, 16), "heads: steps up or down"),
        ("", f"({homes})"),
    ])


def _reserves(state: OutguessState) -> str:
    entries = [(_piece(Piece(seat, False), None, 16), f"{SEATS[seat]} {state.reserves[seat]}")
               for seat in (0, 1)]
    return legend([("", "In reserve:"), *entries])
