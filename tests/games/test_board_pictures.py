"""The pictures of Loophole, Trou and Synapse-Ice: golden positions, what each cell shows,
the last move highlighted, and snapshots stored before the states kept their last move."""

from __future__ import annotations

import json
import re

import pytest

from pbm.games.base import AnyGame
from pbm.games.kit import BOARD, DARK, GREEN, LAST, LAST_BACKGROUND, LIGHT, RED
from pbm.games.loophole.board import CELL_COUNT, WINDOW_OF, cell_name, named
from pbm.games.loophole.game import GAME as LOOPHOLE
from pbm.games.loophole.game import cells_from_rows, new_state
from pbm.games.synapse_ice.game import GAME as SYNAPSE
from pbm.games.synapse_ice.game import SAMPLE_OPENING, SAMPLE_PLAY
from pbm.games.trou.game import GAME as TROU
from pbm.games.trou.game import HELP_EXAMPLE_MOVES
from pbm.games.trou.picture import PIT
from tests.browser.pages import page
from tests.games.pictures import drawn, looks, loophole_named
from tests.games.playout import replay
from tests.games.test_loophole import figure_rows

_CELL = re.compile(r'<td data-cell="(\w+)" style="([^"]*)">(.*?)</td>')


def cells_of(html: str) -> dict[str, tuple[str, str]]:
    """data-cell name -> (the cell's style, what is inside it), its classes and those of
    what is in it written out as inline styles (looks())."""
    found = {m[1]: (m[2], m[3]) for m in _CELL.finditer(looks(html))}
    assert len(found) == html.count("data-cell="), "a cell this test cannot read"
    return found


def play(game: AnyGame, moves: tuple[str, ...] | list[str]) -> object:
    """The position after `moves`, the seats taking turns from seat 0."""
    return replay(game, [(i % game.info.players, text) for i, text in enumerate(moves)])


def check_same_for_every_viewer(game: AnyGame, state: object) -> str:
    """These games hide nothing: every seat and a spectator see one picture."""
    pictures = {drawn(game, state, viewer) for viewer in (None, *range(game.info.players))}
    assert len(pictures) == 1
    (html,) = pictures
    assert html is not None
    return html


# ----- Loophole ------------------------------------------------------------------------------
LOOPHOLE_OPENING = ["K10", "J11", "L9"]  # Black K10, White J11, Black L9 (the last stone)


def loophole_positions() -> dict[str, object]:
    return {
        "start": LOOPHOLE.start({}, 0),
        "opening": play(LOOPHOLE, LOOPHOLE_OPENING),
        "fig7": new_state(cells_from_rows(figure_rows(7))),  # Black's win, from the source
    }


@pytest.mark.parametrize("name", ["start", "opening", "fig7"])
def test_loophole_picture_golden(name: str, golden) -> None:
    state = loophole_positions()[name]
    golden(f"loophole_picture_{name}", page(check_same_for_every_viewer(LOOPHOLE, state)),
           suffix=".html")


def test_loophole_picture_has_every_cell_but_the_windows() -> None:
    cells = cells_of(loophole_named(drawn(LOOPHOLE, LOOPHOLE.start({}, 0), None)))
    expected = {cell_name(c) for c in range(CELL_COUNT) if c not in WINDOW_OF}
    assert set(cells) == expected and len(cells) == 343
    assert "M5" not in cells and "G15" not in cells


def test_loophole_picture_shows_stones_in_their_colours_and_rings_the_last() -> None:
    html = drawn(LOOPHOLE, play(LOOPHOLE, LOOPHOLE_OPENING), None)
    cells = cells_of(loophole_named(html))
    assert f"background:{DARK}" in cells["K10"][0]  # Black
    assert f"background:{LIGHT}" in cells["J11"][0]  # White
    assert f"background:{BOARD}" in cells["K11"][0]  # empty
    assert f"background:{DARK}" in cells["M4"][0] and f"background:{LIGHT}" in cells["L5"][0]
    ringed = [name for name, (style, _) in cells.items() if LAST in style]
    assert ringed == ["L9"]
    assert "Last stone: Black L9, ringed in red." in html


def test_loophole_picture_captions_the_loops_as_render_does() -> None:
    state = new_state(cells_from_rows(figure_rows(7)))
    html = drawn(LOOPHOLE, state, None)
    assert "Black loops: single node loop through C, single node loop through W1" in html
    assert "White loops: none" in html
    assert "Last stone" not in html  # a figure has no last move: nothing is ringed
    assert LAST not in looks(html)


# ----- Trou ----------------------------------------------------------------------------------
TROU_POSITIONS = {
    "start": (),
    "opening": ("1B2", "4C2", "2B1"),
    "finished": HELP_EXAMPLE_MOVES,  # the source's second scoring example: Red wins
}


@pytest.mark.parametrize("name", sorted(TROU_POSITIONS))
def test_trou_picture_golden(name: str, golden) -> None:
    state = play(TROU, TROU_POSITIONS[name])
    golden(f"trou_picture_{name}", page(check_same_for_every_viewer(TROU, state)),
           suffix=".html")


