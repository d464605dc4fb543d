"""A whole Swiss played by dice, timing each round's pairing: what `pbm bench` reports."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from pbm.tournaments.results import Result
from pbm.tournaments.swiss import pair

DRAWS = 0.1  # share of games drawn, whatever the ratings


def play(white: str, black: str, ratings: dict[str, float], dice: random.Random) -> str | None:
    """A game's winner by the Elo expectation (None: a draw)."""
    if dice.random() < DRAWS:
        return None
    expected = 1 / (1 + 10 ** ((ratings[black] - ratings[white]) / 400))
    return white if dice.random() < expected else black


def simulate(n_players: int, rounds: int, seed: int,
             progress: Callable[[str], None] | None = None) -> list[float]:
    """Seconds spent pairing each of `rounds` rounds of an `n_players` Swiss whose games
    are decided by dice (seeded: the same seed plays the same tournament); `progress` is
    told each round's."""
    dice = random.Random(seed)
    ratings = {f"p{index:04d}": float(dice.randint(1000, 2200)) for index in range(n_players)}
    results: list[Result] = []
    seconds: list[float] = []
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        boards = pair(ratings, results, seed=seed)
        seconds.append(time.perf_counter() - start)
        if progress is not None:
            progress(f"swiss: round {number}/{rounds} paired in {seconds[-1]:.3f} s "
                     f"({len(boards)} boards)")
        for board in boards:
            if board.black is None:
                results.append(Result.bye(board.white, round=number))
            else:
                winner = play(board.white, board.black, ratings, dice)
                results.append(Result(board.white, board.black, winner, round=number))
    return seconds
