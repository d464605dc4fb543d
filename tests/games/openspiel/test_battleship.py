"""Battleship against OpenSpiel: games move for move, and each documented difference shown."""

from __future__ import annotations

import re

import pyspiel
import pytest

from pbm.games.base import IllegalMove
from pbm.games.battleship.fleet import FLEET, placements
from pbm.games.battleship.game import GAME
from pbm.games.battleship.state import BattleshipState
from tests.games.openspiel.battleship import (
    SPIEL_PARAMS,
    BattleshipBridge,
    placement_action,
    placement_of,
)
from tests.games.openspiel.harness import play, play_many, replay

BLUE_FLEET = "A1-A5 C3-F3 H1-H3 J5-J7 E9-F9"
RED_FLEET = "B2-F2 J1-J4 D5-D7 F7-H7 H9-I9"
RED_CELLS = ["B2", "C2", "D2", "E2", "F2", "J1", "J2", "J3", "J4", "D5", "D6", "D7",
             "F7", "G7", "H7", "H9", "I9"]


def test_twenty_games_agree_move_for_move():
    tally = play_many(BattleshipBridge(), range(20))
    assert tally.games == 20 and not tally.disagreements, tally.disagreements[:3]
    assert tally.plies > 20 * 30


@pytest.mark.slow
def test_a_hundred_games_agree_move_for_move():
    # About 0.2-0.9 s a game on a 2-core machine, by its load (the 10,000 of README run
    # outside the suite, tests/games/openspiel/run.py).
    tally = play_many(BattleshipBridge(), range(1000, 1100))
    assert tally.games == 100 and not tally.disagreements, tally.disagreements[:3]
    assert {"won by Blue", "won by Red"} <= set(tally.wins)


def test_biased_and_uniform_games_both_play_through():
    bridge = BattleshipBridge()
    for seed, biased in ((7, False), (8, True)):
        tally = play(bridge, seed, biased)
        assert not tally.disagreements and tally.wins


def test_the_mapping_of_placements_and_shots():
    # A ship across row 1 from A1 is OpenSpiel's "horizontal, top-left (0, 0)"; down
    # column G from G1 is "vertical, top-left (0, 6)"; the cell F1 is "shoot at (0, 5)".
    state = pyspiel.load_game("battleship", dict(SPIEL_PARAMS)).new_initial_state()
    across = placements(5)[0]
    down = next(p for p in placements(5) if not p.across and p.bow == 6)
    assert across.notation() == "A1-E1" and down.notation() == "G1-G5"
    assert state.action_to_string(0, placement_action(across)).endswith(
        "horizontally with top-left corner in (0, 0)")
    assert state.action_to_string(0, placement_action(down)).endswith(
        "vertically with top-left corner in (0, 6)")
    assert state.action_to_string(0, 5).endswith("shoot at (0, 5)")
    for ship in FLEET:
        for option in placements(ship.length):
            assert placement_of(placement_action(option), ship.length) == option


def spiel_after(moves: list[str], **params: object) -> tuple[BattleshipState, object]:
    bridge = BattleshipBridge()
    bridge.spiel_params = {**SPIEL_PARAMS, **params}
    state, table = replay(bridge, moves)
    return state, table.spiel


def test_difference_placement_ship_by_ship_against_whole_fleets():
    # OpenSpiel: player 0 places the Carrier, then player 1 its Carrier, ... ten actions.
    # pbm: one move per fleet, from both seats at once; after Blue's, only Red is to move.
    state, spiel = spiel_after([BLUE_FLEET])
    assert GAME.to_move(state) == frozenset({1})
    assert spiel.history() == []  # the bridge holds Blue's fleet until Red's is in
    state, spiel = spiel_after([BLUE_FLEET, RED_FLEET])
    assert len(spiel.history()) == 10 and spiel.current_player() == 0
    players = [int(seat) for seat in re.findall(r"/(\d):", str(spiel).split("Full history:")[1])]
    assert players == [0, 1] * 5
    assert GAME.to_move(state) == frozenset({0})


def test_difference_shots_run_out_in_openspiel_but_not_in_the_rules():
    # With OpenSpiel's default of 50 shots each, both shooting only at open water ends the
    # game with both fleets afloat, a draw by its scores (0 and 0). The published rules
    # play on until a fleet is sunk: pbm still has Blue to move.
    blue_water = [c for c in _cells() if c not in RED_CELLS][:50]
    red_water = [c for c in _cells() if c not in BLUE_FLEET_CELLS][:50]
    shots = [cell for pair in zip(blue_water, red_water, strict=True) for cell in pair]
    state, spiel = spiel_after([BLUE_FLEET, RED_FLEET, *shots], num_shots=50)
    assert spiel.is_terminal() and spiel.returns() == [0.0, 0.0]
    assert GAME.result(state) is None and GAME.to_move(state) == frozenset({0})


def test_difference_openspiel_scores_by_value_where_the_rules_need_the_whole_fleet():
    # Red sinks Blue's Destroyer, then neither hits again until OpenSpiel's 50 shots are
    # spent: OpenSpiel ends with Red ahead on points (1 against -1); pbm plays on.
    red_shots = ["E9", "F9"] + [c for c in _cells() if c not in BLUE_FLEET_CELLS][:48]
    blue_shots = [c for c in _cells() if c not in RED_CELLS][:50]
    shots = [cell for pair in zip(blue_shots, red_shots, strict=True) for cell in pair]
    state, spiel = spiel_after([BLUE_FLEET, RED_FLEET, *shots], num_shots=50)
    assert spiel.is_terminal() and spiel.returns() == [-1.0, 1.0]
    assert GAME.result(state) is None


def test_difference_repeated_shots_allowed_by_openspiels_default():
    state, spiel = spiel_after([BLUE_FLEET, RED_FLEET, "E5", "A1"], allow_repeated_shots=True)
    e5 = 4 * 10 + 4
    assert e5 in spiel.legal_actions()  # OpenSpiel lets Blue shoot E5 again
    with pytest.raises(IllegalMove, match="You shot at E5 on move 3: a miss"):
        GAME.parse(state, 0, "E5")
    _, strict = spiel_after([BLUE_FLEET, RED_FLEET, "E5", "A1"])
    assert e5 not in strict.legal_actions()  # as the bridge plays it: the rules' way


def test_difference_a_sunk_ship_is_named_by_the_rules_not_by_openspiel():
    state, spiel = spiel_after([BLUE_FLEET, RED_FLEET, "H9", "A1", "I9"])
    info = spiel.information_state_string(0)
    assert info.endswith("/shot_8_8:S")  # I9: "sunk", no ship named
    assert "You sank Red's Destroyer!" in GAME.render(state, 0)


def _cells() -> list[str]:
    return [f"{col}{row}" for row in range(1, 11) for col in "ABCDEFGHIJ"]


BLUE_FLEET_CELLS = ["A1", "A2", "A3", "A4", "A5", "C3", "D3", "E3", "F3", "H1", "H2", "H3",
                    "J5", "J6", "J7", "E9", "F9"]
