"""Monte Carlo tree search (UCT) on the game contract, for the bots of games/bots.py."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from pbm.games.base import AnyGame


@dataclass(frozen=True)
class MCTSBot:
    """UCT with `playouts` simulations a move (placeholder: the search is being written)."""

    strength: str
    playouts: int

    @property
    def method(self) -> str:
        return f"Monte Carlo tree search, {self.playouts:,} playouts a move"

    def choose(self, game: AnyGame, view: Any, seat: int, rng: random.Random,
               seconds: float) -> Any:
        return game.random_move(game.sample_state(view, seat, rng), seat, rng)
