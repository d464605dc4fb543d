"""`pbm bench bots`: how strong the bots are, by matches between them.

For each game and pairing (best against easy, good against easy, best against good), games
with the seats alternated, each bot given only its seat's view as the server gives it
(games/bots.choose). Reported: wins, draws and losses of the first-named bot with a Wilson
95% interval on its share of points (a draw is half), and think time per move (CPU seconds
of the thinking process, median and 95th percentile) of each strength; for Pipeline also the
probes each bot needs to find a random secret alone (pipeline_find). Games run in worker
processes, one per core: each game is its own seeded world, so the figures do not depend on
how the games were dealt out.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from pbm.bench import pipeline_find
from pbm.games import registry
from pbm.games.bots import bot_userid, choose

PAIRINGS = (("best", "easy"), ("good", "easy"), ("best", "good"))
MOST_PLIES = 2000  # a game that runs longer is scored a draw (none of ours should)
Z = 1.959964  # the normal quantile of a two-sided 95% interval


@dataclass(frozen=True)
class Game:
    """One game of a match: which bot sits where, and its seeds."""

    game: str
    first: str  # strength in seat 0
    second: str  # strength in seat 1
    seed: int
    seconds: float


@dataclass
class Played:
    winners: frozenset[int]
    plies: int
    think: dict[str, list[float]] = field(default_factory=dict)  # strength -> CPU s a move


def play(spec: Game) -> Played:
    """One game between two bots to its end."""
    game = registry.get(spec.game)
    state = game.start({opt.name: opt.default for opt in game.info.options}, spec.seed)
    seats = (spec.first, spec.second)
    think: dict[str, list[float]] = {}
    plies = 0
    while game.result(state) is None and plies < MOST_PLIES:
        for seat in sorted(game.to_move(state)):
            strength = seats[seat]
            started = time.process_time()
            move = choose(game, game.seat_view(state, seat), seat, strength,
                          spec.seed * 1_000_003 + plies * 2 + seat, spec.seconds)
            think.setdefault(strength, []).append(time.process_time() - started)
            state = game.play(state, seat, move)
            plies += 1
            if game.result(state) is not None:
                break
    outcome = game.result(state)
    return Played(outcome.winners if outcome else frozenset(), plies, think)


def wilson(points: float, games: int) -> tuple[float, float]:
    """The Wilson score interval (95%) of a share `points / games`."""
    if not games:
        return (0.0, 1.0)
    share = points / games
    centre = share + Z * Z / (2 * games)
    spread = Z * math.sqrt(share * (1 - share) / games + Z * Z / (4 * games * games))
    bottom = 1 + Z * Z / games
    return (max(0.0, (centre - spread) / bottom), min(1.0, (centre + spread) / bottom))


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def run(games: int = 200, names: Iterable[str] | None = None, seconds: float = 3.0,
        seed: int = 1, workers: int | None = None,
        progress: Callable[[str], None] | None = None,
        pairings: Iterable[tuple[str, str]] = PAIRINGS) -> dict[str, Any]:
    """`games` games of each of `pairings` (strong, weak) in each game (seats alternated)."""
    names = list(names or registry.names())
    pairings = list(pairings)
    figures: dict[str, Any] = {"games_per_pairing": games, "think_seconds": seconds}
    with ProcessPoolExecutor(workers or os.cpu_count() or 1) as pool:
        for name in names:
            think: dict[str, list[float]] = {}
            for strong, weak in pairings:
                specs = [Game(name, *((strong, weak) if n % 2 == 0 else (weak, strong)),
                              seed=seed * 100_000 + n, seconds=seconds) for n in range(games)]
                won = drawn = lost = 0
                for spec, played in zip(specs, pool.map(play, specs, chunksize=4)):
                    strong_seat = 0 if spec.first == strong else 1
                    if not played.winners:
                        drawn += 1
                    elif strong_seat in played.winners:
                        won += 1
                    else:
                        lost += 1
                    for strength, times in played.think.items():
                        think.setdefault(strength, []).extend(times)
                low, high = wilson(won + drawn / 2, games)
                key = f"{name}.{bot_userid(strong)}_vs_{bot_userid(weak)}"
                figures[key] = {"won": won, "drawn": drawn, "lost": lost,
                                "score_95": [round(low, 3), round(high, 3)]}
                if progress is not None:
                    progress(f"{name}: {bot_userid(strong)} against {bot_userid(weak)}: "
                             f"{won} won, {drawn} drawn, {lost} lost (score {low:.2f}-"
                             f"{high:.2f})")
            for strength, times in sorted(think.items()):
                figures[f"{name}.{bot_userid(strength)}_think_ms"] = {
                    "median": round(_percentile(times, 0.5) * 1000, 1),
                    "p95": round(_percentile(times, 0.95) * 1000, 1),
                    "max": round(max(times) * 1000, 1)}
            if name == "pipeline" and pairings == list(PAIRINGS):
                # Mastermind's measure too: probes to find a random secret, alone.
                found = pipeline_find.run(pool, games, seconds=seconds, seed=seed)
                figures.update(found)
                if progress is not None:
                    for key, one in found.items():
                        progress(f"{key}: {one['found']} of {one['searches']} found, probes "
                                 f"mean {one['probes_mean']} worst {one['probes_worst']}")
    return figures
