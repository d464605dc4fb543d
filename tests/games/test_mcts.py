"""The Monte Carlo tree search bots: wins in one, losses in one avoided, legal and reproducible
moves on real games, and on two tiny games of its own, searches of the seat's view only."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest

from pbm.games.base import Game, GameInfo, IllegalMove, Outcome, Viewer
from pbm.games.bots import RandomBot, default_bots, think
from pbm.games.loophole.game import GAME as LOOPHOLE
from pbm.games.mcts import MCTSBot
from pbm.games.synapse_ice.game import GAME as SYNAPSE
from pbm.games.trou.game import GAME as TROU

# A small budget: what these tests show comes from the search's rules, not from its luck.
SMALL = MCTSBot("test", playouts=30)


def played(game: Game, texts: list[str] | str) -> Any:
    """The position after these moves from the start (one seat to move at a time)."""
    state = game.start(game.parse_options([]), 0)
    for text in texts.split() if isinstance(texts, str) else texts:
        seat = min(game.to_move(state))
        state = game.play(state, seat, game.parse(state, seat, text))
    return state


def mover(game: Game, state: Any) -> int:
    (seat,) = game.to_move(state)
    return seat


def choose(bot: MCTSBot, game: Game, state: Any, seed: int = 1, seconds: float = 60) -> Any:
    """The bot's move for the seat to move, checked legal the way the server checks it."""
    seat = mover(game, state)
    move = bot.choose(game, game.seat_view(state, seat), seat, random.Random(seed), seconds)
    return game.parse(state, seat, game.notation(move))


def wins_at_once(game: Game, state: Any, seat: int, move: Any) -> bool:
    outcome = game.result(game.play(state, seat, move))
    return outcome is not None and outcome.winners == frozenset({seat})


def gives_a_win(game: Game, state: Any, seat: int, move: Any) -> bool:
    """Whether the opponent can win at once after `seat` plays `move`."""
    after = game.play(state, seat, move)
    if not game.to_move(after):
        return False
    other = mover(game, after)
    return any(wins_at_once(game, after, other, m) for m in game.legal_moves(after, other))


# Loophole: Black has a double node loop and closes a loop round W1 with K6 (the help page's
# "win" diagram but for K6); White's stones stand apart in columns B, D and R.
LOOPHOLE_BLACK = "N1 N2 N3 N9 N10 N11 N12 N13 N14 N15 N16 N17 N18 N19 L4 K5 K7 K8 L8".split()
LOOPHOLE_WHITE = "B2 B4 B6 B8 B10 B12 B14 B16 B18 D2 D4 D6 D8 D10 R2 R4 R6 R8 R10".split()


def loophole(white_stones: int) -> Any:
    """Black's 19 stones and White's first `white_stones`, played in turn."""
    moves = []
    for black, white in zip(LOOPHOLE_BLACK, LOOPHOLE_WHITE[:white_stones] + [""]):
        moves += [black, white] if white else [black]
    return played(LOOPHOLE, moves)


# Positions of random games (found by playing them) where the mover wins in one.
WINS_IN_ONE = [
    (TROU, "4A2 4B3 1C3 2B1 3B2 1A3 2C2"),
    (SYNAPSE, "E5:1E F5:3N F2:2S F4:1N F3:2W D3:3W A3:2N A1:2E C1:2E E1:1W"),
]


@pytest.mark.parametrize(("game", "moves"), WINS_IN_ONE, ids=["trou", "synapse-ice"])
def test_it_plays_a_win_in_one(game: Game, moves: str):
    state = played(game, moves)
    seat = mover(game, state)
    legal = list(game.legal_moves(state, seat))
    winning = [m for m in legal if wins_at_once(game, state, seat, m)]
    assert winning and len(winning) < len(legal)
    for seed in range(3):
        assert wins_at_once(game, state, seat, choose(SMALL, game, state, seed))


def test_it_plays_a_win_in_one_among_three_hundred_moves():
    state = loophole(white_stones=19)
    assert mover(LOOPHOLE, state) == 0 and LOOPHOLE.result(state) is None
    move = choose(MCTSBot("test", playouts=1), LOOPHOLE, state)
    assert LOOPHOLE.notation(move) == "K6"
    assert wins_at_once(LOOPHOLE, state, 0, move)


