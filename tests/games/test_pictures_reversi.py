"""Reversi's board picture: every square a named cell, the discs in their colours, the last
disc ringed and the discs it turned over tinted, render()'s lines under the board."""

from __future__ import annotations

import pytest

from pbm.games.kit import DARK, LAST, LAST_TINT, LIGHT, OUTLINE
from pbm.games.reversi import GAME
from pbm.games.reversi.words import status
from tests.browser.pages import page
from tests.games.pictures import assert_mail_safe, cells, drawn
from tests.games.test_reversi import PASSING_GAME, play_all

SQUARES = {f"{col}{row}" for col in "ABCDEFGH" for row in range(1, 9)}
POSITIONS = {
    "start": (),
    "opening": ("D3", "C5"),  # White's C5 turned D5 over
    "finished": PASSING_GAME,  # Black wins 32 to 9 with 23 squares empty
}


def picture_of(name: str) -> str:
    """The picture of a named position, the same for both seats and a spectator."""
    state = play_all(POSITIONS[name])
    pictures = {drawn(GAME, state, viewer) for viewer in (None, 0, 1)}
    assert len(pictures) == 1  # Reversi hides nothing
    return pictures.pop()


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_picture_reads_as_pinned(name: str, golden) -> None:
    golden(f"reversi_picture_{name}", page(picture_of(name)), suffix=".html")


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_every_square_is_a_named_cell_and_the_picture_is_safe_in_mail(name: str) -> None:
    html = picture_of(name)
    assert_mail_safe(html)
    assert set(cells(html)) == SQUARES


def _disc_colour(inner: str) -> str | None:
    if f"background:{DARK}" in inner:
        return "black"
    if f"background:{LIGHT}" in inner:
        return "white"
    return None


def test_each_disc_shows_in_its_colour_where_the_rules_put_it() -> None:
    for name, moves in POSITIONS.items():
        state = play_all(moves)
        for square, inner in cells(picture_of(name)).items():
            holder = state.at(_square(square))
            expected = None if holder is None else ("black", "white")[holder]
            assert _disc_colour(inner) == expected, (name, square)


def _square(text: str) -> int:
    """Square number of a cell name: row by row from A1."""
    return (int(text[1]) - 1) * 8 + "ABCDEFGH".index(text[0])


def test_the_last_disc_is_ringed_and_the_discs_it_turned_over_tinted() -> None:
    found = cells(picture_of("opening"))
    ringed = sorted(square for square, inner in found.items()
                    if f"border:2px solid {LAST}" in inner)
    assert ringed == ["C5"]
    tinted = sorted(square for square, inner in found.items() if LAST_TINT in inner)
    assert tinted == ["D5"]
    assert _disc_colour(found["C5"]) == "white" and _disc_colour(found["D5"]) == "white"
    # Every other disc has the plain outline.
    for square in ("D3", "D4", "E4", "E5"):
        assert f"border:1px solid {OUTLINE}" in found[square]


def test_nothing_is_marked_before_the_first_move_or_after_a_pass() -> None:
    after_pass = play_all(PASSING_GAME[:32])  # White's first pass
    for html in (picture_of("start"), drawn(GAME, after_pass, None)):
        for inner in cells(html).values():
            assert f"border:2px solid {LAST}" not in inner and LAST_TINT not in inner
    assert "White passed, having no legal move." in drawn(GAME, after_pass, None)


def test_the_lines_under_the_board_say_what_render_says_of_the_pictures_marks() -> None:
    html = picture_of("opening")
    assert "Black: 3 discs, White: 3 discs, empty: 58 squares." in html
    assert "Last move: White C5, ringed; it turned over 1 disc, on a tinted square: D5." \
        in html
    assert "[" not in html and "(O)" not in html  # the text board's marks are not drawn
    for name, moves in POSITIONS.items():
        html = picture_of(name)
        for sentence in status(play_all(moves), drawn=True):
            assert sentence.replace("'", "&#x27;") in html, (name, sentence)
