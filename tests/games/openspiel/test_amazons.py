"""Amazons played move for move against OpenSpiel: no disagreement, and the points where
the two could have differed shown on purpose (AmazonsBridge.differences lists none)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pbm.games.amazons.board import BY_NAME
from pbm.games.amazons.game import Amazons
from pbm.games.amazons.moves import AmazonMove
from pbm.games.amazons.state import AmazonsState
from tests.games.openspiel import harness
from tests.games.openspiel.amazons import (
    SPIEL,
    AmazonsBridge,
    passes_origin,
    pbm_square,
)
from tests.games.playout import replay

WHITE, BLACK = 0, 1


def test_twenty_games_agree_move_for_move():
    tally = harness.play_many(AmazonsBridge(), range(20))
    assert tally.games == 20 and tally.plies > 20 * 40
    assert tally.disagreements == [], [str(d) for d in tally.disagreements]


@pytest.mark.slow
def test_a_hundred_and_fifty_games_agree_move_for_move():
    # Some 20-60 s on a 2-core machine (300 took 40 s alone, 190 s under load; the 10,000
    # of README run outside the suite, tests/games/openspiel/run.py): every other game biased
    # towards arrows over the square just left and arrows that trap (AmazonsBridge.choose).
    tally = harness.play_many(AmazonsBridge(), range(1000, 1150))
    assert tally.games == 150
    assert tally.disagreements == [], [str(d) for d in tally.disagreements[:5]]
    assert set(tally.wins) == {"won by White", "won by Black"}


def test_the_cells_map_both_ways_and_the_start_is_the_same():
    assert sorted(SPIEL.values()) == list(range(100))
    assert all(pbm_square(action) == sq for sq, action in SPIEL.items())
    bridge = AmazonsBridge()
    spiel = bridge.spiel_game().new_initial_state()
    # OpenSpiel's player 0 ('X') starts on a4 d1 g1 j4 and moves first, as White does.
    rows = str(spiel).splitlines()
    crosses = {pbm_square(r * 10 + c) for r, line in enumerate(rows)
               for c, mark in enumerate(line) if mark == "X"}
    noughts = {pbm_square(r * 10 + c) for r, line in enumerate(rows)
               for c, mark in enumerate(line) if mark == "O"}
    state = bridge.game.start({}, 0)
    assert crosses == set(state.amazons[WHITE]) and noughts == set(state.amazons[BLACK])
    assert spiel.current_player() == 0
    assert bridge.compare(state, spiel) is None
    assert len(bridge.spiel_moves(spiel)) == 2176


def test_spiel_moves_are_those_of_walking_every_step():
    # The bridge's shortcut (no child state per arrow) finds exactly what the harness's
    # general walk finds, here and after a few moves.
    bridge = AmazonsBridge()
    state, spiel = harness.replay(bridge, ["D1-D6/G3", "G10-G4/D4", "A4-C6/A4"])
    assert bridge.spiel_moves(spiel) == harness.moves_in_steps(spiel, 3)
    assert bridge.compare(state, spiel) is None


def test_both_let_the_arrow_land_on_and_cross_the_square_the_amazon_left():
    bridge = AmazonsBridge()
    for text in ("D1-D5/D1", "J4-J6/J2"):
        state, spiel = harness.replay(bridge, [])
        move = bridge.game.parse(state, WHITE, text)
        assert passes_origin(move)
        assert bridge.actions(state, WHITE, move) in bridge.spiel_moves(spiel)
        state, spiel = bridge.step(state, spiel, WHITE, move)
        assert bridge.compare(state, spiel) is None


def test_both_end_the_game_when_the_player_to_move_is_trapped():
    # A biased game (arrows beside the opponent's amazons) played to its end in both.
    tally = harness.play(AmazonsBridge(), seed=5, biased=True)
    assert tally.disagreements == [] and sum(tally.wins.values()) == 1


class _NoArrowOverTheSquareLeft(Amazons):
    """A wrong Amazons: the arrow may not pass over or land on the square the amazon left."""

    def legal_moves(self, state: AmazonsState, seat: int) -> Iterator[AmazonMove]:
        return (m for m in super().legal_moves(state, seat) if not passes_origin(m))

    def random_move(self, state, seat, rng):
        return rng.choice(list(self.legal_moves(state, seat)))


class _WrongRule(AmazonsBridge):
    game = _NoArrowOverTheSquareLeft()


def test_a_wrong_rule_is_caught_at_once():
    # The comparison can fail: a pbm that forgot the arrow may fly back over the square its
    # amazon left disagrees with OpenSpiel before the first move.
    tally = harness.play(_WrongRule(), seed=0)
    assert len(tally.disagreements) == 1
    problem = tally.disagreements[0]
    assert problem.moves == [] and "only OpenSpiel" in problem.what
    assert "against 2176)" in problem.what  # pbm's fewer moves against OpenSpiel's


class _Swapped(AmazonsBridge):
    """A wrong mapping: E5 and F5 swapped. (A mirror of the whole board would not do: it
    is a symmetry of the game, so OpenSpiel would follow the mirrored game move for move.)"""

    SWAP = {SPIEL[BY_NAME["E5"]]: SPIEL[BY_NAME["F5"]], SPIEL[BY_NAME["F5"]]: SPIEL[BY_NAME["E5"]]}

    def actions(self, state, seat, move):
        return tuple(self.SWAP.get(SPIEL[sq], SPIEL[sq]) for sq in move)


def test_a_wrong_mapping_is_caught():
    tally = harness.play(_Swapped(), seed=0)
    assert len(tally.disagreements) == 1 and tally.disagreements[0].moves == []


def test_replay_rebuilds_a_position():
    bridge = AmazonsBridge()
    moves = ["D1-D6/G3", "G10-G4/D4"]
    state, spiel = harness.replay(bridge, moves)
    assert state == replay(bridge.game, [(i % 2, m) for i, m in enumerate(moves)])
    assert bridge.compare(state, spiel) is None
