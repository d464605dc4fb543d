"""The square grid Trou and Synapse-Ice share: names, membership, order, parsing, neighbours."""

from __future__ import annotations

import pytest

from pbm.games.grid import Cell, Grid

TROU = Grid(3, 3)
SYNAPSE = Grid(6, 5)


def test_cells_are_named_like_the_boards_print_them():
    assert Cell(0, 0).name == "A1"
    assert Cell(1, 1).name == "B2"
    assert Cell(5, 4).name == "F5"


def test_cells_come_in_reading_order_and_index_into_a_stored_board():
    assert [c.name for c in TROU.cells] == ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"]
    assert [SYNAPSE.index(c) for c in SYNAPSE.cells] == list(range(30))
    assert TROU.letters == "ABC" and SYNAPSE.letters == "ABCDEF"


def test_a_grid_holds_only_its_own_cells():
    assert Cell(2, 2) in TROU and Cell(3, 2) not in TROU and Cell(2, 3) not in TROU
    assert Cell(-1, 0) not in SYNAPSE and Cell(0, -1) not in SYNAPSE
    assert Cell(5, 4) in SYNAPSE
    assert "A1" not in TROU


def test_steps_may_leave_the_board():
    assert Cell(2, 3).step(0, -1, times=3) == Cell(2, 0)
    assert Cell(0, 0).step(-1, 0) not in SYNAPSE


@pytest.mark.parametrize(
    "text, expected",
    [("B2", Cell(1, 1)), ("b2", Cell(1, 1)), (" C3 ", Cell(2, 2)), ("A1", Cell(0, 0))],
)
def test_parse_reads_a_cell_name(text, expected):
    assert TROU.parse(text) == expected


@pytest.mark.parametrize("text", ["", "B", "2B", "D1", "A4", "A0", "A-1", "AA1", "B²", "B 2"])
def test_parse_refuses_what_names_no_cell(text):
    assert TROU.parse(text) is None


def test_at_takes_the_letter_and_number_a_move_was_read_as():
    assert SYNAPSE.at("f", 5) == Cell(5, 4)
    assert SYNAPSE.at("G", 1) is None and SYNAPSE.at("A", 6) is None and SYNAPSE.at("A", 0) is None
    assert SYNAPSE.at("", 1) is None and SYNAPSE.at("AB", 1) is None


def test_named_is_for_trusted_names():
    assert SYNAPSE.named("E3") == Cell(4, 2)
    with pytest.raises(ValueError):
        TROU.named("D4")


def test_neighbours_stay_on_the_board_in_a_fixed_order():
    centre, corner = Cell(1, 1), Cell(0, 0)
    assert [c.name for c in TROU.side_neighbours(centre)] == ["B1", "A2", "C2", "B3"]
    assert [c.name for c in TROU.corner_neighbours(centre)] == ["A1", "C1", "A3", "C3"]
    assert [c.name for c in TROU.side_neighbours(corner)] == ["B1", "A2"]
    assert [c.name for c in TROU.corner_neighbours(corner)] == ["B2"]


def test_a_grid_has_lettered_columns_only():
    with pytest.raises(ValueError):
        Grid(27, 3)
    with pytest.raises(ValueError):
        Grid(3, 0)
