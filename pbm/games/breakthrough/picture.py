"""Breakthrough drawn as a chequered board: white and black discs, the last move's two
squares highlighted and its piece ringed, each side's pieces counted under the board."""

from __future__ import annotations

from pbm.games.base import PICTURE_WIDTH, Viewer
from pbm.games.breakthrough.board import GLYPHS, SEATS, SIZES, BreakthroughState
from pbm.games.breakthrough.drawing import status_lines
from pbm.games.breakthrough.game import outcome_of
from pbm.games.breakthrough.notation import notation
from pbm.games.kit import (
    DARK,
    GRID,
    LAST_BACKGROUND,
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

LIGHT_SQUARE = "#f0d9a8"
DARK_SQUARE = "#c9a063"  # the board's wood, in two shades so that diagonals show
LARGEST = 40  # a square's pixels where the board is small enough
LABELS = 14 + 6  # the row names' strip and the frame's slack


def square_pixels(size: int) -> int:
    """A square's side on a board of `size`: as large as fits a phone's width."""
    return min(LARGEST, (PICTURE_WIDTH - LABELS) // size)


def draw(state: BreakthroughState, viewer: Viewer) -> str:
    """The board, White's home rows at the bottom as in render(), and its status."""
    # Breakthrough hides nothing: every viewer sees the same picture.
    size, looks = state.size, _LOOKS[state.size]
    squares = state.geometry.squares
    last = state.last
    rows = []
    for r in reversed(range(size)):
        line = []
        for c in range(size):
            at = squares[r * size + c]
            shade = looks.light if (r + c) % 2 else looks.dark
            lit = None
            if last is not None:
                lit = _TARGET if at == last.target else _ORIGIN if at == last.origin else None
            owner = state.at(at)
            inner = "" if owner is None else disc(classes(
                looks.pieces[owner], RINGED if last is not None and at == last.target
                else OUTLINED), "")
            line.append(cell(at.name, inner, classes(shade, lit)))
        rows.append(line)
    letters = state.geometry.grid.letters
    board = grid(looks.grid, rows, letters, [str(r + 1) for r in reversed(range(size))])
    return frame(board + caption(_caption_lines(state)))


def _caption_lines(state: BreakthroughState) -> list[str]:
    # The pieces are discs here, not render()'s letters: the counts without the letters.
    lines = [line.replace(f" ({GLYPHS[seat]})", "")
             for seat, line in enumerate(status_lines(state)[:2])]
    if state.last is not None:
        mover = SEATS[1 - state.turn]
        taking = f", taking a {SEATS[state.turn]} piece" if state.last.capture else ""
        lines.append(f"Last move: {mover} {notation(state.last)}{taking} (highlighted).")
    outcome = outcome_of(state)
    if outcome is not None:
        lines.append(f"Result: {outcome.reason}")
    return lines


class _Looks:
    """The classes of one board size: its grid, its two shades of square, its discs."""

    def __init__(self, size: int) -> None:
        px = square_pixels(size)
        self.grid = SHEET.grid(f"g{size}", px)
        base = css(width=px, height=px, padding=0, text_align="center",
                   border=f"1px solid {GRID}")
        self.light = SHEET.rule(f"l{size}", base + ";" + css(background=LIGHT_SQUARE))
        self.dark = SHEET.rule(f"d{size}", base + ";" + css(background=DARK_SQUARE))
        disc_px = px * 3 // 4
        self.pieces = (SHEET.disc(f"w{size}", disc_px, LIGHT),
                       SHEET.disc(f"b{size}", disc_px, DARK))


SHEET = Sheet("b")
_LOOKS = {size: _Looks(size) for size in SIZES}
# Over a square's shade (declared after every shade): where the last move went and left.
_TARGET = SHEET.rule("t", css(background=LAST_BACKGROUND))
_ORIGIN = SHEET.rule("o", css(background=LAST_TINT))
