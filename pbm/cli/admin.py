"""The operator's game tools: challenge, show, games, users and help."""

from __future__ import annotations

import sys

import click

from pbm.cli import App, main, pass_app


def _run_as_operator(app: App, line: str, deliver: bool = True, answer_to: str = "") -> None:
    """Run a command line with operator rights; mail the replies meant for players.

    Answers (such as a welcome) go to `answer_to` when given, else they are printed.
    Operator rights skip password checks, so callers put '-' where a player's password goes.
    """
    from pbm.context import Context
    from pbm.commands.dispatch import run_line
    from pbm.mail.delivery import deliver_pending
    from pbm.mail.receive import queue

    factory = app.store()
    with factory() as session, session.begin():
        ctx = Context(session, answer_to, admin=True)
        run_line(ctx, line)
        queued = queue(session, app.config, ctx.replies, None, None) if not ctx.failures else []
        session.flush()
        ids = [mail.id for mail in queued]
    for reply in ctx.replies:
        if ctx.failures:
            click.echo(reply.body.rstrip("\n"), err=True)
        elif not reply.to:
            click.echo(reply.body.rstrip("\n"))
    if ctx.failures:
        sys.exit(1)
    sent = failed = 0
    if deliver and ids:
        sent, failed = deliver_pending(factory, app.config, only=ids)
    for reply in ctx.replies:
        if reply.to:
            click.echo(f"Queued '{reply.subject}' for {', '.join(reply.to)}")
    if ids:
        click.echo(f"{sent} mail(s) delivered now, {len(ids) - sent} left in the outbox"
                   + (f" ({failed} delivery attempt(s) failed; see `pbm outbox`)" if failed else ""))


@main.command()
@click.argument("game")
@click.argument("words", nargs=-1, required=True)
@pass_app
def challenge(app: App, game: str, words: tuple[str, ...]) -> None:
    """Start a board of GAME between the users (options like -size=19 anywhere)."""
    _run_as_operator(app, " ".join([game, "challenge", *words]))


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("board", type=int)
@click.option("--as", "userid", help="Show the board as this player sees it.")
@click.option("--move", "upto", type=int, help="As it was after this move.")
@pass_app
def show(app: App, board: int, userid: str | None, upto: int | None) -> None:
    """Print a board: the public view, or a player's own view with --as."""
    from pbm.views.boardmail import board_text
    from pbm.boards.position import position
    from pbm.boards.select import load_board
    from pbm.context import CommandError, Context
    from pbm.accounts.users import require_user

    factory = app.store(read_only=True)
    with factory() as session:
        ctx = Context(session, "", admin=True)
        try:
            record = load_board(ctx, str(board))
            if upto is not None and not 0 <= upto <= record.move_count:
                raise CommandError(f"Board {board} has {record.move_count} moves.")
            pos = position(record, upto)
            viewer = None
            if userid:
                viewer = pos.seat_of(require_user(ctx, userid))
                if viewer is None:
                    raise CommandError(f"{userid} does not play on board {board}.")
        except CommandError as err:
            click.echo(f"pbm: {err}", err=True)
            sys.exit(1)
        click.echo(board_text(pos, viewer, full_list=True).rstrip("\n"))


@main.command()
@click.argument("userid", required=False)
@click.option("--all", "everything", is_flag=True, help="Finished boards too.")
@pass_app
def games(app: App, userid: str | None, everything: bool) -> None:
    """List active boards of every game (or of one user)."""
    from pbm.accounts.users import require_user
    from pbm.boards.select import Which, boards
    from pbm.context import CommandError, Context
    from pbm.views.listings import board_line

    factory = app.store(read_only=True)
    with factory() as session:
        ctx = Context(session, "", admin=True)
        which = Which.ALL if everything else Which.ACTIVE
        try:
            user = require_user(ctx, userid) if userid else None
        except CommandError as err:
            click.echo(f"pbm: {err}", err=True)
            sys.exit(1)
        found = boards(session, user=user, which=which)
        for board in found:
            click.echo(f"{board.game:<12}{board_line(board)}")
        if not found:
            click.echo("no boards")


@main.command(name="help")
@click.argument("topic", required=False, default="general")
def help_command(topic: str) -> None:
    """Print a help page: general, commands, or a game's rules."""
    from pbm.commands.accounts import help_topic
    from pbm.context import CommandError

    try:
        _subject, text = help_topic(topic.lower())
    except CommandError as err:
        click.echo(f"pbm: {err}", err=True)
        sys.exit(1)
    click.echo(text.rstrip("\n"))


@main.group()
def users() -> None:
    """Manage player accounts."""


@users.command(name="list")
@pass_app
def users_list(app: App) -> None:
    """Every account with its addresses."""
    from sqlalchemy import select

    from pbm.db.models import User

    factory = app.store(read_only=True)
    with factory() as session:
        for user in session.scalars(select(User).order_by(User.userid)):
            state = "" if user.active else "  (signed off)"
            addresses = ", ".join(a.address for a in user.addresses)
            click.echo(f"{user.userid:<17}{addresses}{state}")


@users.command(name="add")
@click.argument("userid")
@click.argument("password")
@click.argument("addresses", nargs=-1, required=True)
@pass_app
def users_add(app: App, userid: str, password: str, addresses: tuple[str, ...]) -> None:
    """Open an account (the player gets the welcome mail)."""
    from pbm.context import CommandError
    from pbm.accounts.users import check_addresses

    try:
        first = check_addresses(list(addresses))[0]
    except CommandError as err:
        click.echo(f"pbm: {err}", err=True)
        sys.exit(1)
    _run_as_operator(app, " ".join(["signup", userid, password, *addresses]), answer_to=first)


@users.command(name="passwd")
@click.argument("userid")
@click.argument("password")
@pass_app
def users_passwd(app: App, userid: str, password: str) -> None:
    """Set a new password for a player who forgot theirs."""
    _run_as_operator(app, f"change password {userid} - {password}", deliver=False)


@users.command(name="remove")
@click.argument("userid")
@pass_app
def users_remove(app: App, userid: str) -> None:
    """Sign a player off: their active games are resigned, history kept."""
    _run_as_operator(app, f"signoff {userid} -")
