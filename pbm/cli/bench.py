"""`pbm bench`: measured speed of the rule modules and of the whole mail path."""

from __future__ import annotations

import json
from typing import Any

import click

from pbm.cli.app import main

as_json = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")


def _progress(line: str) -> None:
    """A step of a bench as it goes, on standard error: standard output keeps the figures
    alone, as scripts parse them."""
    click.echo(line, err=True)


def _report(figures: dict[str, Any], as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(figures))
        return
    width = max([32, *(len(key) + 2 for key in figures)])
    for key, value in figures.items():
        click.echo(f"{key:<{width}}{'n/a' if value is None else value}")


@main.group()
def bench() -> None:
    """Benchmarks (figures for closing notes come from here, not from unit tests)."""


@bench.command()
@click.option("--games", default=200, show_default=True, help="Random games to play out.")
@click.option("--seed", default=1, show_default=True)
@as_json
def loophole(games: int, seed: int, as_json: bool) -> None:
    """Random Loophole games to the end: moves per second and win-check cost per move."""
    from pbm.bench.loophole import run

    _report(run(games, seed, progress=_progress), as_json)


@bench.command()
@click.option("--boards", default=10, show_default=True, help="Loophole boards played at once.")
@click.option("--moves", default=100, show_default=True, help="Moves per board (at most).")
@click.option("--connections", default=1, show_default=True,
              help="SMTP connections sending at once (as an MTA delivering in parallel).")
@click.option("--seed", default=1, show_default=True)
@click.option("--database", metavar="URL",
              help="A PostgreSQL server (postgresql+psycopg://user@host/db): the bench makes "
                   "a scratch database there and drops it after (default: SQLite).")
@click.option("--nodes", default=1, show_default=True,
              help="`pbm serve` nodes on the one database (with --database), each on its own "
                   "port; the connections are dealt over them.")
@as_json
def mail(boards: int, moves: int, connections: int, seed: int, database: str | None,
         nodes: int, as_json: bool) -> None:
    """Moves per second through real `pbm serve` nodes to the delivered board mails, next to
    a do-nothing aiosmtpd and a minimal durable server in the same run; the server's CPU
    ms, SQL statements and fsyncs per move (n/a: not counted here, see fsyncs_counted_by)."""
    from pbm.bench.mail import run

    try:
        figures = run(boards, moves, seed, connections, database, nodes, progress=_progress)
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    _report(figures, as_json)


@bench.command()
@click.option("--mails", default=20, show_default=True, help="Move mails piped in one by one.")
@as_json
def process(mails: int, as_json: bool) -> None:
    """CPU time per mail of `pbm process`, next to `python -c "import sqlalchemy.orm"` (a
    line per mail on stderr as it goes)."""
    from pbm.bench.process import run

    _report(run(mails, progress=_progress), as_json)


@bench.command()
@click.option("--small", default=1_000, show_default=True, help="Boards in the small store.")
@click.option("--big", default=100_000, show_default=True, help="Boards in the big store.")
@click.option("--users", default=10_000, show_default=True, help="Players in each store.")
@as_json
def scale(small: int, big: int, users: int, as_json: bool) -> None:
    """Move, show, games USERID and showas in a small and a big store; a long game's first
    and last moves."""
    from pbm.bench.scale import run

    _report(run(small, big, users, progress=_progress), as_json)


@bench.command()
@click.option("--small", default=1_000, show_default=True, help="Boards in the small store.")
@click.option("--big", default=100_000, show_default=True, help="Boards in the big store.")
@click.option("--pages", default=1_000, show_default=True,
              help="Board pages asked for in each store (each a different board).")
@click.option("--seed", default=1, show_default=True)
@as_json
def web(small: int, big: int, pages: int, seed: int, as_json: bool) -> None:
    """Board pages per second and their p95 from a real `pbm web`, beside a static file
    from the same server, at SMALL and at BIG boards; reloads answered 304 too."""
    from pbm.bench.web import run

    _report(run(small, big, pages, seed=seed, progress=_progress), as_json)


@bench.command()
@click.option("--mails", default=100_000, show_default=True, help="Move mails handled in all.")
@click.option("--first", default=1_000, show_default=True,
              help="Mails after which memory is read the first time.")
@as_json
def memory(mails: int, first: int, as_json: bool) -> None:
    """Resident memory of `pbm serve` after the first mails and after all of them."""
    from pbm.bench.memory import run

    _report(run(mails, first, progress=_progress), as_json)


@bench.command()
@click.option("--games", default=200, show_default=True,
              help="Games of each pairing in each game, seats alternated.")
@click.option("--game", "names", multiple=True, help="Only this game (again for more).")
@click.option("--seconds", default=3.0, show_default=True,
              help="Think-time cap per move (as [bots] think_seconds).")
@click.option("--pairing", "pairings", multiple=True,
              type=click.Choice(["bestbot-easybot", "goodbot-easybot", "bestbot-goodbot"]),
              help="Only this pairing (again for more); all three by default, and then "
              "Pipeline's probes to find a secret too.")
@click.option("--seed", default=1, show_default=True)
@click.option("--workers", type=int, help="Processes playing games (default: one per core).")
@as_json
def bots(games: int, names: tuple[str, ...], seconds: float, pairings: tuple[str, ...],
         seed: int, workers: int | None, as_json: bool) -> None:
    """Matches between the bots of each game (bestbot and goodbot against easybot, bestbot
    against goodbot): wins, draws, losses with a Wilson 95% interval on the score, and
    think time per move (a line per pairing on stderr as it goes)."""
    from pbm.bench.bots import PAIRINGS, run
    from pbm.games import registry
    from pbm.games.bot_names import bot_userid

    try:
        chosen = [registry.lookup(name).info.name for name in names] or None
    except Exception as err:
        raise click.UsageError(str(err)) from None
    chosen_pairings = [pair for pair in PAIRINGS
                       if not pairings or "-".join(map(bot_userid, pair)) in pairings]
    _report(run(games, chosen, seconds, seed, workers,
                progress=_progress, pairings=chosen_pairings),
            as_json)


@bench.command()
@click.option("--players", default=200, show_default=True, help="Players in the Swiss.")
@click.option("--rounds", type=int, help="Rounds (default: ceil(log2 players)).")
@click.option("--seed", default=1, show_default=True)
@as_json
def swiss(players: int, rounds: int | None, seed: int, as_json: bool) -> None:
    """A whole Swiss played by dice (ratings 1000-2200, Elo odds, a tenth drawn): the
    seconds pairing each round takes (pbm.tournaments.swiss, one weighted matching)."""
    from pbm.tournaments.simulation import simulate
    from pbm.tournaments.swiss import recommended_rounds

    count = rounds or recommended_rounds(players)
    seconds = simulate(players, count, seed, progress=_progress)
    _report({"players": players, "rounds": count,
             "seconds_per_round": [round(s, 3) for s in seconds],
             "slowest_round_seconds": round(max(seconds), 3),
             "total_seconds": round(sum(seconds), 3)}, as_json)
