"""Loophole benchmark: random games to the end, timing play() and its win check per move."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pbm.games.loophole import GAME
from pbm.games.loophole.board import loop_masks

# Moves are split by how full the board is when they are played, to show that placing a
# stone costs the same on an open board as on a crowded one.
EARLY_MOVES = 50  # the first 50 stones of a game
LATE_FROM = 150  # stones from the 150th on


@dataclass
class _Timer:
    """Total nanoseconds and count of one measured operation."""

    total_ns: int = 0
    count: int = 0

    def add(self, ns: int) -> None:
        self.total_ns += ns
        self.count += 1

    def mean_us(self) -> float:
        return self.total_ns / self.count / 1000 if self.count else 0.0


@dataclass
class _Tally:
    play: _Timer = field(default_factory=_Timer)
    check: _Timer = field(default_factory=_Timer)
    play_early: _Timer = field(default_factory=_Timer)
    play_late: _Timer = field(default_factory=_Timer)
    check_early: _Timer = field(default_factory=_Timer)
    check_late: _Timer = field(default_factory=_Timer)
    wins: list[int] = field(default_factory=lambda: [0, 0])


def _play_one(rng: random.Random, seed: int, tally: _Tally) -> None:
    clock = time.perf_counter_ns
    state = GAME.start({}, seed)
    moves = 0
    while state.winner < 0:
        seat = state.seat_to_move
        move = GAME.random_move(state, seat, rng)
        t0 = clock()
        state = GAME.play(state, seat, move)
        t1 = clock()
        # The same win check play() runs, timed alone on the position it produced.
        loop_masks(state.parent, seat)
        t2 = clock()
        moves += 1
        tally.play.add(t1 - t0)
        tally.check.add(t2 - t1)
        if moves <= EARLY_MOVES:
            tally.play_early.add(t1 - t0)
            tally.check_early.add(t2 - t1)
        elif moves >= LATE_FROM:
            tally.play_late.add(t1 - t0)
            tally.check_late.add(t2 - t1)
    tally.wins[state.winner] += 1


def run(games: int, seed: int, progress: Callable[[str], None] | None = None
        ) -> dict[str, float]:
    """Play `games` random games to the end; timings in microseconds per move. `progress`
    is told how far it is, ten times along the way."""
    rng = random.Random(seed)
    tally = _Tally()
    every = max(1, games // 10)
    started = time.perf_counter()
    for number in range(games):
        _play_one(rng, seed + number, tally)
        if progress is not None and ((number + 1) % every == 0 or number + 1 == games):
            progress(f"loophole: {number + 1}/{games} games, {tally.play.count:,} moves "
                     f"({time.perf_counter() - started:.1f} s)")
    elapsed = time.perf_counter() - started
    moves = tally.play.count
    return {
        "games": games,
        "moves": moves,
        "moves_per_game": moves / games if games else 0.0,
        "black_wins": tally.wins[0],
        "white_wins": tally.wins[1],
        "moves_per_second": moves / (tally.play.total_ns / 1e9) if moves else 0.0,
        "moves_per_second_overall": moves / elapsed if elapsed else 0.0,
        "play_us": tally.play.mean_us(),
        "play_us_early": tally.play_early.mean_us(),
        "play_us_late": tally.play_late.mean_us(),
        "win_check_us": tally.check.mean_us(),
        "win_check_us_early": tally.check_early.mean_us(),
        "win_check_us_late": tally.check_late.mean_us(),
    }


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    games = int(args[0]) if args else 200
    seed = int(args[1]) if len(args) > 1 else 1
    figures = run(games, seed)
    print(f"Loophole: {figures['games']} random games, {figures['moves']} moves"
          f" ({figures['moves_per_game']:.1f} a game; Black won {figures['black_wins']},"
          f" White {figures['white_wins']})")
    print(f"  play():     {figures['moves_per_second']:,.0f} moves/s,"
          f" {figures['play_us']:.2f} us a move"
          f" (first {EARLY_MOVES} moves {figures['play_us_early']:.2f} us,"
          f" from move {LATE_FROM} on {figures['play_us_late']:.2f} us)")
    print(f"  win check:  {figures['win_check_us']:.2f} us a move"
          f" (first {EARLY_MOVES} moves {figures['win_check_us_early']:.2f} us,"
          f" from move {LATE_FROM} on {figures['win_check_us_late']:.2f} us)")
    print(f"  with random move choice: {figures['moves_per_second_overall']:,.0f} moves/s")


if __name__ == "__main__":
    main()
