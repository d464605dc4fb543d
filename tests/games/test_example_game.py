"""Hilo, the example game, against the contract: each method once, then random playouts."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbm.games.base import Game, IllegalMove, InvalidMove, Outcome, UserError
from pbm.games.bots import STRENGTHS, think
from tests.games.example_game import GAME, HIDER, SEEKER, HiloState
from tests.games.playout import random_playout, replay


def played(*moves: str) -> HiloState:
    """Hider's number, then the Seeker's guesses."""
    return replay(GAME, [(HIDER if i == 0 else SEEKER, m) for i, m in enumerate(moves)])


def test_the_hider_starts_then_the_seeker_guesses():
    start = GAME.start(GAME.parse_options([]), seed=0)
    assert GAME.to_move(start) == {HIDER}
    assert GAME.to_move(played("6")) == {SEEKER}
    assert GAME.to_move(played("6", "3", "8")) == {SEEKER}


def test_parse_reads_a_number_and_refuses_the_rest():
    state = played("6", "3")
    assert GAME.parse(state, SEEKER, " 8 ") == 8
    with pytest.raises(InvalidMove, match="Send a number from 1 to 9, not 'eight'"):
        GAME.parse(state, SEEKER, "eight")
    with pytest.raises(IllegalMove, match="10 is not a number from 1 to 9"):
        GAME.parse(state, SEEKER, "10")
    with pytest.raises(IllegalMove, match="You guessed 3 already"):
        GAME.parse(state, SEEKER, "3")


def test_the_seeker_wins_by_naming_the_number_the_hider_after_three_misses():
    assert GAME.result(played("6", "3")) is None
    found = GAME.result(played("6", "3", "6"))
    assert found == Outcome(frozenset({SEEKER}), "The Seeker found 6.")
    missed = GAME.result(played("6", "3", "8", "7"))
    assert missed == Outcome(frozenset({HIDER}), "The Seeker did not find 6 in 3 guesses.")
    assert GAME.to_move(played("6", "3", "6")) == frozenset()


def test_the_number_shows_only_to_the_hider_until_the_end():
    state = played("6", "3", "8")
    assert GAME.render(state, HIDER) == (
        "Hidden number: 6\nGuesses: 3 higher, 8 lower\nGuesses left: 1\n"
    )
    for viewer in (SEEKER, None):
        assert GAME.render(state, viewer).startswith("Hidden number: ?\n")
        assert "6" not in GAME.render(state, viewer)
    assert GAME.render(played("6", "3", "8", "7"), None).startswith("Hidden number: 6\n")
    resigned = GAME.conclude(state, Outcome(frozenset({HIDER})))
    assert GAME.render(resigned, SEEKER).startswith("Hidden number: 6\n")


def test_the_move_list_hides_the_number_from_all_but_the_hider():
    start = GAME.start({}, 0)
    assert GAME.move_text(start, HIDER, 6, HIDER) == "6"
    assert GAME.move_text(start, HIDER, 6, SEEKER) == "..."
    assert GAME.move_text(start, HIDER, 6, None) == "..."
    assert GAME.move_text(played("6"), SEEKER, 3, None) == "3"


def test_the_help_page_draws_its_figure_with_render():
    page = GAME.help_page()
    assert type(GAME).help_page is Game.help_page
    assert page.startswith("Help For Hilo\n")
    assert "    Hidden number: ?\n    Guesses: 3 higher, 8 lower\n    Guesses left: 1\n" in page
    assert "[[" not in page and all(len(line) < 78 for line in page.splitlines())


@pytest.mark.parametrize("seed", range(20))
def test_random_games_end_and_survive_storage(seed):
    assert random_playout(GAME, seed).outcome is not None


@given(text=st.text(max_size=40))
def test_any_text_is_a_guess_or_a_clear_refusal(text):
    try:
        GAME.parse(played("6"), SEEKER, text)
    except UserError as refusal:
        assert 0 < len(str(refusal)) < 100


def test_a_sixth_game_gets_bots_from_its_seat_view():
    """Hilo defines seat_view and sample_state (a few lines): every strength then plays it,
    and a bot's move depends on what its seat sees, never on the secret itself."""
    state = GAME.play(GAME.start({}, 0), HIDER, 6)
    state = GAME.play(state, SEEKER, 3)  # "higher": 4 to 9 are left
    twin = GAME.play(GAME.play(GAME.start({}, 0), HIDER, 8), SEEKER, 3)
    assert GAME.seat_view(state, SEEKER) == GAME.seat_view(twin, SEEKER)
    assert GAME.seat_view(state, HIDER) != GAME.seat_view(twin, HIDER)
    for strength in STRENGTHS:
        for seed in range(5):
            move = think(GAME, state, SEEKER, strength, seed, 5.0)
            assert move == think(GAME, twin, SEEKER, strength, seed, 5.0)
            assert GAME.parse(state, SEEKER, GAME.notation(move)) == move
    rng = random.Random(1)
    sampled = {GAME.sample_state(GAME.seat_view(state, SEEKER), SEEKER, rng).secret
               for _ in range(200)}
    assert sampled == {4, 5, 6, 7, 8, 9}  # every number the answer allows, and no other
