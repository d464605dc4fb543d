"""The operator's view of ratings: a game's standings, and rebuilding ratings from scratch."""

from __future__ import annotations

import sys

import click

from pbm.cli.admin import _refusals
from pbm.cli.app import App, main, pass_app


@main.command()
@click.argument("game")
@pass_app
def standings(app: App, game: str) -> None:
    """Print the standings of GAME, as the 'GAME standings' mail shows them."""
    from pbm.commands.standing_commands import standings_of
    from pbm.context import Context
    from pbm.games import registry

    with _refusals():
        name = registry.lookup(game).info.name
    with app.store(read_only=True)() as session:
        click.echo(standings_of(Context(session, "", admin=True), name)[0].rstrip("\n"))


@main.group()
def ratings() -> None:
    """Ratings: check or repair them by replaying the rated games."""


@ratings.command()
@click.argument("game", required=False)
@click.option("--fix", is_flag=True, help="Store the replayed ratings where they differ.")
@pass_app
def rebuild(app: App, game: str | None, fix: bool) -> None:
    """Replay every rated game (of GAME) in the order it was rated, from everyone at 1600,
    and compare with the stored ratings, records and boards' rating changes.

    Prints each difference. Without --fix nothing is written and differences exit 1; with
    --fix the replayed values replace the stored ones.
    """
    from pbm.games import registry
    from pbm.ratings.rebuild import rebuild as run_rebuild

    name = None
    if game is not None:
        with _refusals():
            name = registry.lookup(game).info.name
    factory = app.store(read_only=not fix)
    with factory() as session, session.begin():
        differences = run_rebuild(session, name, fix=fix)
    for line in differences:
        click.echo(line)
    if not differences:
        click.echo("The stored ratings are as the rated games make them.")
    elif fix:
        click.echo(f"Fixed {len(differences)} difference(s).")
    else:
        click.echo(f"{len(differences)} difference(s); 'pbm ratings rebuild --fix' stores "
                   "the replayed values.")
        sys.exit(1)
