"""Computer players on the game contract: what a bot is, and the general ones every game has.

A bot is pure like the rules: given the seat's view (Game.seat_view: never the state), the
seat, a seeded random source and a think-time cap, it chooses a move. Its strength is its
search budget counted in work (playouts, positions), not in seconds, so that the same seed
gives the same move on any machine; the seconds only cut a search short on a machine too
slow for its budget (then the move may differ from a faster machine's).

Every game gets `easy` (a uniformly random legal move) and two Monte Carlo tree searches
(games/mcts.py) as `good` and `best`; a game lays players of its own over these
(Game.own_bots): Trou's exact solution, say.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from pbm.games.base import AnyGame
from pbm.games.bot_names import STRENGTHS, bot_userid, strength_of
from pbm.games.mcts import MCTSBot

__all__ = ["STRENGTHS", "Bot", "RandomBot", "bot_userid", "bots_of", "choose",
           "default_bots", "strength_of", "think"]


class Bot(Protocol):
    """A player of one strength: `choose` returns a move legal for `seat`."""

    @property
    def strength(self) -> str: ...

    @property
    def method(self) -> str:
        """How it plays, a line for `help bots` ("2,000 playouts a move")."""
        ...

    def choose(self, game: AnyGame, view: Any, seat: int, rng: random.Random,
               seconds: float) -> Any: ...


@dataclass(frozen=True)
class RandomBot:
    """A uniformly random legal move: the bot a beginner can beat."""

    strength: str = "easy"
    method: str = "a random legal move"

    def choose(self, game: AnyGame, view: Any, seat: int, rng: random.Random,
               seconds: float) -> Any:
        # A sampled state's legal moves are the seat's own: what is hidden from it (the
        # opponent's secret) never decides what it may play.
        return game.random_move(game.sample_state(view, seat, rng), seat, rng)


def default_bots(game: AnyGame) -> dict[str, Bot]:
    """The general bots: easy, and Monte Carlo tree search at two budgets.

    Measured on a 2-core machine (before Trou and Synapse-Ice had bots of their own), best
    took under 2 s a move at the 95th percentile at those two; Loophole's playouts are ~250
    moves, so its positions budget holds it to ~600 of them (2.85 s p95 of CPU); good takes
    a few tenths of a second at every game. A game may cap the positions
    (Game.bot_positions): Amazons does, its positions being wide and its playouts long."""
    budget = game.bot_positions
    return {"easy": RandomBot(),
            "good": MCTSBot(strength="good", playouts=200, positions=budget.get("good")),
            "best": MCTSBot(strength="best", playouts=2000,
                            positions=budget.get("best", 160_000))}


def bots_of(game: AnyGame) -> Mapping[str, Bot]:
    """The game's bots by strength: the defaults with the game's own laid over them."""
    return {**default_bots(game), **game.own_bots()}


def choose(game: AnyGame, view: Any, seat: int, strength: str, seed: int,
           seconds: float) -> Any:
    """The move of `strength`'s bot for `seat`, from the seat's `view` (Game.seat_view)
    alone. Deterministic in `seed` (within its `seconds`)."""
    return bots_of(game)[strength].choose(game, view, seat, random.Random(seed), seconds)


def think(game: AnyGame, state: Any, seat: int, strength: str, seed: int,
          seconds: float) -> Any:
    """choose() for the seat, given the seat's view of `state` and nothing else."""
    return choose(game, game.seat_view(state, seat), seat, strength, seed, seconds)
