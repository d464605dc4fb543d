"""Loophole's text board: the hex rhombus, read back off the page as a player reads it.

The checks here parse the rendered text itself (where each cell's character stands) and
compare "touching on the page" with the neighbours RULINGS.md states, computed here, so that
the drawing is checked against the rules and not against the code's own neighbour table.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbm.games.loophole.game import (
    GAME,
    LoopholeState,
    cells_from_rows,
    new_state,
    position,
    status_lines,
)
from pbm.games.loophole.rhombus import board_text
from tests.games.loophole_figures import FIGURES, figure_caption, figure_rows
from tests.games.playout import random_playout

LETTERS = "ABCDEFGHIJKLMNOPQRS"
WINDOW_CELLS = {f"{c}{r}" for c in "MNO" for r in (5, 6, 7)} | {
    f"{c}{r}" for c in "EFG" for r in (13, 14, 15)
}
CELLS = [f"{c}{r}" for r in range(1, 20) for c in LETTERS if f"{c}{r}" not in WINDOW_CELLS]
# RULINGS.md: the neighbours of (c, r) are (c±1, r), (c, r±1), (c+1, r-1) and (c-1, r+1).
RULE_STEPS = {(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)}
MAX_WIDTH = 76

# Transcribed by hand: each row one character right of the row above, the column letters
# straight above row 1's cells and straight below row 19's, Black's edges as the rows just
# off the board, White's at both ends of every row, the windows blank.
START_BOARD = """\
      A B C D E F G H I J K L M N O P Q R S
     # # # # # # # # # # # # # # # # # # #
 1  O . . . . . . . . . . . . . . . . . . . O  1
 2   O . . . . . . . . . . . . . . . . . . . O  2
 3    O . . . . . . . . . . . . . . . . . . . O  3
 4     O . . . . . . . . . . . . # # # . . . . O  4
 5      O . . . . . . . . . . . O       O . . . O  5
 6       O . . . . . . . . . . . O       O . . . O  6
 7        O . . . . . . . . . . . O       O . . . O  7
 8         O . . . . . . . . . . . . # # # . . . . O  8
 9          O . . . . . . . . . . . . . . . . . . . O  9
10           O . . . . . . . . . . . . . . . . . . . O  10
11            O . . . . . . . . . . . . . . . . . . . O  11
12             O . . . . # # # . . . . . . . . . . . . O  12
13              O . . . O       O . . . . . . . . . . . O  13
14               O . . . O       O . . . . . . . . . . . O  14
15                O . . . O       O . . . . . . . . . . . O  15
16                 O . . . . # # # . . . . . . . . . . . . O  16
17                  O . . . . . . . . . . . . . . . . . . . O  17
18                   O . . . . . . . . . . . . . . . . . . . O  18
19                    O . . . . . . . . . . . . . . . . . . . O  19
                         # # # # # # # # # # # # # # # # # # #
                        A B C D E F G H I J K L M N O P Q R S