# Positions of random games where every move but one lets the opponent win at once.
LOSSES_IN_ONE = [
    (TROU, "4C2 4B3 3A3 1B2 2A2 2B1"),
    (SYNAPSE, "E1:3S E4:2N E2:1E F2:2S F4:1N F3:2W D3:3W A3:2N A1:3E D1:1W C1:1S C2:2S C4:1N"
              " C3:1W B3:2S B5:3E E5:1E F5:3W C5:2W A5:3E D5:3N D2:3W A2:2S A4:1E"),
]


@pytest.mark.parametrize(("game", "moves"), LOSSES_IN_ONE, ids=["trou", "synapse-ice"])
def test_it_avoids_a_move_that_loses_at_once(game: Game, moves: str):
    state = played(game, moves)
    seat = mover(game, state)
    legal = list(game.legal_moves(state, seat))
    safe = [m for m in legal if not gives_a_win(game, state, seat, m)]
    assert len(safe) == 1 and len(legal) > 2
    for seed in range(3):
        assert choose(SMALL, game, state, seed) == safe[0]


def test_it_blocks_the_one_cell_that_would_lose_at_once():
    """Black wins with K6 unless White takes it; 30 playouts try at most 30 of White's 300
    moves, and the move chosen must still be K6."""
    state = loophole(white_stones=18)
    assert mover(LOOPHOLE, state) == 1
    block = LOOPHOLE.parse(state, 1, "K6")
    assert not gives_a_win(LOOPHOLE, state, 1, block)
    assert wins_at_once(LOOPHOLE, LOOPHOLE.play(state, 1, LOOPHOLE.parse(state, 1, "S19")), 0,
                        block)
    assert choose(SMALL, LOOPHOLE, state) == block


def test_a_lost_position_still_gets_a_legal_move():
    """Every Synapse-Ice move here lets the opponent win at once: the search proves the
    position lost, and still answers with a move."""
    state = played(SYNAPSE, "B4:1E C4:1N C3:2W A3:2N A1:3S A4:1S A5:2E C5:3N C2:2E E2:3W"
                            " B2:1W A2:3E D2:1N D1:2W B1:2S B3:2S B5:2E D5:1E E5:1E F5:1N")
    seat = mover(SYNAPSE, state)
    legal = list(SYNAPSE.legal_moves(state, seat))
    assert len(legal) >= 3 and all(gives_a_win(SYNAPSE, state, seat, m) for m in legal)
    assert choose(SMALL, SYNAPSE, state) in legal


def random_positions(game: Game, count: int, seed: int) -> Iterator[Any]:
    """Positions of random games, each cut after a random number of moves."""
    rng = random.Random(seed)
    while count:
        state = game.start(game.parse_options([]), seed)
        for _ in range(rng.randrange(120)):
            if not game.to_move(state):
                break
            seat = min(game.to_move(state))
            state = game.play(state, seat, game.random_move(state, seat, rng))
        if game.to_move(state):
            count -= 1
            yield state


@pytest.mark.parametrize("game", [TROU, SYNAPSE, LOOPHOLE], ids=lambda g: g.info.name)
def test_its_moves_are_legal_in_positions_of_random_games(game: Game):
    for k, state in enumerate(random_positions(game, 6, seed=7)):
        choose(SMALL, game, state, seed=k)  # parse() raises on an illegal move


def test_a_search_cut_short_by_its_seconds_still_moves():
    state = played(LOOPHOLE, "K10 J10")
    assert choose(MCTSBot("test", playouts=10_000), LOOPHOLE, state, seconds=0) is not None


class CountedLoophole(type(LOOPHOLE)):  # type: ignore[misc]
    """Loophole counting the positions played to."""

    played = 0

    def play(self, state: Any, seat: int, move: Any) -> Any:
        CountedLoophole.played += 1
        return super().play(state, seat, move)


def test_the_budgets_bound_the_work_of_a_search():
    game = CountedLoophole()
    state = played(LOOPHOLE, "K10 J10")
    for positions in (2_000, None):
        CountedLoophole.played = 0
        choose(MCTSBot("test", playouts=20, positions=positions), game, state)
        if positions is not None:
            # An iteration begun is finished (a node's look-ahead and a playout: 320 each
            # at most), and the move chosen is looked at (320 more).
            assert positions <= CountedLoophole.played <= positions + 3 * 320
        else:
            assert CountedLoophole.played > 20 * 200  # twenty random games to their end
    # Playouts cut after five moves (and counted draws): the root's and the chosen move's
    # look-ahead (320 each at most), and twenty short playouts.
    CountedLoophole.played = 0
    choose(MCTSBot("test", playouts=20, playout_cap=5), game, state)
    assert CountedLoophole.played <= 2 * 320 + 20 * (1 + 5)


