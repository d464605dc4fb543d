"""Amazons' bots: the general Monte Carlo tree search, with budgets for its long playouts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbm.games.mcts import MCTSBot


def own_bots() -> Mapping[str, Any]:
    return {"good": MCTSBot(strength="good", playouts=200),
            "best": MCTSBot(strength="best", playouts=2000, positions=160_000)}
