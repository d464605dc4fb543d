"""`pbm ladder GAME`: the operator reads a game's ladder, as the `GAME ladder` mail shows it
(the top ranks; read-only: joining and challenges are the players' own, by mail)."""

from __future__ import annotations

import click

from pbm.cli.admin import _refusals
from pbm.cli.app import App, main, pass_app


@main.command()
@click.argument("game")
@pass_app
def ladder(app: App, game: str) -> None:
    """Print the ladder of GAME: rank, player, rating, ladder wins and losses, challenges."""
    from pbm.games import registry
    from pbm.views.ladder_page import ladder_page, ladder_text

    with _refusals():
        info = registry.lookup(game).info
    reach = app.config.limits.ladder_reach
    with app.store(read_only=True)() as session:
        click.echo(ladder_text(ladder_page(session, info.name, info.title, reach)), nl=False)
