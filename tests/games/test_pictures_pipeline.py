"""Pipeline's board picture: what it draws for each viewer, and that it keeps every secret."""

from __future__ import annotations

import random

import pytest

from pbm.games.base import Outcome
from pbm.games.kit import LAST, LAST_TINT
from pbm.games.pipeline import GAME, Reading
from pbm.games.pipeline.flow import CELLS
from pbm.games.pipeline.picture import HOLE, PIPE, READING, SLOT
from pbm.games.pipeline.state import State
from tests.games.pictures import assert_mail_safe, cells, drawn
from tests.games.test_pipeline import (
    TAIL_PIPE,
    play,
    play_turn,
    scrubbed,
    started,
)

HEAD, TAIL = 0, 1
VIEWERS = {"head": HEAD, "tail": TAIL, "spectator": None}


def setup() -> State:
    """Coins on B2 and C4, Tail's pipeline sent, Head's not yet."""
    state = GAME.start({}, 0)
    return play(play(play(state, 0, "B2"), 1, "C4"), 1, TAIL_PIPE)


def mid_game() -> State:
    """Two probes (white pawns on A4 and C3) and Head's wrong guess."""
    state = play_turn(play_turn(started(), "Y@A2,W@A4"), "B@B3,W@C3")
    return play_turn(state, "guess A1,A2,A4")


def probed() -> State:
    """Tail's probe after the wrong guess: the yellow pawn goes A2 to D1, a white to B2."""
    return play_turn(mid_game(), "A2-D1,W@B2")


def finished() -> State:
    """A probe each (Head owes one since the wrong guess), then Head names Tail's holes A3,
    B4 and C3 and wins: both pipelines are shown to all."""
    state = play_turn(play_turn(probed(), "W@D2,B@A1"), "D2-D3,A1-B1")
    return play_turn(state, "guess A3,B4,C3")


POSITIONS = {"setup": setup, "mid_game": mid_game, "probed": probed, "finished": finished}
GOLDEN = [
    ("setup", "tail"), ("setup", "head"),
    ("mid_game", "head"), ("mid_game", "tail"), ("mid_game", "spectator"),
    ("probed", "spectator"), ("finished", "spectator"),
]


@pytest.mark.parametrize(("position", "viewer"), GOLDEN)
def test_picture_reads_as_pinned(position: str, viewer: str, golden) -> None:
    html = drawn(GAME, POSITIONS[position](), VIEWERS[viewer])
    golden(f"pipeline_picture_{position}_{viewer}", html, suffix=".html")


@pytest.mark.parametrize("position", sorted(POSITIONS))
@pytest.mark.parametrize("viewer", sorted(VIEWERS))
def test_every_square_is_a_named_cell_and_the_picture_is_safe_in_mail(position, viewer):
    html = drawn(GAME, POSITIONS[position](), VIEWERS[viewer])
    assert_mail_safe(html)
    names = set(cells(html))
    if position != "setup":
        boards = ["", "Head:", "Tail:"]
    else:  # before play, only a pipeline sent has a board, and only for its owner
        boards = ["", "Tail:"] if viewer == "tail" else [""]
    assert names == {board + square for board in boards for square in CELLS}


def centre(inner: str) -> str:
    """The style of a pipeline square's centre: the middle cell of its 3x3 table, or the one
    span a square draws when no pipe leaves it."""
    if "<tr>" not in inner:
        return inner
    rows = inner.split("<tr>")[1:]
    return rows[1].split("<td ")[2]


def test_the_pawn_board_shows_coins_and_pawns_and_rings_the_last_probe():
    board = cells(drawn(GAME, probed(), None))
    assert "#d9a521" in board["B2"] and "#aeb5bd" in board["C4"]  # gold head, silver tail
    assert "<b" in board["C4"] and ">T</b>" in board["C4"]  # no pawn hides the tail coin
    assert "#2f6bd8" in board["B3"] and "#f3c623" in board["D1"]  # blue, yellow pawns
    # The yellow pawn left A2 for D1, and a white pawn came to B2: both ringed, both tinted.
    assert f"2px solid {LAST}" in board["D1"] and f"2px solid {LAST}" in board["B2"]
    assert LAST_TINT in board["A2"] and LAST_TINT in board["D1"]
    assert LAST not in board["A4"] and LAST_TINT not in board["A4"]


