"""How many probes a Pipeline bot needs to find a random secret, alone (Mastermind's measure).

In a real game both players' probes read both pipelines, so a bot learns from its opponent's
probes as well as its own; to count what the bot's deduction needs by itself, this plays it
alone: random coins (as the bots place them), a secret drawn uniformly among every pipeline
and holes between them, and after each of the bot's turns the turn is handed straight back,
so the opponent never moves. Counted until the bot names the holes: its probes and its turns
(probes, wrong guesses and the right one).
"""

from __future__ import annotations

import dataclasses
import random
import statistics
from collections.abc import Iterable
from concurrent.futures import Executor
from typing import Any

from pbm.games import registry
from pbm.games.bots import bot_userid, choose
from pbm.games.pipeline.flow import CELLS
from pbm.games.pipeline.seats import all_secrets
from pbm.games.pipeline.state import Guess, Phase, PlaceCoin, SubmitPipe

MOST_TURNS = 200  # far past any search seen; a bot that needs more is reported as a failure


@dataclasses.dataclass(frozen=True)
class Search:
    strength: str
    seed: int
    seconds: float


@dataclasses.dataclass(frozen=True)
class Found:
    probes: int
    turns: int
    found: bool


def find(spec: Search) -> Found:
    """One search: the bot in seat 0 against a hidden random secret in seat 1."""
    game = registry.get("pipeline")
    rng = random.Random(spec.seed)
    head, tail = rng.sample(CELLS, 2)
    state = game.start({}, spec.seed)
    state = game.play(state, 0, PlaceCoin(head))
    state = game.play(state, 1, PlaceCoin(tail))
    state = game.play(state, 1, SubmitPipe(rng.choice(all_secrets(head, tail)).pipe))
    probes = turns = 0
    while turns < MOST_TURNS:
        move = choose(game, game.seat_view(state, 0), 0, spec.strength,
                      spec.seed * 1_000_003 + turns, spec.seconds)
        state = game.play(state, 0, move)
        if isinstance(move, SubmitPipe):
            continue
        turns += 1
        if state.phase is Phase.OVER:
            return Found(probes, turns, state.winner == 0)
        if not isinstance(move, Guess):
            probes += 1
        state = dataclasses.replace(state, turn=0)  # the opponent passes
    return Found(probes, turns, False)


def run(pool: Executor, searches: int = 200, strengths: Iterable[str] = ("good", "best"),
        seconds: float = 3.0, seed: int = 1) -> dict[str, Any]:
    """`searches` searches by each strength: probes and turns, mean and worst, over the
    searches that found the secret (`found` says how many did)."""
    figures: dict[str, Any] = {}
    for strength in strengths:
        specs = [Search(strength, seed * 100_000 + n, seconds) for n in range(searches)]
        found = [one for one in pool.map(find, specs, chunksize=4) if one.found]
        probes = [one.probes for one in found] or [0]
        turns = [one.turns for one in found] or [0]
        figures[f"pipeline.{bot_userid(strength)}_finds"] = {
            "searches": searches,
            "found": len(found),
            "probes_mean": round(statistics.fmean(probes), 2),
            "probes_worst": max(probes),
            "turns_mean": round(statistics.fmean(turns), 2),
            "turns_worst": max(turns),
        }
    return figures
