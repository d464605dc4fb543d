"""`pbm bots`: the computer players, the games they play here, and their active boards."""

from __future__ import annotations

import click

from pbm.cli.app import App, main, pass_app


@main.command()
@pass_app
def bots(app: App) -> None:
    """List the bots (easybot, goodbot, bestbot) with the games they play here ([bots]
    games) and their active boards."""
    from pbm.accounts.bots import active_boards
    from pbm.accounts.users import find_user
    from pbm.context import Context
    from pbm.games import registry
    from pbm.games.bots import STRENGTHS, bot_userid
    from pbm.views.listings import board_line

    settings = app.config.bots
    played = [name for name in registry.names() if settings.plays(name)]
    click.echo("Bots play: " + (", ".join(played) if played else
                                "no game ([bots] games is empty: the bots are off)"))
    with app.store(read_only=True)() as session:
        ctx = Context(session, "", admin=True, bots=settings)
        for strength in STRENGTHS:
            userid = bot_userid(strength)
            user = find_user(ctx, userid)
            if user is not None and not user.bot:
                click.echo(f"\n{userid}: no such bot here (a person had the userid before the "
                           "bots came)")
                continue
            boards = active_boards(session, user) if user is not None else []
            click.echo(f"\n{userid} ({strength}): {len(boards)} active board"
                       f"{'s' if len(boards) != 1 else ''}"
                       + ("" if user is not None else " (not challenged yet)"))
            for board in boards:
                click.echo(f"  {board.game:<12}{board_line(board)}")