def test_the_same_seed_gives_the_same_move():
    state = played(SYNAPSE, "C3:2E E3:1E F3:1N")
    bot = MCTSBot("test", playouts=300)
    moves = {SYNAPSE.notation(choose(bot, SYNAPSE, state, seed=5)) for _ in range(2)}
    assert len(moves) == 1
    # Through think(), as the server asks: the seed is all its randomness.
    trou = played(TROU, "1B2")
    assert len({TROU.notation(think(TROU, trou, 1, "good", 11, 60)) for _ in range(2)}) == 1


def test_good_beats_the_random_bot_at_trou():
    """Trou is a draw with best play, so a random opponent is not always beaten; but it
    should lose next to never and win most games."""
    good, easy = default_bots(TROU)["good"], RandomBot()
    wins = losses = 0
    for game in range(20):
        bots = (good, easy) if game % 2 == 0 else (easy, good)
        rng = random.Random(game)
        state = TROU.start({}, game)
        while TROU.to_move(state):
            seat = mover(TROU, state)
            move = bots[seat].choose(TROU, state, seat, random.Random(rng.random()), 60)
            state = TROU.play(state, seat, TROU.parse(state, seat, TROU.notation(move)))
        outcome = TROU.result(state)
        assert outcome is not None
        good_seat = game % 2
        wins += outcome.winners == {good_seat}
        losses += outcome.winners == {1 - good_seat}
    assert wins >= 11 and losses <= 1, (wins, losses)


# ----- hidden information: two tiny games of the test's own -------------------------------

HIDER, SEEKER = 0, 1


@dataclass(frozen=True)
class CupsState:
    pea: int | None = None  # under which cup; None before it is hidden, or in the Seeker's view
    hidden: bool = False
    guess: int | None = None


class Cups(Game[CupsState, int]):
    """The Hider puts a pea under cup 1 or 3 (the rules allow only odd cups); the Seeker
    lifts one of the three cups and wins if the pea is there."""

    info = GameInfo(name="cups", title="Cups", seats=("Hider", "Seeker"), rules_version=1,
                    hidden=True)

    def start(self, options: dict[str, Any], seed: int) -> CupsState:
        return CupsState()

    def to_move(self, state: CupsState) -> frozenset[int]:
        if not state.hidden:
            return frozenset({HIDER})
        return frozenset({SEEKER}) if state.guess is None else frozenset()

    def legal_moves(self, state: CupsState, seat: int) -> Iterator[int]:
        return iter((1, 3) if seat == HIDER else (1, 2, 3))

    def parse(self, state: CupsState, seat: int, text: str) -> int:
        if int(text) not in self.legal_moves(state, seat):
            raise IllegalMove(text)
        return int(text)

    def play(self, state: CupsState, seat: int, move: int) -> CupsState:
        if seat == HIDER:
            return CupsState(pea=move, hidden=True)
        return replace(state, guess=move)

    def notation(self, move: int) -> str:
        return str(move)

    def result(self, state: CupsState) -> Outcome | None:
        if state.guess is None:
            return None
        return Outcome(frozenset({SEEKER if state.guess == state.pea else HIDER}))

    def seat_view(self, state: CupsState, seat: int) -> CupsState:
        return replace(state, pea=None) if seat == SEEKER and state.guess is None else state

    def sample_state(self, view: CupsState, seat: int, rng: random.Random) -> CupsState:
        if view.hidden and view.pea is None:
            return replace(view, pea=rng.choice((1, 3)))
        return view

    def render(self, state: CupsState, viewer: Viewer) -> str:
        return f"{state}\n"

    def encode(self, state: CupsState) -> Any:
        return [state.pea, state.hidden, state.guess]

    def decode(self, data: Any) -> CupsState:
        return CupsState(*data)


def test_the_seeker_searches_its_view_and_not_the_pea():
    """Two states that differ only in the pea: the Seeker's bot cannot tell them apart, so
    with one seed it lifts the same cup in both; and one the pea may be under."""
    cups = Cups()
    bot = MCTSBot("test", playouts=60)
    for seed in range(4):
        chosen, thought = set(), set()
        for pea in (1, 3):
            state = cups.play(cups.start({}, 0), HIDER, pea)
            view = cups.seat_view(state, SEEKER)
            chosen.add(bot.choose(cups, view, SEEKER, random.Random(seed), 60))
            # think() gives the bot the view and nothing else, as the server does.
            thought.add(think(cups, state, SEEKER, "good", seed, 60))
        assert len(chosen) == len(thought) == 1 and chosen | thought <= {1, 3}


