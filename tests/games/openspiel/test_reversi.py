"""Reversi played move for move against OpenSpiel's othello: the mapping, the passes, the
early ends, and a few hundred whole games with no disagreement."""

from __future__ import annotations

import pytest

from pbm.games.reversi import GAME, PASS
from tests.games.openspiel.harness import play, play_many, replay
from tests.games.openspiel.reversi import (
    SPIEL_PASS,
    ReversiBridge,
    from_spiel,
    spiel_name,
    to_spiel,
)
from tests.games.test_reversi import PASSING_GAME, WIPEOUT_GAME

BRIDGE = ReversiBridge()


def test_every_square_and_the_pass_map_both_ways_as_openspiel_names_them():
    spiel = BRIDGE.spiel_game()
    state = spiel.new_initial_state()
    assert spiel.num_distinct_actions() == 65
    for move in [*range(64), PASS]:
        action = to_spiel(move)
        assert from_spiel(action) == move
        assert state.action_to_string(0, action) == spiel_name(action)
        assert spiel_name(action).upper() == GAME.notation(move).upper()
    assert to_spiel(PASS) == SPIEL_PASS


def test_the_start_and_its_four_moves_agree():
    state, spiel_state = replay(BRIDGE, [])
    assert BRIDGE.compare(state, spiel_state) is None
    assert sorted(spiel_state.legal_actions()) == sorted(
        to_spiel(m) for m in GAME.legal_moves(state, 0))
    assert spiel_state.current_player() == 0  # Black first in both


def test_both_see_whites_passes_and_the_early_end_alike():
    state, spiel_state = GAME.start({}, 0), BRIDGE.spiel_game().new_initial_state()
    for text in PASSING_GAME:
        assert BRIDGE.compare(state, spiel_state) is None, text
        (seat,) = GAME.to_move(state)
        if text == "pass":
            assert spiel_state.legal_actions() == [SPIEL_PASS]
        state, spiel_state = BRIDGE.step(state, spiel_state, seat,
                                         GAME.parse(state, seat, text))
    assert BRIDGE.compare(state, spiel_state) is None
    assert spiel_state.is_terminal() and spiel_state.returns() == [1.0, -1.0]
    assert GAME.result(state).winners == frozenset({0})


def test_both_end_the_game_when_a_colour_is_wiped_out():
    state, spiel_state = replay(BRIDGE, WIPEOUT_GAME)
    assert BRIDGE.compare(state, spiel_state) is None
    assert spiel_state.is_terminal() and state.white == 0


def test_no_documented_difference():
    # None found in the 10,000-game run (python -m tests.games.openspiel.run reversi):
    # the same start, the same outflanking, a pass only without a legal move, the end when
    # neither can move, the winner by disc count. The WOF gives the empty squares to the
    # winner; that changes the score, never the winner, which is all OpenSpiel returns.
    assert BRIDGE.differences == ()


def test_twenty_games_agree_move_for_move():
    tally = play_many(BRIDGE, range(20))
    assert tally.disagreements == [], [str(d) for d in tally.disagreements]
    assert tally.games == 20 and tally.plies > 20 * 40


def test_a_biased_game_plays_passes():
    # Seed 19554 is the passing game of the rules' tests, played by the biased chooser.
    tally = play(BRIDGE, 19554, biased=True)
    assert tally.disagreements == []
    assert tally.plies == len(PASSING_GAME)


@pytest.mark.slow
def test_four_hundred_games_agree_move_for_move():
    # About 2 s here: pbm's bitboards and OpenSpiel's C++ both play fast.
    tally = play_many(BRIDGE, range(20, 420))
    assert tally.disagreements == [], [str(d) for d in tally.disagreements[:5]]
    assert tally.games == 400
