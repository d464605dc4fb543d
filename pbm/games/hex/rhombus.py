"""Hex's board as text: the rhombus, each row half a cell right of the row above, with each
player's edges drawn round it."""

from __future__ import annotations

from collections.abc import Mapping

from pbm.games.hex.board import BLACK_STONE, EMPTY, WHITE_STONE, Board

STONE_CHARS = {EMPTY: ".", BLACK_STONE: "#", WHITE_STONE: "O"}
LAST_OPEN, LAST_CLOSE = "[", "]"
EDGE_CHARS = ("#", "O")  # Black's edge rows above and below, White's at both row ends

# Cell (col, row), both 0-based, stands in its row's line at page_column(col, row): two
# characters per cell along a row, and one more for each row down. So a cell's row
# neighbours are 2 characters away, (col, row-1) sits up-left and (col+1, row-1) up-right,
# (col-1, row+1) down-left and (col, row+1) down-right: its six hex neighbours are exactly
# what touches it on the page. The edges are drawn as the cells just off the board would be
# (rows -1 and size for Black's, columns -1 and size for White's), so every cell along an
# edge touches it too. (Loophole draws its board the same way; the games share no code.)
A1_COLUMN = 6  # room for the row number and two blanks before row 1's left edge


def page_column(col: int, row: int) -> int:
    """The character column of cell (col, row) on the page; rows -1 and size are edges."""
    return A1_COLUMN + 2 * col + row


def _line(marks: Mapping[int, str]) -> str:
    """A line with each character of `marks` at its page column, blanks between."""
    chars = [" "] * (max(marks) + 1)
    for at, char in marks.items():
        chars[at] = char
    return "".join(chars).rstrip()


def _letters(board: Board, row: int) -> str:
    """The column letters, each straight above or below its cell in `row` (the first or last)."""
    return _line({page_column(col, row): letter for col, letter in enumerate(board.letters)})


def _edge_row(board: Board, row: int) -> str:
    """Black's edge as the row of cells just off the board (row -1 above, size below)."""
    return _line({page_column(col, row): EDGE_CHARS[0] for col in range(board.size)})


def _board_row(board: Board, stones: bytes, last: int, row: int) -> str:
    """A row: its number, White's edge, its cells, White's edge, its number again."""
    n = board.size
    marks = {page_column(col, row): STONE_CHARS[stones[row * n + col]] for col in range(n)}
    marks[page_column(-1, row)] = marks[page_column(n, row)] = EDGE_CHARS[1]
    if last >= 0 and last // n == row:
        at = page_column(last % n, row)
        marks[at - 1], marks[at + 1] = LAST_OPEN, LAST_CLOSE  # the blanks beside the cell
    number = f"{row + 1:>2}"
    return number + _line(marks)[len(number):] + f"  {row + 1}"


def board_text(board: Board, stones: bytes, last: int = -1) -> str:
    """The board drawn as the hex rhombus, the last move's stone in brackets."""
    lines = [_letters(board, 0), _edge_row(board, -1)]
    lines += [_board_row(board, stones, last, row) for row in range(board.size)]
    lines += [_edge_row(board, board.size), _letters(board, board.size - 1)]
    return "\n".join(lines) + "\n"
