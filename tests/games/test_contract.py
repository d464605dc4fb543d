"""What every registered game owes the server, checked the same way for all of them."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbm.games import registry
from pbm.games.base import UserError
from tests.games.playout import random_playout

GAMES = registry.names()


def positions(name: str) -> list[tuple[object, int]]:
    """A few positions of a game (start, early, middle) with a seat to move in each."""
    game = registry.get(name)
    found = []
    for seed in range(3):
        rng = random.Random(seed)
        state = game.start(game.parse_options([]), seed)
        for _ in range(rng.randrange(0, 12)):
            if game.result(state) is not None:
                break
            seat = min(game.to_move(state))
            state = game.play(state, seat, game.random_move(state, seat, rng))
        if game.result(state) is None:
            found.append((state, min(game.to_move(state))))
    return found


TEXT = st.one_of(
    st.text(max_size=60),
    st.text(alphabet="ABCDEFGHIJKLMNOPQRSabcs0123456789:-@,*#/+ hxtWBYguess", max_size=40),
)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXT)
def test_any_text_is_a_move_or_a_clear_refusal(name, text):
    """A player can mail anything: the answer is a move or a UserError, never a crash."""
    game = registry.get(name)
    for state, seat in positions(name):
        try:
            move = game.parse(state, seat, text)
        except UserError as refusal:
            message = str(refusal)
            assert message and len(message) < 600 and "Traceback" not in message
        else:
            assert game.parse(state, seat, game.notation(move)) == move or game.notation(
                game.parse(state, seat, game.notation(move))
            ) == game.notation(move)


@pytest.mark.parametrize("name", GAMES)
def test_random_games_end_and_replay(name):
    game = registry.get(name)
    for seed in range(5):
        playout = random_playout(game, seed, max_moves=5_000)
        assert playout.outcome is not None, f"{name} seed {seed} did not end"


@pytest.mark.parametrize("name", GAMES)
def test_help_page_is_in_the_pbmserv_layout(name):
    page = registry.get(name).help_page()
    title = registry.get(name).info.title
    assert page.splitlines()[0] == f"Help For {title}"
    for section in ("Introduction", "Rules", "Move notation", "References"):
        assert section in page.splitlines(), f"{name} help has no {section} section"
    assert f"{name} challenge" in page
    assert all(len(line) <= 78 for line in page.splitlines()), "help lines fit a mail client"


@pytest.mark.parametrize("name", GAMES)
def test_a_game_that_hides_anything_says_so(name):
    """`info.hidden` is what the server checks before a preview or a conditional move
    would let a player learn a secret: a game whose move list or board shows one viewer
    what it does not show another while it runs must declare it."""
    game = registry.get(name)
    hides = False
    for seed in range(5):
        rng = random.Random(seed)
        state = game.start(game.parse_options([]), seed)
        for _ in range(60):
            if game.result(state) is not None:
                break
            seat = rng.choice(sorted(game.to_move(state)))
            move = game.random_move(state, seat, rng)
            seen = {game.move_text(state, seat, move, viewer)
                    for viewer in [None, *range(game.info.players)]}
            state = game.play(state, seat, move)
            boards = {game.render(state, viewer) for viewer in range(game.info.players)}
            # Boards drawn for different seats may differ only in orientation: compare
            # what the public sees with what each seat sees, as sets of characters.
            public = sorted(game.render(state, None).replace(" ", ""))
            hides |= len(seen) > 1 or any(sorted(b.replace(" ", "")) != public for b in boards)
    assert hides == game.info.hidden, (name, hides)
