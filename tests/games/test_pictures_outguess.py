"""Outguess's board picture: the pieces and their sides, the last turn, and no guess shown
to anyone the text hides it from."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from pbm.games.base import Outcome
from pbm.games.kit import DARK, LAST, LAST_TINT, LIGHT, MINE
from pbm.games.outguess.game import GAME, OutguessState, help_worked_turn
from pbm.games.outguess.picture import ARROW
from tests.browser.pages import page
from tests.games.pictures import assert_mail_safe, cells, drawn, looks
from tests.games.test_outguess import NEAR_THE_END, position, sq

WHITE, BLACK = 0, 1
VIEWERS = {"white": WHITE, "black": BLACK, "spectator": None}
SQUARES = {f"{col}{row}" for col in "ABCDEFGH" for row in range(1, 9)}


def before() -> OutguessState:
    """The help page's worked turn, before White's line: Black has named C8 in secret."""
    return help_worked_turn()[0]


def after() -> OutguessState:
    """After White's line C8-D8, +C8h/D8, E8-E7, guess E2 (the named piece moved twice)."""
    return help_worked_turn()[1]


def won() -> OutguessState:
    """White steps B2-C2, then D2xD1 into Black's home row; Black had named D2."""
    state = position(NEAR_THE_END, allotment=3, guess="D2", reserves=(1, 0))
    return GAME.play(state, WHITE, GAME.parse(state, WHITE, "B2-C2, D2-D1"))


POSITIONS = {"before": before, "after": after, "won": won}
GOLDEN = [("before", "black"), ("before", "white"), ("after", "white"), ("after", "black"),
          ("after", "spectator"), ("won", "spectator")]


@pytest.mark.parametrize(("name", "viewer"), GOLDEN)
def test_picture_reads_as_pinned(name: str, viewer: str, golden) -> None:
    html = drawn(GAME, POSITIONS[name](), VIEWERS[viewer])
    # In a page with the rules of its classes, so that the file opens in a browser as mailed.
    golden(f"outguess_picture_{name}_{viewer}", page(html), suffix=".html")


@pytest.mark.parametrize("name", sorted(POSITIONS))
@pytest.mark.parametrize("viewer", sorted(VIEWERS))
def test_every_square_is_a_named_cell_and_the_picture_is_safe_in_mail(name, viewer):
    html = drawn(GAME, POSITIONS[name](), VIEWERS[viewer])
    assert_mail_safe(html)
    assert set(cells(html)) == SQUARES


def test_pieces_show_their_owner_and_the_way_their_side_lets_them_step():
    board = cells(drawn(GAME, after(), None))
    # render() shows Wh on C8 (the drop) and E7, Wt on D8, Bh on E2, Bt on A1.
    text = GAME.render(after(), None)
    assert "8   Wt  Wt  Wh  Wt  .   Wt  Wt  Wt  8" in text
    assert f"background:{LIGHT}" in board["C8"] and ARROW[True] in board["C8"]
    assert f"background:{LIGHT}" in board["D8"] and ARROW[False] in board["D8"]
    assert f"background:{DARK}" in board["E2"] and ARROW[True] in board["E2"]
    assert f"background:{DARK}" in board["A1"] and ARROW[False] in board["A1"]
    assert "border-radius" not in board["E8"] and "border-radius" not in board["D4"]


def test_the_last_turn_is_marked_where_its_steps_and_drops_went():
    board = cells(drawn(GAME, after(), None))
    for square in ("C8", "D8", "E8", "E7"):  # C8-D8, +C8h/D8, E8-E7
        assert LAST_TINT in board[square], square
    for square in ("C8", "D8", "E7"):  # pieces arrived there; E8 was left empty
        assert f"2px solid {LAST}" in board[square], square
    assert LAST_TINT not in board["E2"] and LAST not in board["B8"]
    # The first guess moves nothing, so nothing is marked.
    assert LAST_TINT not in looks(drawn(GAME, GAME.play(GAME.start({}, 0), BLACK, GAME.parse(
        GAME.start({}, 0), BLACK, "guess E8")), None))


def test_a_pending_guess_is_outlined_for_the_guesser_alone():
    for state, guesser, square in ((before(), BLACK, "C8"), (after(), WHITE, "E2")):
        for viewer in (WHITE, BLACK, None):
            html = drawn(GAME, state, viewer)
            if viewer == guesser:
                assert MINE in cells(html)[square]
                assert f"Your secret guess for this turn: the piece on {square}." in html
            else:
                assert MINE not in looks(html) and "guess for this turn" not in html


def test_the_named_piece_is_shown_to_everyone_once_the_game_ends():
    for viewer in VIEWERS.values():
        html = drawn(GAME, won(), viewer)
        assert MINE in cells(html)["D2"]  # the square the named piece stood on
        assert "Revealed: for that turn Black had named the piece on D2." in html
    resigned = GAME.conclude(after(), Outcome(frozenset({BLACK}), "White resigned."))
    assert MINE in cells(drawn(GAME, resigned, None))["E2"]


def test_the_last_turns_squares_survive_a_snapshot_and_old_snapshots_still_load():
    state = after()
    data = json.loads(json.dumps(GAME.encode(state)))
    assert (data["left"], data["reached"]) == (["C8", "E8"], ["C8", "D8", "E7"])
    assert GAME.decode(data) == state
    old = {key: value for key, value in data.items() if key not in ("left", "reached")}
    assert GAME.decode(old) == replace(state, left=frozenset(), reached=frozenset())
    assert state.left == {sq("C8"), sq("E8")}


# ----- secrets ---------------------------------------------------------------------------------


def changes(state: OutguessState, twin: OutguessState, viewer: int | None) -> tuple[bool, bool]:
    """Whether the text and the picture tell `state` and `twin` apart for `viewer`."""
    return (GAME.render(state, viewer) != GAME.render(twin, viewer),
            drawn(GAME, state, viewer) != drawn(GAME, twin, viewer))


def twins(state: OutguessState) -> list[OutguessState]:
    """The same position with another piece named for this turn, or for the last one."""
    found = []
    if state.guess is not None:
        others = [s for s, p in enumerate(state.board)
                  if p is not None and p.owner == state.mover and s != state.guess]
        found += [replace(state, guess=square) for square in others[:1]]
    if state.last is not None:
        other = (state.last.guess + 1) % 64
        found.append(replace(state, last=replace(state.last, guess=other)))
    return found


@pytest.mark.parametrize("seed", range(5))
def test_a_guess_shows_in_the_picture_exactly_where_the_text_shows_it(seed):
    rng = random.Random(seed)
    state = GAME.start({}, seed)
    seen = {"hidden": 0, "shown": 0}
    for _ in range(60):
        for twin in twins(state):
            for viewer in (WHITE, BLACK, None):
                text, picture = changes(state, twin, viewer)
                assert picture == text, (viewer, GAME.encode(state))
                seen["shown" if picture else "hidden"] += 1
        if GAME.result(state) is not None:
            break
        seat = min(GAME.to_move(state))
        state = GAME.play(state, seat, GAME.random_move(state, seat, rng))
    assert seen["hidden"] and seen["shown"]
    if GAME.result(state) is None:  # a resignation now reveals the pending guess
        ended = GAME.conclude(state, Outcome(frozenset({WHITE}), "Black resigned."))
        for twin in twins(ended)[:1]:
            assert all(changes(ended, twin, viewer) == (True, True) for viewer in (0, 1, None))