def test_trou_picture_numbers_each_pawn_in_its_colour_and_highlights_the_last() -> None:
    cells = cells_of(drawn(TROU, play(TROU, TROU_POSITIONS["opening"]), None))
    assert len(cells) == 9
    red_one, black_four, red_two = cells["B2"][1], cells["C2"][1], cells["B1"][1]
    assert f"background:{RED}" in red_one and ">1</span>" in red_one
    assert f"background:{DARK}" in black_four and ">4</span>" in black_four
    assert f"background:{RED}" in red_two and ">2</span>" in red_two
    highlighted = [name for name, (style, _) in cells.items() if LAST_BACKGROUND in style]
    assert highlighted == ["B1"]
    assert "</span>" not in cells["A1"][1].replace("</span>", "", 1)  # an empty hole only


def test_trou_picture_shows_the_pawns_left_then_the_hole_and_the_score() -> None:
    html = drawn(TROU, play(TROU, TROU_POSITIONS["opening"]), None)
    assert "Red pawns left:" in html and "Black pawns left:" in html
    left = html[html.index("Red pawns left:"):]
    assert [int(v) for v in re.findall(r">(\d)</span>", left)] == [3, 4, 1, 2, 3]
    final = drawn(TROU, play(TROU, HELP_EXAMPLE_MOVES), None)
    cells = cells_of(final)
    hole = [name for name, (_, inner) in cells.items() if PIT in inner]
    assert hole == ["C1"]  # render() prints it as ()
    assert "The hole is C1" in final and "pawns left" not in final
    assert "Red: 1 beside the hole, sum 2" in final
    assert "Black: 1 beside the hole, sum 4" in final


# ----- Synapse-Ice ---------------------------------------------------------------------------
SYNAPSE_POSITIONS = {
    "start": (),
    "sample": SAMPLE_OPENING + SAMPLE_PLAY[:1],  # the source's second diagram
    "end": SAMPLE_OPENING + SAMPLE_PLAY,  # the sample's final situation: Green is stuck
}


@pytest.mark.parametrize("name", sorted(SYNAPSE_POSITIONS))
def test_synapse_ice_picture_golden(name: str, golden) -> None:
    state = play(SYNAPSE, SYNAPSE_POSITIONS[name])
    golden(f"synapse_ice_picture_{name}", page(check_same_for_every_viewer(SYNAPSE, state)),
           suffix=".html")


def test_synapse_ice_picture_points_each_pyramid_and_marks_forced_and_last() -> None:
    state = play(SYNAPSE, SYNAPSE_POSITIONS["sample"])  # Green's 2-pointer C3:2E was last
    html = drawn(SYNAPSE, state, None)
    cells = cells_of(html)
    assert len(cells) == 30
    # A triangle made of borders: its coloured border is the base, opposite the tip.
    # A border of no colour of its own is drawn in the colour of the owner's class.
    for name, base, owner in (("C3", "border-left:25px solid;", GREEN),  # size 2, east
                              ("C4", "border-bottom:16px solid;", RED),  # size 1, north
                              ("C1", "border-top:34px solid;", GREEN)):  # size 3, south
        assert base in cells[name][1] and f"color:{owner}" in cells[name][1], name
        assert cells[name][1].count("solid;") == 1, name  # the other two are transparent
    forced = [name for name, (_, inner) in cells.items() if f"dashed {LAST}" in inner]
    assert forced == ["E3"]  # C3 + two squares east
    last = [name for name, (style, _) in cells.items() if LAST_BACKGROUND in style]
    assert last == ["C3"]
    assert "Red must play on E3" in html
    assert cells["A4"][1] == ""  # empty


def test_synapse_ice_picture_shows_both_stashes_and_how_the_game_ended() -> None:
    html = drawn(SYNAPSE, play(SYNAPSE, SYNAPSE_POSITIONS["end"]), None)
    state = play(SYNAPSE, SYNAPSE_POSITIONS["end"])
    outcome = SYNAPSE.result(state)
    assert outcome is not None and outcome.reason in html
    for seat, name in enumerate(("Red", "Green")):
        stash = html[html.index(f"{name} stash:"):]
        counts = [int(n) for n in re.findall(r"&times;(\d)", stash)[:3]]
        assert counts == [state.left(seat, size) for size in (1, 2, 3)]
    # The square the loser could not play from stays marked, as render() marks it [*].
    cells = cells_of(html)
    forced = [name for name, (_, inner) in cells.items() if f"dashed {LAST}" in inner]
    assert state.forced is not None and forced == [state.forced.name]
    assert "must play" not in html


# ----- snapshots stored before the last move was kept ------------------------------------
@pytest.mark.parametrize("game, moves", [
    (TROU, TROU_POSITIONS["opening"]),
    (SYNAPSE, SYNAPSE_POSITIONS["sample"]),
])
def test_a_snapshot_without_the_last_move_decodes_and_draws_no_highlight(game, moves) -> None:
    state = play(game, moves)
    data = json.loads(json.dumps(game.encode(state)))
    assert data.pop("last") == moves[-1].split(":")[0][-2:]
    old = game.decode(data)
    assert game.render(old, None) == game.render(state, None)
    assert LAST_BACKGROUND not in looks(drawn(game, old, None))
    assert LAST_BACKGROUND in looks(drawn(game, game.decode(game.encode(state)), None))


def test_loophole_snapshot_keeps_its_last_stone() -> None:
    state = play(LOOPHOLE, LOOPHOLE_OPENING)
    restored = LOOPHOLE.decode(json.loads(json.dumps(LOOPHOLE.encode(state))))
    assert restored.last == named("L9")
    assert drawn(LOOPHOLE, restored, None) == drawn(LOOPHOLE, state, None)
