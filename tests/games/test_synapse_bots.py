"""Synapse-Ice's own bot (pbm/games/synapse_ice/bots.py): its compact rules against the rule
module, its search against an exhaustive one over the rule module, the moves it must find
or avoid, and a match against the random bot."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

import pytest

from pbm.games.bots import RandomBot, bots_of, think
from pbm.games.synapse_ice import bots
from pbm.games.synapse_ice.bots import AlphaBetaBot
from pbm.games.synapse_ice.game import GAME, GRID, SIZES, Direction, Move, SynapseState
from tests.games.playout import replay

SMALL = AlphaBetaBot("test", nodes=3_000)


def position(texts: str) -> SynapseState:
    """The position after these moves from the empty board, seats alternating from Red."""
    return replay(GAME, [(i % 2, text) for i, text in enumerate(texts.split())])


def random_states(games: int, seed: int) -> Iterator[SynapseState]:
    """Every position of `games` random games, from the empty board to the end."""
    rng = random.Random(seed)
    for _ in range(games):
        state = GAME.start({}, 0)
        yield state
        while GAME.result(state) is None:
            state = GAME.play(state, state.turn, GAME.random_move(state, state.turn, rng))
            yield state


def choose(bot: AlphaBetaBot, state: SynapseState, seed: int = 1,
           seconds: float = 60) -> Move:
    """The bot's move for the seat to move, checked legal the way the server checks it."""
    seat = state.turn
    move = bot.choose(GAME, GAME.seat_view(state, seat), seat, random.Random(seed), seconds)
    checked = GAME.parse(state, seat, GAME.notation(move))
    assert checked == move
    return checked


def wins_at_once(state: SynapseState, move: Move) -> bool:
    outcome = GAME.result(GAME.play(state, state.turn, move))
    return outcome is not None and outcome.winners == {state.turn}


def gives_a_win(state: SynapseState, move: Move) -> bool:
    after = GAME.play(state, state.turn, move)
    return GAME.result(after) is None and any(
        wins_at_once(after, reply) for reply in GAME.legal_moves(after, after.turn))


@cache
def mover_wins(state: SynapseState) -> bool:
    """Whether the seat to move can force a win: plain minimax over the rule module."""
    return GAME.result(state) is None and any(
        not mover_wins(GAME.play(state, state.turn, m))
        for m in GAME.legal_moves(state, state.turn))


# ----- the compact rules --------------------------------------------------------------------

def test_the_compact_rules_are_the_rule_modules_on_positions_of_random_games():
    """The same legal moves, the same position after each, the same end of the game."""
    checked = 0
    for state in random_states(40, seed=3):
        occ, stash, square = bots.compact(state)
        seat = state.turn
        assert occ.bit_count() == state.placements and seat == state.placements % 2
        for s in (0, 1):
            for size in SIZES:
                assert bots.left(stash, s, size) == state.left(s, size)
        rules = {bots._key(m): m for m in GAME.legal_moves(state, seat)}
        if square == bots.NO_SQUARE:
            assert state.forced is None
            entries = bots.first_moves(stash)
        else:
            entries = bots.moves(occ, stash, square, seat)
        assert sorted(e[4] for e in entries) == sorted(rules)
        assert (GAME.result(state) is not None) == (not entries)
        for e in entries:
            assert bots.after(occ, stash, square, seat, e) == \
                bots.compact(GAME.play(state, seat, rules[e[4]]))
        checked += 1
    assert checked > 800


def test_openings_count_the_room_each_size_has_left():
    """The evaluation's room per size: the pairs of empty squares a piece of that size
    could link, counted over the rule module's squares (each pair once, from its west or
    north end)."""
    for state in list(random_states(3, seed=5))[::4]:
        counted = []
        for size in SIZES:
            counted.append(sum(
                1 for square in GRID.cells for direction in (Direction.E, Direction.S)
                if state.at(square) is None
                and (target := Move(square, size, direction).target) in GRID
                and state.at(target) is None))
        assert bots.openings(bots.compact(state)[0]) == tuple(counted)


def test_mirror_images_of_a_first_move():
    start = bots.compact(GAME.start({}, 0))
    first = {e[4] for e in bots.first_moves(start[1])}
    c3_2e = bots._key(GAME.parse(GAME.start({}, 0), 0, "C3:2E"))
    images = {GAME.notation(_move(bots.mirrored(c3_2e, s))) for s in range(4)}
    assert images == {"C3:2E", "D3:2W"}
    b2_1n = bots._key(GAME.parse(GAME.start({}, 0), 0, "B2:1N"))
    assert {GAME.notation(_move(bots.mirrored(b2_1n, s))) for s in range(4)} == \
        {"B2:1N", "E2:1N", "B4:1S", "E4:1S"}
    assert {bots.mirrored(mid, s) for mid in first for s in range(4)} == first


def _move(mid: int) -> Move:
    square, size, direction = bots.unpack(mid)
    return Move(GRID.cells[square], size, list(Direction)[direction])


# ----- the search ---------------------------------------------------------------------------

def test_the_search_values_positions_as_an_exhaustive_one_does():
    """Late positions of random games, searched to the end: won exactly where minimax over
    the rule module says, and then by a move that keeps the win (a lone move is played
    unsearched)."""
    seen = 0
    for state in random_states(30, seed=11):
        if state.placements < 15 or len(list(GAME.legal_moves(state, state.turn))) < 2:
            continue
        mid, value, _ = bots.search(bots.compact(state), state.turn, 10**6,
                                    random.Random(1), 60)
        assert abs(value) >= bots.PROVEN
        assert (value > 0) == mover_wins(state)
        if value > 0:
            move = {bots._key(m): m for m in GAME.legal_moves(state, state.turn)}[mid]
            assert not mover_wins(GAME.play(state, state.turn, move))
        seen += 1
    assert seen > 100


