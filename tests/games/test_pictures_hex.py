"""Hex's board picture: every cell named (found by its place on the largest boards), stones
in their colours, the last move's stone ringed, the swap, and a phone's width on every size."""

from __future__ import annotations

import re

import pytest

from pbm.games.base import PICTURE_WIDTH
from pbm.games.hex.board import board_of
from pbm.games.hex.game import GAME, HexState, figure_state
from pbm.games.hex.picture import TIERS, row_width, tier_of
from pbm.games.kit import BOARD, DARK, LAST, LIGHT
from tests.browser.pages import page
from tests.games.pictures import assert_mail_safe, cells, drawn, looks
from tests.games.playout import random_playout, replay

OPENING = ("F6", "E7", "G5")  # Black F6, White E7, Black G5 (the last stone)


def play(moves: tuple[str, ...], size: int = 11) -> HexState:
    return replay(GAME, [(i % 2, text) for i, text in enumerate(moves)],
                  options={"size": size})


POSITIONS = {
    "start": lambda: play(()),
    "opening": lambda: play(OPENING),
    "swapped": lambda: play(("C8", "swap")),
    "win": lambda: figure_state("win"),  # HexWiki's 5x5 win by Red (our Black)
}


def only_picture(state: HexState) -> str:
    """The picture, the same for both seats and a spectator: Hex hides nothing."""
    pictures = {drawn(GAME, state, viewer) for viewer in (None, 0, 1)}
    assert len(pictures) == 1
    return pictures.pop()


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_picture_reads_as_pinned(name, golden) -> None:
    html = only_picture(POSITIONS[name]())
    assert_mail_safe(html)
    golden(f"hex_picture_{name}", page(html), suffix=".html")


def test_every_cell_is_named_and_shows_its_stone() -> None:
    found = cells(only_picture(play(OPENING)))
    assert set(found) == set(board_of(11).names) and len(found) == 121
    assert f"background:{DARK}" in found["F6"] and f"background:{DARK}" in found["G5"]
    assert f"background:{LIGHT}" in found["E7"]
    assert f"background:{BOARD}" in found["F5"]
    empties = [name for name, html in found.items() if f"background:{BOARD}" in html]
    assert len(empties) == 118


def test_the_last_stone_is_ringed_and_no_other() -> None:
    found = cells(only_picture(play(OPENING)))
    ringed = [name for name, html in found.items() if LAST in html]
    assert ringed == ["G5"]
    assert f"border:2px solid {LAST}" in found["G5"]
    assert LAST not in looks(only_picture(play(())))  # nothing to ring before the first move


def test_the_swap_shows_whites_stone_ringed_and_says_what_happened() -> None:
    html = only_picture(play(("C8", "swap")))
    found = cells(html)
    assert f"background:{LIGHT}" in found["H3"] and LAST in found["H3"]
    assert f"background:{BOARD}" in found["C8"]
    assert "Last move: White swapped: Black&#x27;s C8 became White&#x27;s H3, ringed in red." \
        in html
    before = only_picture(play(("C8",)))
    assert "White may swap: Black&#x27;s C8 would become White&#x27;s H3." in before


def test_the_caption_names_the_edges_and_counts_the_stones() -> None:
    html = only_picture(play(OPENING))
    assert ("Black&#x27;s edges: top and bottom (dark). White&#x27;s: left and right"
            " (light).") in html
    assert "Stones: Black 2, White 1; 118 empty cells." in html
    assert "Last move: Black G5, ringed in red." in html


def test_the_win_figure_shows_hexwikis_chain() -> None:
    found = cells(only_picture(figure_state("win")))
    for name in ("D1", "C2", "C3", "C4", "D4", "D5"):
        assert f"background:{DARK}" in found[name], name
    for name in ("E1", "D2", "D3", "B5", "C5"):
        assert f"background:{LIGHT}" in found[name], name
    assert [name for name, html in found.items() if LAST in html] == ["D5"]


@pytest.mark.parametrize("size", range(5, 20))
def test_every_size_fits_a_phone_and_its_cells_can_be_found(size) -> None:
    tier = tier_of(size)
    assert row_width(size, tier.pitch) <= PICTURE_WIDTH
    state = random_playout(GAME, size, options={"size": size}).state
    html = only_picture(state)
    assert_mail_safe(html)
    rows = re.findall(r"<table class=xg data-row=(\d+)><tr>(.*?)</table>", html)
    assert [int(number) for number, _ in rows] == list(range(1, size + 1))
    named = cells(html)
    board = state.board
    for r, (_, cells_html) in enumerate(rows):
        # A row: its number (styled with its shift), White's edge, its cells, White's edge.
        assert re.match(rf'<td class=xn\d style="min-width:\d+px">{r + 1}<td class=xx\d>',
                        cells_html)
        spots = re.findall(r"<td(?: data-cell=\"(\w+)\")? class=\"?([\w ]+)\"?>", cells_html)
        assert len(spots) == size + 2
        for col, (name, look) in enumerate(spots[1:-1]):
            at = r * size + col
            assert name == (board.names[at] if tier.named else "")
            code = state.stones[at]
            assert look.split()[0] == (tier.empty if code == 0 else tier.stones[code])
            assert (tier.ringed in look.split()) == (at == state.last)
    assert len(named) == (size * size if tier.named else 0)


def test_boards_up_to_fourteen_name_their_cells_and_larger_ones_keep_mails_small() -> None:
    assert [t.largest for t in TIERS if t.named] == [8, 11, 14]
    largest = only_picture(play(("J10",), 19))
    assert "data-cell" not in largest
    assert len(largest) < 9_000  # 361 cells by their place; named, they would be 14 KB