@dataclass(frozen=True)
class DuelState:
    picks: tuple[int | None, int | None] = (None, None)  # 0 in a view: picked, not shown


SIDES = "EW"


class Duel(Game[DuelState, str]):
    """Both seats pick 1, 2 or 3 at once, each unseen by the other; the higher pick wins.
    A move names its side: East picks E1-E3, West W1-W3."""

    info = GameInfo(name="duel", title="Duel", seats=("East", "West"), rules_version=1,
                    hidden=True)

    def start(self, options: dict[str, Any], seed: int) -> DuelState:
        return DuelState()

    def to_move(self, state: DuelState) -> frozenset[int]:
        return frozenset(seat for seat in (0, 1) if state.picks[seat] is None)

    def legal_moves(self, state: DuelState, seat: int) -> Iterator[str]:
        return iter(f"{SIDES[seat]}{n}" for n in (1, 2, 3))

    def parse(self, state: DuelState, seat: int, text: str) -> str:
        if seat not in self.to_move(state) or text not in self.legal_moves(state, seat):
            raise IllegalMove(text)
        return text

    def play(self, state: DuelState, seat: int, move: str) -> DuelState:
        picks = list(state.picks)
        picks[seat] = int(move[1])
        return DuelState((picks[0], picks[1]))

    def notation(self, move: str) -> str:
        return move

    def result(self, state: DuelState) -> Outcome | None:
        east, west = state.picks
        if east is None or west is None:
            return None
        return Outcome(frozenset() if east == west else frozenset({0 if east > west else 1}))

    def seat_view(self, state: DuelState, seat: int) -> DuelState:
        if state.picks[1 - seat] is None or self.result(state) is not None:
            return state
        picks = list(state.picks)
        picks[1 - seat] = 0
        return DuelState((picks[0], picks[1]))

    def sample_state(self, view: DuelState, seat: int, rng: random.Random) -> DuelState:
        picks = [rng.choice((1, 2, 3)) if pick == 0 else pick for pick in view.picks]
        return DuelState((picks[0], picks[1]))

    def render(self, state: DuelState, viewer: Viewer) -> str:
        return f"{state}\n"

    def encode(self, state: DuelState) -> Any:
        return list(state.picks)

    def decode(self, data: Any) -> DuelState:
        return DuelState((data[0], data[1]))


class OpenDuel(Duel):
    """Duel with the picks shown: both seats still pick at the same step."""

    info = replace(Duel.info, name="open-duel", hidden=False)

    def seat_view(self, state: DuelState, seat: int) -> DuelState:
        return state

    def sample_state(self, view: DuelState, seat: int, rng: random.Random) -> DuelState:
        return view


@pytest.mark.parametrize("duel", [Duel(), OpenDuel()], ids=["hidden", "open"])
@pytest.mark.parametrize("seat", [0, 1])
def test_seats_that_move_at_once_each_get_their_own_move(duel: Duel, seat: int):
    """With both to move, either seat's bot picks for itself, and the highest: credit for a
    result goes to the seat that chose each step."""
    bot = MCTSBot("test", playouts=100)
    state = duel.start({}, 0)
    assert duel.to_move(state) == {0, 1}
    for seed in range(3):
        view = duel.seat_view(state, seat)
        assert bot.choose(duel, view, seat, random.Random(seed), 60) == f"{SIDES[seat]}3"


def test_a_simultaneous_pick_made_unseen_is_not_searched():
    duel, bot = Duel(), MCTSBot("test", playouts=100)
    moves = set()
    for east in ("E1", "E2", "E3"):
        state = duel.play(duel.start({}, 0), 0, east)
        assert duel.to_move(state) == {1}
        moves.add(bot.choose(duel, duel.seat_view(state, 1), 1, random.Random(4), 60))
    assert moves == {"W3"}


def test_a_simultaneous_pick_made_in_the_open_is_answered():
    duel, bot = OpenDuel(), MCTSBot("test", playouts=100)
    state = duel.play(duel.start({}, 0), 0, "E3")
    assert bot.choose(duel, state, 1, random.Random(4), 60) == "W3"  # a draw; W1, W2 lose
    state = duel.play(duel.start({}, 0), 0, "E1")
    assert bot.choose(duel, state, 1, random.Random(4), 60) in {"W2", "W3"}