"""


# ----- reading the page back -----------------------------------------------------------------

Spot = tuple[int, int]  # (line, column) on the page

_ROW_LINE = re.compile(r"(?P<left> ?\d+)(?P<body> .*? )(?P<right>\d+)")
_EDGE_LINE = re.compile(r" *#( #)*")
_LETTER_LINE = re.compile(r" *A( [B-S])*")


@dataclass
class Page:
    """Where each cell, edge mark and column letter stands in a rendered board."""

    cells: dict[str, Spot] = field(default_factory=dict)
    shown: dict[str, str] = field(default_factory=dict)  # the character standing for a cell
    black_edge: set[Spot] = field(default_factory=set)  # '#' marks of the edge rows
    white_edge: set[Spot] = field(default_factory=set)  # 'O' marks at the ends of rows
    letters: list[dict[str, int]] = field(default_factory=list)  # per letter line: column
    rows: dict[int, int] = field(default_factory=dict)  # row number -> its line


def read_page(text: str) -> Page:
    """Parse a rendered board as a reader would: by row numbers, edges and letters."""
    page = Page()
    for number, line in enumerate(text.splitlines()):
        if _LETTER_LINE.fullmatch(line):
            page.letters.append({ch: at for at, ch in enumerate(line) if ch != " "})
        elif _EDGE_LINE.fullmatch(line):
            page.black_edge |= {(number, at) for at, ch in enumerate(line) if ch == "#"}
        elif match := _ROW_LINE.fullmatch(line):
            row = int(match["left"])
            assert int(match["right"]) == row, line
            page.rows[row] = number
            start = match.start("body")
            marks = [
                (start + at, ch) for at, ch in enumerate(match["body"]) if ch not in " []"
            ]
            (left, edge_l), *inner, (right, edge_r) = marks
            assert edge_l == edge_r == "O", line
            page.white_edge |= {(number, left), (number, right)}
            names = [f"{c}{row}" for c in LETTERS if f"{c}{row}" not in WINDOW_CELLS]
            assert len(inner) == len(names), line  # every cell drawn, the windows blank
            for name, (at, ch) in zip(names, inner):
                page.cells[name] = (number, at)
                page.shown[name] = ch
    return page


def touching(a: Spot, b: Spot) -> bool:
    """Side by side in a line (one blank between), or on adjacent lines half a cell apart."""
    (line_a, col_a), (line_b, col_b) = a, b
    same_line = line_a == line_b and abs(col_a - col_b) == 2
    return same_line or (abs(line_a - line_b) == 1 and abs(col_a - col_b) == 1)


def col_row(name: str) -> tuple[int, int]:
    return LETTERS.index(name[0]), int(name[1:])


def rule_neighbours(a: str, b: str) -> bool:
    (col_a, row_a), (col_b, row_b) = col_row(a), col_row(b)
    return (col_b - col_a, row_b - row_a) in RULE_STEPS


def assert_page_is_the_hex_board(page: Page) -> None:
    """Touching on the page is exactly neighbouring by the rules, edges included."""
    assert set(page.cells) == set(CELLS)
    for a, b in combinations(CELLS, 2):
        on_page = touching(page.cells[a], page.cells[b])
        assert on_page == rule_neighbours(a, b), f"{a} and {b}"
    for name in CELLS:
        col, row = col_row(name)
        spot = page.cells[name]
        assert any(touching(spot, e) for e in page.black_edge) == (row in (1, 19)), name
        assert any(touching(spot, e) for e in page.white_edge) == (col in (0, 18)), name
    # No edge mark sits on a cell's own spot, and no two marks of the page coincide.
    spots = list(page.cells.values()) + list(page.black_edge) + list(page.white_edge)
    assert len(spots) == len(set(spots))


def random_position(seed: int, stone_share: float, black_share: float) -> LoopholeState:
    """Stones on a share of the empty cells, one of them marked last: reachable or not."""
    rng = random.Random(seed)
    rows = [list(row) for row in GAME.encode(GAME.start({}, 0))["board"]]
    placed = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "." and rng.random() < stone_share:
                row[c] = "#" if rng.random() < black_share else "O"
                placed.append(r * 19 + c)
    last = rng.choice(placed) if placed else -1
    return new_state(cells_from_rows("".join(row) for row in rows), last)


# ----- the start position --------------------------------------------------------------------


def test_start_position_is_drawn_as_the_rhombus():
    start = GAME.start({}, 0)
    assert board_text(start.cells) == START_BOARD
    rendered = GAME.render(start, None)
    assert rendered == START_BOARD + "\nBlack (#) loops: none\nWhite (O) loops: none\n"
    assert GAME.render(start, 0) == GAME.render(start, 1) == rendered


def test_start_position_touching_on_the_page_is_neighbouring_by_the_rules():
    page = read_page(START_BOARD)
    assert_page_is_the_hex_board(page)
    assert page.shown["M4"] == "#" and page.shown["L5"] == "O" and page.shown["P4"] == "."


def test_each_row_is_half_a_cell_right_of_the_row_above():
    page = read_page(START_BOARD)
    for row in range(2, 20):
        (line, col), (above_line, above_col) = page.cells[f"A{row}"], page.cells[f"A{row - 1}"]
        assert (line - above_line, col - above_col) == (1, 1)
        assert page.rows[row] == line


def test_column_letters_stand_over_row_1_and_under_row_19():
    page = read_page(START_BOARD)
    top, bottom = page.letters
    for letter in LETTERS:
        assert top[letter] == page.cells[f"{letter}1"][1]
        assert bottom[letter] == page.cells[f"{letter}19"][1]


def test_diagonal_a1_s19_looks_broken_and_s1_a19_joined():
    diagonal = [f"{c}{r}" for r, c in enumerate(LETTERS, 1)]
    anti = [f"{c}{r}" for r, c in enumerate(reversed(LETTERS), 1)]
    stones = " ".join(dict.fromkeys(n for n in diagonal + anti if n not in WINDOW_CELLS))
    text = board_text(position(stones, "").cells)
    page = read_page(text)
    for a, b in zip(diagonal, diagonal[1:]):
        assert not touching(page.cells[a], page.cells[b]), f"{a} {b}"
        assert not rule_neighbours(a, b)
    joined = [(a, b) for a, b in zip(anti, anti[1:]) if WINDOW_CELLS.isdisjoint({a, b})]
    assert len(joined) == 10  # the anti-diagonal crosses both windows' corners
    for a, b in joined:
        assert touching(page.cells[a], page.cells[b]), f"{a} {b}"
    lines = text.splitlines()
    assert lines[2:5] == [
        " 1  O # . . . . . . . . . . . . . . . . . # O  1",
        " 2   O . # . . . . . . . . . . . . . . . # . O  2",
        " 3    O . . # . . . . . . . . . . . . . # . . O  3",
    ]


# ----- any position ------------------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    stone_share=st.floats(0.0, 1.0),
    black_share=st.floats(0.0, 1.0),
)
def test_any_position_reads_back_as_the_hex_board(seed, stone_share, black_share):
    state = random_position(seed, stone_share, black_share)
    text = GAME.render(state, None)
    page = read_page(text)
    assert_page_is_the_hex_board(page)
    rows = GAME.encode(state)["board"]
    for name, (line, col) in page.cells.items():
        c, r = col_row(name)
        assert page.shown[name] == rows[r - 1][c]
    assert all(len(line) <= MAX_WIDTH for line in text.splitlines())


@pytest.mark.parametrize("seed", range(3))
def test_every_line_of_a_random_game_fits_76_columns(seed):
    playout = random_playout(GAME, seed)
    state = GAME.start({}, 0)
    for seat, notation in playout.log:
        state = GAME.play(state, seat, GAME.parse(state, seat, notation))
        for viewer in (None, 0, 1):
            assert max(len(line) for line in GAME.render(state, viewer).splitlines()) <= MAX_WIDTH


# ----- the last stone ----------------------------------------------------------------------


def test_last_stone_is_bracketed_without_moving_anything():
    state = GAME.start({}, 0)
    for text in ("A1", "S19", "P4"):
        state = GAME.play(state, state.seat_to_move, GAME.parse(state, state.seat_to_move, text))
    text = board_text(state.cells, state.last)
    lines = text.splitlines()
    assert lines[5] == " 4     O . . . . . . . . . . . . # # #[#]. . . O  4"
    assert lines[20] == "19                    O . . . . . . . . . . . . . . . . . . O O  19"
    assert text.count("[") == text.count("]") == 1
    assert text.replace("[", " ").replace("]", " ") == board_text(state.cells)
    assert status_lines(state)[-1] == "Last stone: Black P4, shown as [#]."
    state = GAME.play(state, 1, GAME.parse(state, 1, "A2"))
    assert board_text(state.cells, state.last).splitlines()[3] == (
        " 2   O[O]. . . . . . . . . . . . . . . . . . O  2"
    )


# ----- the source's figures ----------------------------------------------------------------


def test_figures_drawn_as_the_rhombus(golden):
    parts = []
    for number in FIGURES:
        state = new_state(cells_from_rows(figure_rows(number)))
        parts += [f"=== {figure_caption(number)}", GAME.render(state, None)]
    golden("loophole_figures", "\n".join(parts))


@pytest.mark.parametrize("number", FIGURES)
def test_figure_reads_back_stone_for_stone(number):
    rows = figure_rows(number)
    page = read_page(GAME.render(new_state(cells_from_rows(rows)), None))
    assert_page_is_the_hex_board(page)
    for name in CELLS:
        c, r = col_row(name)
        assert page.shown[name] == rows[r - 1][c], name


def test_figure_5_top_edge_to_w1_is_a_joined_line():
    lines = GAME.render(new_state(cells_from_rows(figure_rows(5))), None).splitlines()
    assert lines[2:6] == [
        " 1  O . . . . . . . . . . . . . . . # . . . O  1",
        " 2   O . . . . . . . . . . . . . . # . . . . O  2",
        " 3    O . . . . . . . . . . . . . # . . . . . O  3",
        " 4     O . . . . . . . . . . . . # # # . . . . O  4",
    ]
    # P1, O2, N3, M4: one character left on each line down, touching all the way.
    assert [line.index("#", 6) for line in lines[2:6]] == [36, 35, 34, 33]


def test_figure_2_a_column_leans_right_and_its_step_left_touches():
    # Black's C-loop runs down column D from the top edge, over to C and down; on the page a
    # column leans right, one character a row.
    page = read_page(GAME.render(new_state(cells_from_rows(figure_rows(2))), None))
    column_d = [page.cells[f"D{r}"] for r in range(1, 5)]
    assert [col for _, col in column_d] == [12, 13, 14, 15]
    assert all(page.shown[f"D{r}"] == "#" for r in range(1, 5))
    assert touching(page.cells["D4"], page.cells["C5"])  # the step to column C ...
    assert rule_neighbours("D4", "C5")  # ... is a rule neighbour


def test_render_lists_each_players_loops_wrapped_within_76_columns():
    state = new_state(cells_from_rows(figure_rows(8)))
    lines = GAME.render(state, None).splitlines()
    assert lines[-3:] == [
        "Black (#) loops: single node loop through C, double node loop through W1",
        "    and W2, triple node loop through C, W1 and W2",
        "White (O) loops: none",
    ]
    assert all(len(line) <= MAX_WIDTH for line in lines)
