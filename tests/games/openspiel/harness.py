"""Differential play: a pbm rule module and DeepMind's OpenSpiel, move for move.

OpenSpiel (the `open-spiel` wheel, in the test extra only) implements the six classics
independently of us. A Bridge, written once per game, maps between the two notations; play()
then plays one game through both side by side and, before every move and at the end,
compares what each says: the set of legal moves, who is to move, whether the game is over,
and who won. The first disagreement ends the game and is reported with the moves that led
to it, so that it can be replayed by hand (replay()).

Where OpenSpiel's rules differ on purpose from those pbm follows (a variant, a limit), the
bridge says so in `differences` and the game's tests check the difference itself.
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pyspiel

from pbm.games.base import AnyGame

# A whole pbm move as OpenSpiel plays it: one action for most games, several where OpenSpiel
# splits a move in steps (an Amazons move is three: the queen, where it goes, the arrow).
Actions = tuple[int, ...]


class Bridge(ABC):
    """The mapping between a pbm game and its OpenSpiel twin."""

    game: AnyGame  # the pbm rule module
    spiel_name: str  # OpenSpiel's short name: "hex"
    spiel_params: dict[str, Any] = {}
    pbm_options: tuple[str, ...] = ()  # challenge option words: ("-size=9",)
    differences: tuple[str, ...] = ()  # where the two follow different rules, in words
    most_plies = 2000  # a game longer than this is a bug in one of the two

    def spiel_game(self) -> Any:
        return pyspiel.load_game(self.spiel_name, dict(self.spiel_params))

    def player(self, seat: int) -> int:
        """OpenSpiel's player number of a pbm seat (the same, unless a bridge says)."""
        return seat

    @abstractmethod
    def actions(self, state: Any, seat: int, move: Any) -> Actions:
        """The OpenSpiel actions that make `seat`'s pbm `move` from pbm `state`."""

    def spiel_moves(self, spiel_state: Any) -> set[Actions]:
        """Every whole move OpenSpiel allows its player to move now, as action tuples: by
        default each legal action is a move. A game whose moves take several actions
        walks them (moves_in_steps)."""
        return {(a,) for a in spiel_state.legal_actions()}

    def pbm_moves(self, state: Any, seat: int) -> set[Actions]:
        """Every legal pbm move of `seat`, in OpenSpiel's actions."""
        return {self.actions(state, seat, move) for move in self.game.legal_moves(state, seat)}

    def describe(self, actions: Actions, spiel_state: Any) -> str:
        """A move in OpenSpiel's own words, for reports."""
        return "+".join(spiel_state.action_to_string(spiel_state.current_player(), a)
                        for a in actions)

    def choose(self, state: Any, seat: int, rng: random.Random, biased: bool) -> Any:
        """The pbm move to play next: uniform, or (biased) as the bridge prefers, so that
        the games also reach what random play rarely does (captures, passes, long games)."""
        return self.game.random_move(state, seat, rng)

    def compare(self, state: Any, spiel_state: Any) -> str | None:
        """What the two disagree on before a move (or at the end), or None."""
        pbm_over = self.game.result(state) is not None
        if pbm_over != spiel_state.is_terminal():
            return (f"pbm says the game is {'over' if pbm_over else 'running'}, OpenSpiel"
                    f" {'over' if spiel_state.is_terminal() else 'running'}")
        if pbm_over:
            return self.compare_outcome(state, spiel_state)
        seats = self.game.to_move(state)
        if len(seats) != 1:
            return f"pbm has {len(seats)} seats to move; a bridge must say how to compare"
        (seat,) = seats
        if self.player(seat) != spiel_state.current_player():
            return (f"pbm has seat {seat} to move, OpenSpiel player"
                    f" {spiel_state.current_player()}")
        ours, theirs = self.pbm_moves(state, seat), self.spiel_moves(spiel_state)
        if ours != theirs:
            only_ours = sorted(ours - theirs)[:5]
            only_theirs = sorted(theirs - ours)[:5]
            return (f"legal moves differ: only pbm allows"
                    f" {[self.describe(m, spiel_state) for m in only_ours]},"
                    f" only OpenSpiel {[self.describe(m, spiel_state) for m in only_theirs]}"
                    f" ({len(ours)} against {len(theirs)})")
        return None

    def compare_outcome(self, state: Any, spiel_state: Any) -> str | None:
        outcome = self.game.result(state)
        assert outcome is not None
        returns = spiel_state.returns()
        best = max(returns)
        spiel_winners = frozenset() if min(returns) == best else frozenset(
            seat for seat in range(self.game.info.players)
            if returns[self.player(seat)] == best)
        if outcome.winners != spiel_winners:
            return (f"pbm's winners are {sorted(outcome.winners)} ({outcome.reason}),"
                    f" OpenSpiel's returns {returns}")
        return None

    def step(self, state: Any, spiel_state: Any, seat: int, move: Any) -> tuple[Any, Any]:
        """Both games after `seat` plays `move` (a bridge for a simultaneous step overrides
        this and compare())."""
        for action in self.actions(state, seat, move):
            spiel_state.apply_action(action)
        return self.game.play(state, seat, move), spiel_state


