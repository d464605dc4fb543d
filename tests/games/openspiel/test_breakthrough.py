"""Breakthrough move for move against OpenSpiel, the mapping checked both ways, and the one
place where OpenSpiel's rules differ from the published ones (boards under 6 rows)."""

from __future__ import annotations

import random

import pyspiel
import pytest

from pbm.games.base import InvalidOption
from pbm.games.breakthrough.board import SIZES, WHITE, from_rows
from pbm.games.breakthrough.game import GAME
from tests.games.openspiel import harness
from tests.games.openspiel.breakthrough import (
    BreakthroughBridge,
    pbm_move,
    sized,
    spiel_action,
    spiel_name,
)


def assert_agree(tally: harness.Tally) -> None:
    assert not tally.disagreements, "\n".join(str(d) for d in tally.disagreements[:5])


def test_twenty_games_agree():
    tally = harness.play_many(BreakthroughBridge(), range(20))
    assert_agree(tally)
    assert tally.games == 20 and tally.plies > 20 * 30


@pytest.mark.parametrize("size", [s for s in SIZES if s != 8])
def test_every_other_size_agrees(size):
    tally = harness.play_many(sized(size), range(6))
    assert_agree(tally)
    assert tally.games == 6


@pytest.mark.slow
def test_four_hundred_games_agree():
    # 400 games of 8x8, half of them biased towards captures: about 10 s here.
    tally = harness.play_many(BreakthroughBridge(), range(1000, 1400))
    assert_agree(tally)
    assert tally.games == 400
    assert set(tally.wins) == {"won by White", "won by Black"}


def test_biased_games_also_end_by_taking_every_piece():
    # Random play nearly always ends by a piece running through; the bias reaches the
    # other way to win, so that OpenSpiel's piece counts are compared too.
    bridge, reasons = BreakthroughBridge(), []
    for seed in range(1, 200, 2):
        rng, state = random.Random(seed), GAME.start({}, seed)
        while GAME.result(state) is None:
            state = GAME.play(state, state.turn, bridge.choose(state, state.turn, rng, True))
        reasons.append(GAME.result(state).reason)
    assert any("captured all of" in reason for reason in reasons)


def test_the_mapping_both_ways_and_in_openspiel_words():
    # Every legal move of many positions: pbm -> action -> pbm is the identity, and
    # OpenSpiel prints the same squares, its rows counted from the other end.
    bridge = BreakthroughBridge()
    for seed in range(10):
        rng = random.Random(seed)
        state = GAME.start({}, seed)
        spiel = bridge.spiel_game().new_initial_state()
        while GAME.result(state) is None:
            seat = state.turn
            for move in GAME.legal_moves(state, seat):
                action = spiel_action(state.size, seat, move)
                assert pbm_move(state, action) == move
                words = spiel.action_to_string(seat, action)
                expected = spiel_name(8, move.origin.name) + spiel_name(8, move.target.name)
                assert words == expected + ("*" if move.capture else "")
            for action in spiel.legal_actions():
                move = pbm_move(state, action)
                assert spiel_action(state.size, seat, move) == action
                assert GAME.notation(GAME.parse(state, seat, GAME.notation(move))) == \
                    GAME.notation(move)
            move = GAME.random_move(state, seat, rng)
            spiel.apply_action(spiel_action(state.size, seat, move))
            state = GAME.play(state, seat, move)


def test_first_players_agree_though_named_differently():
    spiel = BreakthroughBridge().spiel_game().new_initial_state()
    assert spiel.current_player() == 0
    assert str(spiel).splitlines()[-2] == "1wwwwwwww" and str(spiel).startswith("8bbbbbbbb")
    # OpenSpiel's player 0 ("b", printed on rows 8 and 7) opens from its rows 0 and 1,
    # as pbm's White does from rows 1 and 2: the same opening moves, mirrored in print.
    start = GAME.start({}, 0)
    assert GAME.to_move(start) == frozenset({WHITE})
    ours = sorted(spiel_action(8, WHITE, m) for m in GAME.legal_moves(start, WHITE))
    assert ours == sorted(spiel.legal_actions())
    assert spiel.action_to_string(0, spiel_action(8, WHITE, GAME.parse(start, 0, "A2-A3"))) \
        == "a7a6"


# ----- the documented difference ------------------------------------------------------------
def test_difference_small_boards_openspiel_fills_one_row_pbm_offers_none():
    assert len(BreakthroughBridge.differences) == 1
    # OpenSpiel on 5 rows: one row of pieces a side, 5 each.
    spiel = pyspiel.load_game("breakthrough", {"rows": 5, "columns": 5}).new_initial_state()
    assert str(spiel).splitlines()[:5] == ["5bbbbb", "4.....", "3.....", "2.....", "1wwwww"]
    # The published rules fill the two home rows on any board; pbm's smallest board is
    # 6x6 (two full rows a side, as OpenSpiel has them there too) and 5 is refused.
    with pytest.raises(InvalidOption) as refused:
        GAME.parse_options(["-size=5"])
    assert str(refused.value) == (
        "Option -size of Breakthrough must be one of: 6, 7, 8, 9, 10, 11, 12.")
    six = GAME.start(GAME.parse_options(["-size=6"]), 0)
    assert six == from_rows(["xxxxxx", "xxxxxx", "......", "......", "oooooo", "oooooo"])
    spiel6 = pyspiel.load_game("breakthrough", {"rows": 6, "columns": 6}).new_initial_state()
    assert str(spiel6).splitlines()[:6] == [
        "6bbbbbb", "5bbbbbb", "4......", "3......", "2wwwwww", "1wwwwww"]
