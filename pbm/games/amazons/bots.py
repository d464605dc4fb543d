"""Amazons' bots: the general Monte Carlo tree search, with a tighter budget for `best`.

Amazons' positions are wide (2,176 moves at the start: the search looks at a sample of
100, games/mcts.py) and its random playouts long (70-80 moves), so the default 160,000
positions of `best` took up to 4.1 s of CPU a move on the 2-core test machine. Capped at
100,000 it took 2.3 s at most (median 1.3 s, a move every six plies of a random game),
within the ~3 s the server allows a bot's move. `good` keeps the default 200 playouts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbm.games.mcts import MCTSBot

BEST_POSITIONS = 100_000


def own_bots() -> Mapping[str, Any]:
    return {"good": MCTSBot(strength="good", playouts=200),
            "best": MCTSBot(strength="best", playouts=2000, positions=BEST_POSITIONS)}