def moves_in_steps(spiel_state: Any, steps: int) -> set[Actions]:
    """Every sequence of `steps` actions the player to move can make in a row, where
    OpenSpiel splits one move into that many decisions of the same player."""
    if steps == 0:
        return {()}
    found: set[Actions] = set()
    player = spiel_state.current_player()
    for action in spiel_state.legal_actions():
        child = spiel_state.child(action)
        if steps > 1 and child.current_player() != player:
            raise AssertionError("OpenSpiel's move ended before its steps did")
        found.update((action, *rest) for rest in moves_in_steps(child, steps - 1))
    return found


@dataclass
class Disagreement:
    seed: int
    moves: list[str]  # the pbm notations played before it
    what: str

    def __str__(self) -> str:
        return f"seed {self.seed}, after {' '.join(self.moves) or 'no move'}: {self.what}"


@dataclass
class Tally:
    games: int = 0
    plies: int = 0
    wins: dict[str, int] = field(default_factory=dict)  # "seat 0", "draw": how often
    disagreements: list[Disagreement] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.plies += other.plies
        for key, count in other.wins.items():
            self.wins[key] = self.wins.get(key, 0) + count
        self.disagreements.extend(other.disagreements)
        self.seconds += other.seconds

    def line(self, name: str) -> str:
        ends = ", ".join(f"{key} {count}" for key, count in sorted(self.wins.items()))
        return (f"{name}: {self.games:,} games, {self.plies:,} moves compared, "
                f"{len(self.disagreements)} disagreements ({ends}) in {self.seconds:.0f} s")


def play(bridge: Bridge, seed: int, biased: bool = False) -> Tally:
    """One game through both implementations; a Tally of one game."""
    started = time.perf_counter()
    rng = random.Random(seed)
    game = bridge.game
    state = game.start(game.parse_options(bridge.pbm_options), seed)
    spiel_state = bridge.spiel_game().new_initial_state()
    played: list[str] = []
    tally = Tally(games=1)
    for _ in range(bridge.most_plies):
        problem = bridge.compare(state, spiel_state)
        if problem is not None:
            tally.disagreements.append(Disagreement(seed, played, problem))
            break
        outcome = game.result(state)
        if outcome is not None:
            key = "draw" if outcome.is_draw else "won by " + "+".join(
                game.info.seats[s] for s in sorted(outcome.winners))
            tally.wins[key] = 1
            break
        seat = min(game.to_move(state))
        move = bridge.choose(state, seat, rng, biased)
        played.append(game.notation(move))
        state, spiel_state = bridge.step(state, spiel_state, seat, move)
        tally.plies += 1
    else:
        tally.disagreements.append(Disagreement(seed, played, "no end in sight"))
    tally.seconds = time.perf_counter() - started
    return tally


def play_many(bridge: Bridge, seeds: Iterable[int]) -> Tally:
    """Games from each seed, every other one biased."""
    tally = Tally()
    for seed in seeds:
        tally.add(play(bridge, seed, biased=seed % 2 == 1))
    return tally


def replay(bridge: Bridge, notations: Sequence[str]) -> tuple[Any, Any]:
    """Both games after the pbm moves given (for a disagreement's report, by hand)."""
    game = bridge.game
    state = game.start(game.parse_options(bridge.pbm_options), 0)
    spiel_state = bridge.spiel_game().new_initial_state()
    for text in notations:
        seat = min(game.to_move(state))
        state, spiel_state = bridge.step(state, spiel_state, seat,
                                         game.parse(state, seat, text))
    return state, spiel_state


BRIDGES: dict[str, Callable[[], Bridge]] = {}  # pbm game name -> its bridge (run.py)


def bridge(name: str) -> Callable[[type[Bridge]], type[Bridge]]:
    """Register a Bridge class under the pbm game's name, for run.py."""
    def register(cls: type[Bridge]) -> type[Bridge]:
        BRIDGES[name] = cls
        return cls
    return register
