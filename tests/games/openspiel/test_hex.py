"""Hex played through pbm and OpenSpiel side by side: no disagreement, on the usual board
and the smallest and largest; the swap mapped both ways; and the one documented
difference (OpenSpiel's swap is off by default) shown on purpose."""

from __future__ import annotations

import random

import pyspiel
import pytest

from pbm.games.hex.game import GAME, SWAP, Place
from tests.games.openspiel.harness import play_many, replay
from tests.games.openspiel.hex import HexBridge, action_of, board_of_spiel, move_of


class HexBridge5(HexBridge):
    spiel_params = {"board_size": 5, "swap": True}
    pbm_options = ("-size=5",)


class HexBridge19(HexBridge):
    spiel_params = {"board_size": 19, "swap": True}
    pbm_options = ("-size=19",)


def test_twenty_games_agree():
    tally = play_many(HexBridge(), range(20))
    assert tally.games == 20 and tally.plies > 20 * 30
    assert not tally.disagreements, [str(d) for d in tally.disagreements]


@pytest.mark.parametrize("bridge", [HexBridge5, HexBridge19], ids=["5x5", "19x19"])
def test_the_smallest_and_largest_boards_agree(bridge):
    tally = play_many(bridge(), range(10))
    assert tally.games == 10
    assert not tally.disagreements, [str(d) for d in tally.disagreements]


@pytest.mark.slow  # 400 games, 11x11: about 10 s on the 2-core test machine
def test_two_hundred_games_agree():
    tally = play_many(HexBridge(), range(1000, 1200))
    assert tally.games == 200
    assert not tally.disagreements, [str(d) for d in tally.disagreements[:5]]
    assert set(tally.wins) == {"won by Black", "won by White"}  # no draws in either


def test_biased_games_swap_often_and_both_agree_after_the_swap():
    bridge = HexBridge()
    tally = play_many(bridge, range(1, 41, 2))  # odd seeds: biased
    assert not tally.disagreements
    swapped = 0
    for seed in range(1, 41, 2):
        rng = random.Random(seed)
        state = GAME.start({"size": 11}, seed)
        state = GAME.play(state, 0, bridge.choose(state, 0, rng, True))
        swapped += bridge.choose(state, 1, rng, True) is SWAP
    assert swapped >= 5


def test_moves_map_to_the_actions_openspiel_names_alike():
    spiel = pyspiel.load_game("hex", {"board_size": 11, "swap": True}).new_initial_state()
    state = GAME.start({"size": 11}, 0)
    for move in GAME.legal_moves(state, 0):
        action = action_of(11, move)
        assert spiel.action_to_string(0, action) == GAME.notation(move).lower()
        assert move_of(11, action) == move
    assert action_of(11, SWAP) == 121 and move_of(11, 121) is SWAP


def test_the_swap_puts_the_same_white_stone_in_both():
    # help.txt: Black's B4 becomes White's D2; on 11x11 Black's C8 becomes White's H3.
    for size, first, image in ((5, "B4", "D2"), (11, "C8", "H3"), (19, "S1", "A19")):
        bridge = HexBridge()
        bridge.spiel_params = {"board_size": size, "swap": True}
        bridge.pbm_options = (f"-size={size}",)
        state, spiel = replay(bridge, [first, "swap"])
        assert board_of_spiel(spiel) == state.stones
        assert state.board.names[state.stones.index(2)] == image
        assert spiel.current_player() == 0 and GAME.to_move(state) == frozenset({0})
        assert bridge.compare(state, spiel) is None


def test_a_swapped_corner_stone_wins_for_white_in_both():
    # Black's C1 touches the top edge; swapped it is White's A3 on the left edge, and
    # White's row 3 to E3 wins in both implementations.
    bridge = HexBridge5()
    moves = ["C1", "swap", "A1", "B3", "B1", "C3", "C1", "D3", "D1", "E3"]
    state, spiel = replay(bridge, moves)
    assert GAME.result(state).winners == frozenset({1})
    assert spiel.is_terminal() and spiel.returns() == [-1.0, 1.0]
    assert bridge.compare(state, spiel) is None


# ----- the documented difference ---------------------------------------------------------


def test_difference_openspiel_offers_no_swap_by_default_pbm_always_does():
    assert len(HexBridge.differences) == 1 and "swap" in HexBridge.differences[0]
    default = pyspiel.load_game("hex", {"board_size": 11})
    assert default.get_parameters()["swap"] is False
    spiel = default.new_initial_state()
    spiel.apply_action(action_of(11, Place(2, 7)))  # Black's C8
    state = GAME.start({"size": 11}, 0)
    state = GAME.play(state, 0, GAME.parse(state, 0, "C8"))
    # OpenSpiel without its swap: the 120 empty cells, no more. pbm: those and swap.
    assert set(spiel.legal_actions()) == {action_of(11, m) for m in GAME.legal_moves(state, 1)
                                          if m is not SWAP}
    assert 121 not in spiel.legal_actions()
    assert SWAP in list(GAME.legal_moves(state, 1))
    assert GAME.parse(state, 1, "swap") is SWAP
    # With the parameter set, OpenSpiel agrees with pbm's rules.
    swapping = pyspiel.load_game("hex", {"board_size": 11, "swap": True}).new_initial_state()
    swapping.apply_action(action_of(11, Place(2, 7)))
    assert 121 in swapping.legal_actions()
    assert swapping.action_to_string(1, 121) == "swap"