# Positions of random games where the mover has one winning move among five.
WINS_IN_ONE = [
    ("E1:3S E4:2N E2:1E F2:2S F4:1N F3:2W D3:3W A3:2N A1:3E D1:1W", "C1:3E"),
    ("C4:2W A4:1S A5:2E C5:3E F5:3N F2:1N F1:3S F4:1N F3:3W C3:1N C2:1E D2:1N D1:2S D3:2W"
     " B3:1S B4:3E", "E4:1W"),
]


@pytest.mark.parametrize(("moves", "winning"), WINS_IN_ONE)
def test_it_takes_a_win_in_one(moves: str, winning: str):
    state = position(moves)
    legal = list(GAME.legal_moves(state, state.turn))
    assert [GAME.notation(m) for m in legal if wins_at_once(state, m)] == [winning]
    assert len(legal) == 5
    for seed in range(3):
        assert GAME.notation(choose(SMALL, state, seed)) == winning


# Positions of random games where every move but one lets the opponent win at once.
LOSSES_IN_ONE = [
    ("A4:1S A5:1E B5:2N B3:2N B1:3E E1:1W D1:1S D2:2W B2:3E E2:2W C2:1N C1:2S C3:1E D3:2S"
     " D5:1E E5:1E F5:2N F3:1S", "F4:2W"),
    ("C5:2W A5:2N A3:1S A4:2N A2:1E B2:1E C2:1N C1:2E E1:2S E3:2S E5:3W B5:1N B4:1E C4:1N"
     " C3:1W B3:2N B1:2E D1:1S D2:2E", "F2:3S"),
]


@pytest.mark.parametrize(("moves", "safe"), LOSSES_IN_ONE)
def test_it_avoids_a_loss_in_one(moves: str, safe: str):
    state = position(moves)
    legal = list(GAME.legal_moves(state, state.turn))
    assert [GAME.notation(m) for m in legal if not gives_a_win(state, m)] == [safe]
    assert len(legal) == 4
    for seed in range(3):
        assert GAME.notation(choose(AlphaBetaBot("test", nodes=20), state, seed)) == safe


def test_a_lost_position_still_gets_a_legal_move():
    """Every move here lets the opponent win at once: the search proves the position lost,
    and still answers with a move."""
    state = position("B4:1E C4:1N C3:2W A3:2N A1:3S A4:1S A5:2E C5:3N C2:2E E2:3W B2:1W A2:3E"
                     " D2:1N D1:2W B1:2S B3:2S B5:2E D5:1E E5:1E F5:1N")
    legal = list(GAME.legal_moves(state, state.turn))
    assert len(legal) >= 3 and all(gives_a_win(state, m) for m in legal)
    _, value, _ = bots.search(bots.compact(state), state.turn, 10**5, random.Random(1), 60)
    assert value <= -bots.PROVEN
    assert choose(SMALL, state) in legal


def test_its_moves_parse_on_positions_of_random_games():
    """Every move the bot chooses (with budgets small enough to cut searches short) is one
    parse() accepts, the first move of a game included."""
    for k, state in enumerate(random_states(8, seed=17)):
        if GAME.result(state) is None:
            choose(AlphaBetaBot("test", nodes=50 + 37 * k % 400), state, seed=k)


def test_a_search_cut_short_by_its_seconds_still_moves():
    state = position("C3:2E")
    assert choose(AlphaBetaBot("test", nodes=10**9), state, seconds=0) is not None


def test_one_seed_one_move_and_the_rng_breaks_ties():
    start = GAME.start({}, 0)
    state = position("C3:2E E3:1E")
    for board in (start, state):
        assert len({GAME.notation(choose(SMALL, board, seed=9)) for _ in range(3)}) == 1
    # The empty board's mirror images are worth the same: seeds choose among them.
    assert len({GAME.notation(choose(SMALL, start, seed=s)) for s in range(8)}) > 1
    # Through think(), as the server asks: the seed is all its randomness.
    assert len({GAME.notation(think(GAME, state, 0, "good", 11, 60)) for _ in range(2)}) == 1


def test_it_beats_the_random_bot():
    bot, easy = AlphaBetaBot("test", nodes=2_000), RandomBot()
    wins = 0
    for game in range(10):
        players = (bot, easy) if game % 2 == 0 else (easy, bot)
        state = GAME.start({}, game)
        while GAME.result(state) is None:
            seat, ply = state.turn, state.placements
            move = players[seat].choose(GAME, state, seat, random.Random(game * 100 + ply),
                                        60)
            state = GAME.play(state, seat, GAME.parse(state, seat, GAME.notation(move)))
        outcome = GAME.result(state)
        assert outcome is not None
        wins += outcome.winners == {game % 2}
    assert wins == 10



def test_the_game_offers_it_as_good_and_best():
    own = bots_of(GAME)
    assert own["best"] == AlphaBetaBot("best", bots.BEST_NODES)
    assert own["good"] == AlphaBetaBot("good", bots.GOOD_NODES)
    assert bots.GOOD_NODES < bots.BEST_NODES
    assert own["best"].method == "alpha-beta search, 300,000 positions a move"
