"""`pbm tournament ...`: the operator's side of tournaments, through the same service
functions as the mail commands (the operator may start and cancel any of them)."""

from __future__ import annotations

import click

from pbm.cli.admin import as_operator
from pbm.cli.app import App, main, pass_app


@main.group()
def tournament() -> None:
    """Tournaments: create, join players, start, cancel, show, list."""


@tournament.command(context_settings={"ignore_unknown_options": True})
@click.argument("game")
@click.argument("name")
@click.argument("options", nargs=-1)
@pass_app
def create(app: App, game: str, name: str, options: tuple[str, ...]) -> None:
    """Open a tournament of GAME (-format=roundrobin|swiss|knockout -rounds=N -pool=N
    -nagtime=N -forfeittime=N), organised by the operator."""
    from pbm.commands.tournament import create as open_one
    from pbm.games import registry

    as_operator(app, lambda ctx: open_one(ctx, registry.lookup(game), name, None,
                                           list(options)))


def _on(app: App, game: str, name: str, act: str, userid: str | None = None) -> None:
    from pbm.accounts.users import require_user
    from pbm.boards.rounds import locked
    from pbm.commands import tournament as service
    from pbm.context import Context
    from pbm.games import registry

    def run(ctx: Context) -> None:
        t = locked(ctx.session, service.find(ctx, registry.lookup(game), name).id)
        if act == "show":
            service.show(ctx, t)
        elif act == "start":
            service.start(ctx, t, None)
        elif act == "cancel":
            service.cancel(ctx, t, None)
        else:
            assert userid is not None
            user = require_user(ctx, userid)
            (service.join if act == "join" else service.leave)(ctx, t, user)

    as_operator(app, run)


@tournament.command()
@click.argument("game")
@click.argument("name")
@click.argument("userid")
@pass_app
def join(app: App, game: str, name: str, userid: str) -> None:
    """Enter USERID in the open tournament NAME of GAME."""
    _on(app, game, name, "join", userid)


@tournament.command()
@click.argument("game")
@click.argument("name")
@click.argument("userid")
@pass_app
def leave(app: App, game: str, name: str, userid: str) -> None:
    """Take USERID out (while it runs: a withdrawal, their games left are lost)."""
    _on(app, game, name, "leave", userid)


@tournament.command()
@click.argument("game")
@click.argument("name")
@pass_app
def start(app: App, game: str, name: str) -> None:
    """Seed the players and start round 1."""
    _on(app, game, name, "start")


@tournament.command()
@click.argument("game")
@click.argument("name")
@pass_app
def cancel(app: App, game: str, name: str) -> None:
    """No more rounds (its boards in play go on, rated as any)."""
    _on(app, game, name, "cancel")


@tournament.command()
@click.argument("game")
@click.argument("name")
@pass_app
def show(app: App, game: str, name: str) -> None:
    """Print the standings and every round's pairings."""
    _on(app, game, name, "show")


@tournament.command(name="list")
@click.argument("game")
@pass_app
def list_(app: App, game: str) -> None:
    """The game's tournaments, newest first."""
    from pbm.commands.tournament import listing
    from pbm.context import Context
    from pbm.games import registry

    with app.store(read_only=True)() as session:
        click.echo(listing(Context(session, "", admin=True), registry.lookup(game)), nl=False)
