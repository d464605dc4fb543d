"""Breakthrough's picture: golden positions, each square's piece and shade, the last move's
two squares highlighted and its piece ringed, every size within a phone's width."""

from __future__ import annotations

import re

import pytest

from pbm.games.base import PICTURE_WIDTH
from pbm.games.breakthrough.board import SIZES
from pbm.games.breakthrough.game import CAPTURES_MOVES, GAME, played
from pbm.games.breakthrough.picture import DARK_SQUARE, LIGHT_SQUARE, square_pixels
from pbm.games.kit import DARK, LAST, LAST_BACKGROUND, LAST_TINT, LIGHT
from tests.browser.pages import page
from tests.games.pictures import assert_mail_safe, cells, drawn
from tests.games.test_breakthrough import GOLDEN_MOVES

POSITIONS = {
    "start": (),
    "capture": GOLDEN_MOVES[:5],  # White's D4xE5
    "won": GOLDEN_MOVES,  # Black's D2xE1 reaches row 1
}


def position(name: str):
    return played(POSITIONS[name])


def only_picture(state) -> str:
    """Breakthrough hides nothing: every seat and a spectator see one picture."""
    pictures = {drawn(GAME, state, viewer) for viewer in (None, 0, 1)}
    assert len(pictures) == 1
    (html,) = pictures
    assert_mail_safe(html)
    return html


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_breakthrough_picture_golden(name: str, golden) -> None:
    golden(f"breakthrough_picture_{name}", page(only_picture(position(name))), suffix=".html")


def piece_of(cell_html: str) -> str | None:
    """'white', 'black' or None: the disc in a square, by its fill."""
    disc = re.search(r"<span style=\"[^\"]*background:(#[0-9a-f]{6})", cell_html)
    if disc is None:
        return None
    return {LIGHT: "white", DARK: "black"}[disc.group(1)]


def test_every_square_shows_its_piece_on_its_shade() -> None:
    state = position("capture")
    squares = cells(only_picture(state))
    assert len(squares) == 64
    for at in state.geometry.squares:
        html = squares[at.name]
        owner = state.at(at)
        assert piece_of(html) == (None if owner is None else ("white", "black")[owner]), at
        shade = DARK_SQUARE if (at.row + at.col) % 2 == 0 else LIGHT_SQUARE  # A1 dark
        assert f"background:{shade}" in html
    assert piece_of(squares["E5"]) == "white" and piece_of(squares["D4"]) is None
    assert piece_of(squares["E7"]) is None  # the Black piece that went to E5 and was taken


def test_the_last_move_is_highlighted_and_its_piece_ringed() -> None:
    squares = cells(only_picture(position("capture")))
    target = [name for name, html in squares.items() if LAST_BACKGROUND in html]
    origin = [name for name, html in squares.items() if LAST_TINT in html]
    ringed = [name for name, html in squares.items() if f"2px solid {LAST}" in html]
    assert (target, origin, ringed) == (["E5"], ["D4"], ["E5"])
    start = only_picture(position("start"))
    assert LAST_BACKGROUND not in str(cells(start)) and LAST not in str(cells(start))
    assert "Last move" not in start


def test_the_caption_counts_the_pieces_and_names_the_last_move() -> None:
    html = only_picture(position("capture"))
    assert "White: 16 pieces, moving up to row 8" in html
    assert "Black: 15 pieces (1 taken), moving down to row 1" in html
    assert "Last move: White D4xE5, taking a Black piece (highlighted)." in html
    won = only_picture(position("won"))
    assert "Result: Black reached row 1 with the piece on E1." in won
    cells_won = cells(won)
    assert piece_of(cells_won["E1"]) == "black" and LAST_BACKGROUND in cells_won["E1"]


def test_the_help_example_shows_the_threatened_pieces() -> None:
    squares = cells(only_picture(played(CAPTURES_MOVES)))
    assert piece_of(squares["F3"]) == "black"
    assert [piece_of(squares[n]) for n in ("E2", "F2", "G2")] == ["white"] * 3


@pytest.mark.parametrize("size", SIZES)
def test_every_size_fits_a_phone(size: int) -> None:
    state = GAME.start({"size": size}, 0)
    html = only_picture(state)
    assert len(cells(html)) == size * size
    assert 14 + size * square_pixels(size) <= PICTURE_WIDTH - 6
    assert len(html) < 12_000  # a board mail stays well under 16 KB
