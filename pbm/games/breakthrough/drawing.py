"""The board as text, as pbmserv printed it (the top row first, White's o at the bottom, Black's
x at the top), with the last move marked and each side's pieces counted."""

from __future__ import annotations

from pbm.games.breakthrough.board import EMPTY, GLYPHS, SEATS, WHITE, BreakthroughState
from pbm.games.breakthrough.notation import notation
from pbm.games.text import plural

# Where the last move went and where it came from: brackets round the square, in the
# spaces either side of it (the two squares are never in one row, so marks never meet).
TARGET_MARKS = ("[", "]")
ORIGIN_MARKS = ("(", ")")


def board_text(state: BreakthroughState) -> list[str]:
    """The board's lines: column letters above and below, row numbers either side."""
    size, board = state.size, state.board
    letters = "     " + " ".join(state.geometry.grid.letters)
    lines = [letters]
    last = state.last
    for row in reversed(range(size)):
        chars = [" "] * (2 * size + 1)
        chars[1::2] = board[row * size:(row + 1) * size]
        if last is not None:
            for cell, (left, right) in ((last.target, TARGET_MARKS),
                                        (last.origin, ORIGIN_MARKS)):
                if cell.row == row:
                    chars[2 * cell.col], chars[2 * cell.col + 2] = left, right
        lines.append(f"{row + 1:>3} {''.join(chars)} {row + 1}")
    lines.append(letters)
    return lines


def status_lines(state: BreakthroughState) -> list[str]:
    """Each side's pieces left (and lost), the way it moves, and the last move."""
    lines = []
    for seat, name in enumerate(SEATS):
        count = plural(len(state.pieces[seat]), "piece")
        lost = state.captured(seat)
        taken = f" ({lost} taken)" if lost else ""
        way = f"up to row {state.size}" if seat == WHITE else "down to row 1"
        lines.append(f"{name} ({GLYPHS[seat]}): {count}{taken}, moving {way}")
    last = state.last
    if last is not None:
        mover = 1 - state.turn
        taking = f", taking a {SEATS[state.turn]} piece" if last.capture else ""
        went = f"{TARGET_MARKS[0]}{GLYPHS[mover]}{TARGET_MARKS[1]}"
        left = f"{ORIGIN_MARKS[0]}{EMPTY}{ORIGIN_MARKS[1]}"
        lines.append(f"Last move: {SEATS[mover]} {notation(last)}, to {went} from {left}{taking}")
    return lines
