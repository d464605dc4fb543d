"""Lines of Action's board picture: both sides' pieces, the last move's squares tinted and its
piece ringed, render()'s lines under it, one picture for every viewer."""

from __future__ import annotations

import re

import pytest

from pbm.games.kit import DARK, LAST, LAST_TINT, LIGHT
from pbm.games.loa.game import GAME, SHORT_GAME, LoaState, status_lines
from tests.browser.pages import page
from tests.games.pictures import assert_mail_safe, cells, drawn, looks
from tests.games.test_loa import play_all

SQUARES = {f"{col}{row}" for col in "ABCDEFGH" for row in range(1, 9)}
# Board Game Arena's example moves: the last one, White's H3xF1, is a capture.
OPENING = ("C8-C6", "A6-C4", "E8-B5", "H3xF1")
POSITIONS = {"start": (), "opening": OPENING, "won": SHORT_GAME}


def position(name: str) -> LoaState:
    return play_all(POSITIONS[name])


def picture(name: str) -> str:
    """The one picture every viewer gets (Lines of Action hides nothing)."""
    state = position(name)
    pictures = {drawn(GAME, state, viewer) for viewer in (None, 0, 1)}
    assert len(pictures) == 1
    return pictures.pop()


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_picture_reads_as_pinned(name: str, golden) -> None:
    golden(f"loa_picture_{name}", page(picture(name)), suffix=".html")


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_every_square_is_a_named_cell_and_the_picture_is_safe_in_mail(name: str) -> None:
    html = picture(name)
    assert_mail_safe(html)
    assert set(cells(html)) == SQUARES


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_each_square_shows_what_the_board_holds(name: str) -> None:
    state = position(name)
    for square, inner in cells(picture(name)).items():
        seat = state.at(_square(square))
        if seat is None:
            assert "<span" not in inner, square
        else:
            assert f"background:{(DARK, LIGHT)[seat]}" in inner, square


def _square(text: str) -> int:
    return (int(text[1]) - 1) * 8 + "ABCDEFGH".index(text[0])


def test_the_last_move_is_tinted_and_its_piece_ringed() -> None:
    found = cells(picture("opening"))
    tinted = sorted(square for square, inner in found.items()
                    if re.match(rf'<td[^>]*style="[^"]*background:{LAST_TINT}', inner))
    assert tinted == ["F1", "H3"]  # White's H3xF1: the square left and the square taken
    ringed = [square for square, inner in found.items() if f"solid {LAST}" in inner]
    assert ringed == ["F1"]
    assert f"background:{LIGHT}" in found["F1"]  # White's piece, where Black's was
    assert "<span" not in found["H3"]


def test_no_last_move_no_highlight() -> None:
    assert LAST_TINT not in looks(picture("start")) and LAST not in looks(picture("start"))


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_the_caption_says_what_render_says(name: str) -> None:
    html = picture(name)
    for line in status_lines(position(name), "its squares tinted, the piece ringed"):
        assert line.replace("'", "&#x27;") in html
    if name == "won":
        assert "Black (x): 10 pieces in 1 group; has captured 0." in html