def test_readings_are_those_render_shows_on_each_pipeline():
    state = mid_game()
    text = GAME.render(state, None)
    assert "on Head's pipeline    miss    empty" in text
    assert "on Tail's pipeline    empty   blue" in text
    board = cells(drawn(GAME, state, None))
    wanted = {"Head:A4": Reading.MISS, "Head:C3": Reading.EMPTY,
              "Tail:A4": Reading.EMPTY, "Tail:C3": Reading.BLUE}
    for name, reading in wanted.items():
        assert READING[reading] in centre(board[name]), name
    for name in ("Head:B3", "Tail:B3", "Head:D1"):
        assert "border-radius" not in centre(board[name])  # no white pawn, no reading


def test_the_owner_alone_sees_the_pipe_and_its_holes_while_the_game_runs():
    state = mid_game()
    head, spectator = cells(drawn(GAME, state, HEAD)), cells(drawn(GAME, state, None))
    # Head's pipeline B2-B3*-C3*-D3-D4*-C4: a pipe through D3, holes on B3 and C3.
    assert PIPE in centre(head["Head:D3"]) and HOLE in centre(head["Head:B3"])
    assert SLOT in centre(head["Head:A3"])
    for board in (head, spectator):
        for square in CELLS:
            assert PIPE not in board[f"Tail:{square}"] and HOLE not in board[f"Tail:{square}"]
    for square in CELLS:
        assert PIPE not in spectator[f"Head:{square}"]


def test_both_pipes_are_drawn_for_everyone_at_the_end():
    for viewer in VIEWERS.values():
        board = cells(drawn(GAME, finished(), viewer))
        assert HOLE in centre(board["Head:D4"]) and PIPE in centre(board["Head:D3"])
        # Tail's pipeline B2-A2-A3*-A4-B4*-B3-C3*-C4 with its holes A3, B4 and C3.
        for hole in ("A3", "B4", "C3"):
            assert HOLE in centre(board[f"Tail:{hole}"])
        assert PIPE in centre(board["Tail:A2"]) and SLOT in centre(board["Tail:D1"])


def test_a_guess_is_ringed_on_the_pipeline_it_names_holes_of():
    board = cells(drawn(GAME, mid_game(), TAIL))
    html = drawn(GAME, mid_game(), TAIL)
    assert "Head guessed A1,A2,A4, wrong." in html
    for square in ("A1", "A2", "A4"):
        assert LAST in board[f"Tail:{square}"] and LAST not in board[f"Head:{square}"]
    assert "Head guessed A3,B4,C3, right." in drawn(GAME, finished(), None)


def test_the_last_coin_is_marked_while_no_pipeline_is_in():
    state = play(GAME.start({}, 0), 0, "B2")
    assert LAST in cells(drawn(GAME, state, None))["B2"]
    state = play(state, 1, "C4")
    board = cells(drawn(GAME, state, HEAD))
    assert LAST in board["C4"] and LAST not in board["B2"]


# ----- secrets ---------------------------------------------------------------------------------


def changes(state: State, twin: State, viewer: int | None) -> tuple[bool, bool]:
    """Whether the text and the picture tell `state` and `twin` apart for `viewer`."""
    return (GAME.render(state, viewer) != GAME.render(twin, viewer),
            drawn(GAME, state, viewer) != drawn(GAME, twin, viewer))


@pytest.mark.parametrize("seed", range(6))
def test_a_pipeline_shows_in_the_picture_exactly_where_the_text_shows_it(seed):
    """Twins that differ only in one pipeline (the readings kept) look alike in the picture
    to everyone the text hides it from, and differ wherever the text shows it."""
    rng = random.Random(seed)
    state = GAME.start({}, seed)
    seen = {"hidden": 0, "shown": 0}
    while True:
        for owner in (HEAD, TAIL):
            if state.pipes[owner] is None:
                continue
            twin = scrubbed(state, owner, rng)
            for viewer in (HEAD, TAIL, None):
                text, picture = changes(state, twin, viewer)
                assert picture == text, (owner, viewer, state.phase)
                seen["shown" if picture else "hidden"] += 1
        if GAME.result(state) is not None:
            break
        seat = rng.choice(sorted(GAME.to_move(state)))
        state = GAME.play(state, seat, GAME.random_move(state, seat, rng))
    assert seen["hidden"] and seen["shown"]
    # At the end both pipelines are shown to everyone, in the picture as in the text.
    for owner in (HEAD, TAIL):
        twin = scrubbed(state, owner, rng)
        assert all(changes(state, twin, viewer) == (True, True) for viewer in (0, 1, None))


def test_a_resigned_game_reveals_both_pipelines_in_the_picture_too():
    state = mid_game()
    ended = GAME.conclude(state, Outcome(frozenset({TAIL}), "Head resigned."))
    board = cells(drawn(GAME, ended, None))
    assert HOLE in centre(board["Head:B3"]) and HOLE in centre(board["Tail:B4"])
