"""Lines of Action move for move against OpenSpiel, and each documented difference on purpose."""

from __future__ import annotations

import pyspiel
import pytest

from pbm.games.loa.game import GAME, SHORT_GAME, START
from pbm.games.loa.moves import PASS
from tests.games.openspiel.harness import play_many, replay
from tests.games.openspiel.loa import LinesOfActionBridge, action_of, leads_to_a_difference, step_of

BRIDGE = LinesOfActionBridge()

# Found by random play with captures preferred: Black's 19th move, F5xC2, takes White's last
# stray piece and joins Black's own pieces at once.
DOUBLE_CONNECTION = (
    "F1xH3 A3xC1 D8-F6 A6xC8 F8xH6 H4xF6 H3-F5 H2xH6 F5-D7 A2-A6 D7xA4 F6-F5 E8-E6 H6xE6"
    " B1-E4 A5-C3 G1xC1 A6-B5 G8xE6 H7xE4 E1xC3 F5-C5 C1-B2 B5xB8 E6xC8 C5xC8 A4-C4 A7-A6"
    " D1-F3 H5-G5 C4-C1 G5-F5 F3xF5 E4-C2 C3-D3 A6-A7 F5xC2").split()
# Found by a search that narrows White's moves: after Black's 12th move, E8-F7, White's
# A1 and H8 are hemmed in by Black on every side.
WHITE_STUCK = (
    "C1xA3 H4-F4 F1xF4 H3-H8 F8xH6 A4-C2 C8xA6 C2-C1 A3xC1 A5-A1 A6xA2 H5-G5 C1xG5 H2-F2"
    " F4xF2 A7-D4 D1xD4 H7-G7 B8-B6 G7-H7 D8xH8 H7-G7 E8-F7").split()
# Black's D1 and White's A4 go out and back: the start recurs, then recurs again.
SHUTTLE = ["D1-D3", "A4-C4", "D3-D1", "C4-A4"]


def test_twenty_games_agree_move_for_move():
    tally = play_many(BRIDGE, range(20))
    assert tally.games == 20 and tally.plies > 2000
    assert tally.disagreements == [], tally.disagreements[:3]


@pytest.mark.slow
def test_two_hundred_games_agree_move_for_move():
    # About 20 s on the shared 2-core machine (some 20 games a second under load).
    tally = play_many(BRIDGE, range(20, 220))
    assert tally.disagreements == [], tally.disagreements[:3]
    assert sum(tally.wins.values()) == 200


def test_moves_map_both_ways_and_read_alike():
    spiel = BRIDGE.spiel_game().new_initial_state()
    ours = {action_of(move): move for move in GAME.legal_moves(START, 0)}
    assert set(ours) == set(spiel.legal_actions())
    for action, move in ours.items():
        assert step_of(action) == move
        assert spiel.action_to_string(0, action) == GAME.notation(move).lower()


def test_difference_a_capture_connecting_both_sides():
    state, spiel = replay(BRIDGE, DOUBLE_CONNECTION[:-1])
    last = GAME.parse(state, 0, DOUBLE_CONNECTION[-1])
    after = GAME.play(state, 0, last)
    assert leads_to_a_difference(after)
    # pbm: a draw (MSO rule 8).
    assert GAME.result(after).is_draw
    assert "leaves both sides in one connected group each" in GAME.result(after).reason
    # OpenSpiel: the mover, Black, wins.
    spiel.apply_action(action_of(last))
    assert spiel.is_terminal() and spiel.returns() == [1.0, -1.0]


def test_difference_a_player_with_no_legal_move():
    state, spiel = replay(BRIDGE, WHITE_STUCK)
    assert leads_to_a_difference(state)
    # pbm: White passes (MSO rule 9) and the game goes on.
    assert GAME.result(state) is None and GAME.legal_moves(state, 1) == [PASS]
    after = GAME.play(state, 1, PASS)
    assert GAME.result(after) is None and GAME.to_move(after) == frozenset({0})
    # OpenSpiel: White has lost.
    assert spiel.is_terminal() and spiel.returns() == [1.0, -1.0]


def test_difference_repetition():
    state, spiel = replay(BRIDGE, SHUTTLE)
    assert leads_to_a_difference(state)
    # OpenSpiel: the start's board came back, a draw at once.
    assert spiel.is_terminal() and spiel.returns() == [0.0, 0.0]
    # pbm: the second time only; the third time (with Black to move again) is a draw.
    assert GAME.result(state) is None and state.repeats == 2
    for text in SHUTTLE:
        state = GAME.play(state, state.mover, GAME.parse(state, state.mover, text))
    assert GAME.result(state).is_draw and "three times" in GAME.result(state).reason


def test_difference_length():
    # OpenSpiel draws at max_game_length plies, 1000 by default, even on a winning move.
    assert pyspiel.load_game("lines_of_action").max_game_length() == 1000
    short = pyspiel.load_game("lines_of_action", {"max_game_length": len(SHORT_GAME)})
    spiel = short.new_initial_state()
    state = START
    for text in SHORT_GAME:
        move = GAME.parse(state, state.mover, text)
        state = GAME.play(state, state.mover, move)
        spiel.apply_action(action_of(move))
    assert spiel.is_terminal() and spiel.returns() == [0.0, 0.0]
    assert GAME.result(state).winners == frozenset({0})  # pbm has no limit: Black has won
    # With the bridge's limit, OpenSpiel agrees.
    state, spiel = replay(BRIDGE, SHORT_GAME)
    assert BRIDGE.compare(state, spiel) is None
    assert spiel.returns() == [1.0, -1.0]

