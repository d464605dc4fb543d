"""Battleship's board picture: what each viewer is drawn, the last shot marked, no secret."""

from __future__ import annotations

import pytest

from pbm.games.base import Outcome
from pbm.games.battleship.fleet import NAMES
from pbm.games.battleship.game import GAME, help_example, replay_texts
from pbm.games.battleship.picture import HULL, SPLASH, WATER
from pbm.games.battleship.state import BattleshipState
from pbm.games.kit import LAST_BACKGROUND, RED
from tests.browser.pages import page
from tests.games.pictures import assert_mail_safe, cells, drawn, looks

BLUE, RED_SEAT = 0, 1
VIEWERS = {"blue": BLUE, "red": RED_SEAT, "spectator": None}


def placing() -> BattleshipState:
    return replay_texts(help_example()[:1])


def mid_game() -> BattleshipState:
    """The help page's example: Blue's I9 sank Red's Destroyer, Red's B6 missed last."""
    return replay_texts(help_example())


def resigned() -> BattleshipState:
    return GAME.conclude(mid_game(), Outcome(frozenset({BLUE}), "Red resigned."))


POSITIONS = {"placing": placing, "mid_game": mid_game, "resigned": resigned}
GOLDEN = [("placing", "blue"), ("placing", "spectator"), ("mid_game", "blue"),
          ("mid_game", "red"), ("mid_game", "spectator"), ("resigned", "spectator")]


@pytest.mark.parametrize(("position", "viewer"), GOLDEN)
def test_picture_reads_as_pinned(position: str, viewer: str, golden) -> None:
    html = drawn(GAME, POSITIONS[position](), VIEWERS[viewer])
    golden(f"battleship_picture_{position}_{viewer}", page(html), suffix=".html")


@pytest.mark.parametrize("position", sorted(POSITIONS))
@pytest.mark.parametrize("viewer", sorted(VIEWERS))
def test_every_cell_of_both_oceans_is_named_and_the_picture_is_mail_safe(position, viewer):
    html = drawn(GAME, POSITIONS[position](), VIEWERS[viewer])
    assert_mail_safe(html)
    assert set(cells(html)) == {f"{seat}:{name}" for seat in ("Blue", "Red") for name in NAMES}


def background(cell_html: str) -> str:
    return cell_html.split("background:")[-1].split(";")[0].split('"')[0]


def test_hits_misses_ships_and_the_last_shot_in_their_colours():
    found = cells(drawn(GAME, mid_game(), BLUE))
    # Red's shots at Blue's fleet: A1 hit the Carrier, D5 missed, B6 (the last) missed.
    assert background(found["Blue:A1"]) == RED
    assert background(found["Blue:D5"]) == SPLASH
    assert f"3px solid {LAST_BACKGROUND}" in found["Blue:B6"]
    assert background(found["Blue:B6"]) == SPLASH
    assert sum(LAST_BACKGROUND in cell for cell in found.values()) == 1  # one last shot
    # Blue's own ships, with their letters; open water is the ocean's own.
    assert background(found["Blue:C3"]) == RED  # Red hit the Battleship there
    assert background(found["Blue:D3"]) == HULL and found["Blue:D3"].endswith(">B</td>")
    assert background(found["Blue:J1"]) != HULL and "background" not in found["Blue:J1"]
    # Blue's shots at Red: I9 sank the Destroyer (a hit), E5 missed; no Red ship is drawn.
    assert background(found["Red:I9"]) == RED and background(found["Red:E5"]) == SPLASH
    assert not any(HULL in cell for name, cell in found.items() if name.startswith("Red:"))
    assert WATER in cells(drawn(GAME, mid_game(), BLUE))["Blue:J1"] or WATER in looks(
        drawn(GAME, mid_game(), BLUE))  # the oceans' background, under open water


def test_the_last_shot_is_marked_where_it_fell_for_every_viewer():
    state = replay_texts(help_example()[:-1])  # Blue's I9 was the last shot
    for viewer in VIEWERS.values():
        found = cells(drawn(GAME, state, viewer))
        marked = [name for name, cell in found.items() if LAST_BACKGROUND in cell]
        assert marked == ["Red:I9"]


def test_no_ship_of_the_other_fleet_is_drawn_before_the_end_and_both_after():
    for viewer in VIEWERS.values():
        found = cells(drawn(GAME, mid_game(), viewer))
        hulls = {name.split(":")[0] for name, cell in found.items() if HULL in cell}
        assert hulls == (set() if viewer is None else {("Blue", "Red")[viewer]})
        found = cells(drawn(GAME, resigned(), viewer))
        hulls = {name.split(":")[0] for name, cell in found.items() if HULL in cell}
        assert hulls == {"Blue", "Red"}


def test_the_caption_says_what_the_text_board_says():
    html = drawn(GAME, mid_game(), BLUE)
    assert "Last shot: by Red at B6 (move 14): a miss." in html
    assert "Blue sank Red&#x27;s Destroyer." in html
    assert "Your shots at Red" in html and "Your fleet (Blue)" in html
    assert html.index("Your shots at Red") < html.index("Your fleet (Blue)")  # target above
