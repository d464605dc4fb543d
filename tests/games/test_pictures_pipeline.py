"""Pipeline's board picture: what it draws for each viewer, and that it keeps every secret."""

from __future__ import annotations

import random
import re

import pytest

from pbm.games.base import Outcome
from pbm.games.kit import BOARD, LAST, LAST_TINT
from pbm.games.pipeline import GAME, Reading
from pbm.games.pipeline.flow import CELLS
from pbm.games.pipeline.picture import ARM, HOLE, PIPE, READING, SLOT
from pbm.games.pipeline.state import State
from tests.browser.pages import page
from tests.games.pictures import MAX_LINE, assert_mail_safe, cells, drawn
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
    # As a page with the rules of its classes, which a browser shows as a mail would.
    golden(f"pipeline_picture_{position}_{viewer}", page(html), suffix=".html")


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


# A board mail's whole budget is 16 KB, its text and the document round the picture
# included: the picture of the busiest position stays well inside its share.
MAX_PICTURE = 8_000


@pytest.mark.parametrize("seed", range(4))
def test_every_picture_of_a_game_is_lean_and_in_short_lines(seed):
    """After every move, for every viewer: safe in mail, within MAX_PICTURE bytes, and no
    line past what a mail may hold (so the HTML part goes as it is, not quoted-printable)."""
    rng = random.Random(seed)
    state = GAME.start({}, seed)
    largest = 0
    while True:
        for viewer in VIEWERS.values():
            html = drawn(GAME, state, viewer)
            assert_mail_safe(html)
            mailed = html.encode("ascii", "xmlcharrefreplace")
            assert max(map(len, mailed.split(b"\n"))) <= MAX_LINE
            largest = max(largest, len(mailed))
        if GAME.result(state) is not None:
            break
        seat = rng.choice(sorted(GAME.to_move(state)))
        state = GAME.play(state, seat, GAME.random_move(state, seat, rng))
    assert largest <= MAX_PICTURE, largest


def styles(html: str) -> list[dict[str, str]]:
    """The inline styles in `html` (as looks() writes them), in order, each as the
    properties it ends with: of two declarations of one property, the later wins."""
    found = []
    for style in re.findall(r'style="([^"]*)"', html):
        found.append({name.strip(): value.strip() for name, _, value in
                      (part.partition(":") for part in style.split(";"))})
    return found


def centre(square: str) -> list[dict[str, str]]:
    """The styles of a pipeline square's centre and of what it holds (a disc, a letter): the
    one span a square draws where no pipe leaves it, or the middle between the pipe's arms
    (the arms up and down, and the square's own cell, left out)."""
    inside = square[square.index(">") + 1:]
    return [style for style in styles(inside) if style.get("height") != f"{ARM}px"]


def fill(square: str) -> str:
    """The colour a pipeline square's centre shows."""
    return centre(square)[0]["background"]


def mark(square: str) -> dict[str, str] | None:
    """The style of the disc on a pipeline square's centre (a reading, a guess), if any."""
    discs = [style for style in centre(square) if style.get("border-radius") == "50%"]
    assert len(discs) <= 1, square
    return discs[0] if discs else None


def test_the_pawn_board_shows_coins_and_pawns_and_rings_the_last_probe():
    board = cells(drawn(GAME, probed(), None))
    square = {name: styles(html)[0] for name, html in board.items()}  # the square's own
    pawn = {name: styles(html)[1] for name, html in board.items() if "<span" in html}
    assert square["B2"]["background"] == "#d9a521"  # the gold head coin, under a pawn
    assert square["C4"]["background"] == "#aeb5bd"  # the silver tail coin
    assert "<b" in board["C4"] and ">T</b>" in board["C4"]  # no pawn hides the tail coin
    assert pawn["B3"]["background"] == "#2f6bd8" and pawn["D1"]["background"] == "#f3c623"
    # The yellow pawn left A2 for D1, and a white pawn came to B2: both ringed, both tinted.
    assert pawn["D1"]["border"] == pawn["B2"]["border"] == f"2px solid {LAST}"
    assert square["A2"]["background"] == square["D1"]["background"] == LAST_TINT
    assert pawn["A4"]["border"] != f"2px solid {LAST}" and square["A4"]["background"] == BOARD


def test_readings_are_those_render_shows_on_each_pipeline():
    state = mid_game()
    text = GAME.render(state, None)
    assert "on Head's pipeline    miss    empty" in text
    assert "on Tail's pipeline    empty   blue" in text
    board = cells(drawn(GAME, state, None))
    wanted = {"Head:A4": Reading.MISS, "Head:C3": Reading.EMPTY,
              "Tail:A4": Reading.EMPTY, "Tail:C3": Reading.BLUE}
    for name, reading in wanted.items():
        found = mark(board[name])
        assert found is not None and found["background"] == READING[reading], name
    for name in ("Head:B3", "Tail:B3", "Head:D1"):
        assert mark(board[name]) is None  # no white pawn, no reading


def test_the_owner_alone_sees_the_pipe_and_its_holes_while_the_game_runs():
    state = mid_game()
    head, spectator = cells(drawn(GAME, state, HEAD)), cells(drawn(GAME, state, None))
    # Head's pipeline B2-B3*-C3*-D3-D4*-C4: a pipe through D3, holes on B3 and C3.
    assert fill(head["Head:D3"]) == PIPE and fill(head["Head:B3"]) == HOLE
    assert fill(head["Head:A3"]) == SLOT
    for board in (head, spectator):
        for square in CELLS:
            assert PIPE not in board[f"Tail:{square}"] and HOLE not in board[f"Tail:{square}"]
    for square in CELLS:
        assert PIPE not in spectator[f"Head:{square}"]


def test_both_pipes_are_drawn_for_everyone_at_the_end():
    for viewer in VIEWERS.values():
        board = cells(drawn(GAME, finished(), viewer))
        assert fill(board["Head:D4"]) == HOLE and fill(board["Head:D3"]) == PIPE
        # Tail's pipeline B2-A2-A3*-A4-B4*-B3-C3*-C4 with its holes A3, B4 and C3.
        for hole in ("A3", "B4", "C3"):
            assert fill(board[f"Tail:{hole}"]) == HOLE
        assert fill(board["Tail:A2"]) == PIPE and fill(board["Tail:D1"]) == SLOT


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
    assert fill(board["Head:B3"]) == HOLE and fill(board["Tail:B4"]) == HOLE
