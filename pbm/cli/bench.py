"""`pbm bench`: measured speed of the rule modules and of the whole mail path."""

from __future__ import annotations

import click

from pbm.cli import main


@main.group()
def bench() -> None:
    """Benchmarks (figures for closing notes come from here, not from unit tests)."""


@bench.command()
@click.option("--games", default=200, show_default=True, help="Random games to play out.")
@click.option("--seed", default=1, show_default=True)
def loophole(games: int, seed: int) -> None:
    """Random Loophole games to the end: moves per second and win-check cost per move."""
    from pbm.bench.loophole import run

    for key, value in run(games, seed).items():
        click.echo(f"{key:<32}{value}")


@bench.command()
@click.option("--boards", default=10, show_default=True, help="Loophole boards played at once.")
@click.option("--moves", default=100, show_default=True, help="Moves per board (at most).")
@click.option("--connections", default=1, show_default=True,
              help="SMTP connections sending at once (as an MTA delivering in parallel).")
@click.option("--seed", default=1, show_default=True)
def mail(boards: int, moves: int, connections: int, seed: int) -> None:
    """Moves per second through a real `pbm serve`, next to a do-nothing aiosmtpd."""
    from pbm.bench.mail import run

    for key, value in run(boards, moves, seed, connections).items():
        click.echo(f"{key:<32}{value}")
