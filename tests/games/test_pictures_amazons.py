"""Amazons' board picture: every square a named cell, amazons and arrows where render()
has them, the last move marked, the status lines under the board, the same for all."""

from __future__ import annotations

import pytest

from pbm.games.amazons.game import GAME
from pbm.games.amazons.picture import BURNT
from pbm.games.amazons.state import AmazonsState
from pbm.games.amazons.view import status_lines
from pbm.games.kit import DARK, LAST, LAST_TINT, LIGHT
from tests.browser.pages import page
from tests.games.pictures import assert_mail_safe, cells, drawn
from tests.games.test_amazons import ENDED, VIEWERS, play_all, position, square_at

SQUARES = {f"{file}{rank}" for file in "ABCDEFGHIJ" for rank in range(1, 11)}
POSITIONS = {
    "start": lambda: GAME.start({}, 0),
    "opening": lambda: play_all(["D1-D6/G3", "G10-G4/D4"]),
    "shot_back": lambda: play_all(["D1-D5/D1"]),
    "ended": lambda: position(ENDED),
}


def same_for_every_viewer(state: AmazonsState) -> str:
    pictures = {drawn(GAME, state, viewer) for viewer in VIEWERS}
    assert len(pictures) == 1
    return pictures.pop()


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_picture_reads_as_pinned(name: str, golden) -> None:
    html = same_for_every_viewer(POSITIONS[name]())
    golden(f"amazons_picture_{name}", page(html), suffix=".html")


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_every_square_is_a_named_cell_and_the_picture_is_safe_in_mail(name: str) -> None:
    html = same_for_every_viewer(POSITIONS[name]())
    assert_mail_safe(html)
    assert set(cells(html)) == SQUARES
    assert len(html) < 8000  # a board mail stays small


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_each_cell_shows_what_render_shows(name: str) -> None:
    state = POSITIONS[name]()
    board = cells(drawn(GAME, state, None))
    for square, html in board.items():
        mark = square_at(state, square)
        discs = html.count("border-radius:50%")
        if mark == "W":
            assert discs == 1 and f"background:{LIGHT}" in html, square
        elif mark == "B":
            assert discs == 1 and f"background:{DARK}" in html, square
        else:
            assert discs == 0, square
        assert (f"background:{BURNT}" in html) == (mark == "#"), square


def test_the_last_move_is_ringed_and_the_square_left_tinted() -> None:
    board = cells(drawn(GAME, POSITIONS["opening"](), None))  # Black G10-G4/D4 was last
    ringed = sorted(square for square, html in board.items() if f"2px solid {LAST}" in html)
    assert ringed == ["D4", "G4"]  # the arrow and the amazon that shot it
    tinted = sorted(square for square, html in board.items() if LAST_TINT in html)
    assert tinted == ["G10"]
    assert f"2px solid {LAST}" not in board["G3"]  # White's arrow, a move earlier


def test_an_arrow_shot_back_where_its_amazon_was_is_ringed_not_tinted() -> None:
    html = drawn(GAME, POSITIONS["shot_back"](), None)
    board = cells(html)
    assert f"background:{BURNT}" in board["D1"] and f"2px solid {LAST}" in board["D1"]
    assert not any(LAST_TINT in cell for cell in board.values())
    assert "it shot its arrow back where it was" in html


def test_the_caption_has_the_status_lines_and_the_start_marks_nothing() -> None:
    state = POSITIONS["opening"]()
    html = drawn(GAME, state, None)
    assert ("Last move: Black G10-G4/D4; the amazon and its arrow are ringed in red,"
            " the square it left is tinted.") in html
    for line in status_lines(state, marks=False):
        assert line in html
    assert "(W)" not in html  # the letters are the text board's, not the picture's
    start = drawn(GAME, GAME.start({}, 0), None)
    assert "Last move" not in start and LAST not in "".join(cells(start).values())
    ended = drawn(GAME, position(ENDED), None)
    assert "Black to move has no legal move: White wins." in ended
