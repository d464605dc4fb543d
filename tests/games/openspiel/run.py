"""The differential run at scale: `python -m tests.games.openspiel.run [GAME ...] --games N`.

Plays N games per game (every other one biased, harness.play_many) through pbm and
OpenSpiel side by side in worker processes, and prints per game the games, the moves
compared, the disagreements (each with its seed and moves) and the time. The test suite
plays a few hundred per game (test_*.py, marked slow); this is the run the closing notes
and README report. Exits 1 on any disagreement.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from concurrent.futures import ProcessPoolExecutor
from os import cpu_count

from tests.games.openspiel import harness

CHUNK = 50  # games per task: small enough to spread, large enough to amortise


def load_bridges() -> dict[str, type]:
    """Every bridge module of this package (one per game, each registering itself)."""
    package = sys.modules[__package__ or "tests.games.openspiel"]
    for info in pkgutil.iter_modules(package.__path__):
        if info.name not in ("harness", "run") and not info.name.startswith("test_"):
            importlib.import_module(f"{package.__name__}.{info.name}")
    return dict(harness.BRIDGES)


def _chunk(name: str, first: int, count: int) -> harness.Tally:
    load_bridges()
    return harness.play_many(harness.BRIDGES[name](), range(first, first + count))


def main(argv: list[str] | None = None) -> int:
    bridges = load_bridges()
    parser = argparse.ArgumentParser(prog="python -m tests.games.openspiel.run")
    parser.add_argument("games", nargs="*",
                        help=f"games to check (default all: {', '.join(sorted(bridges))})")
    parser.add_argument("--games", dest="count", type=int, default=10_000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=cpu_count() or 1)
    args = parser.parse_args(argv)
    names = args.games or sorted(bridges)
    unknown = sorted(set(names) - set(bridges))
    if unknown:
        parser.error(f"no bridge for {', '.join(unknown)}; have {', '.join(sorted(bridges))}")
    failed = False
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for name in names:
            tally = harness.Tally()
            starts = range(args.first_seed, args.first_seed + args.count, CHUNK)
            futures = [pool.submit(_chunk, name, start,
                                   min(CHUNK, args.first_seed + args.count - start))
                       for start in starts]
            for future in futures:
                tally.add(future.result())
            print(tally.line(name), flush=True)
            for problem in tally.disagreements[:10]:
                print(f"  {problem}", flush=True)
            failed = failed or bool(tally.disagreements)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
