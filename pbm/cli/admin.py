"""The operator's game tools: challenge, show, games, users and help.

Each calls the typed command functions the mail handlers call, with operator rights (no
passwords asked); none of them builds a command line for the mail parser.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from pbm.cli.app import App, main, pass_app

if TYPE_CHECKING:
    from pbm.context import Context
    from pbm.db.models import Address


@contextmanager
def _refusals() -> Iterator[None]:
    """A refused command (a player's kind of error) is one line on stderr and exit 1."""
    from pbm.games.base import UserError

    try:
        yield
    except UserError as err:
        click.echo(f"pbm: {err}", err=True)
        sys.exit(1)


def as_operator(app: App, act: Callable[[Context], object], *, answer_to: str = "",
                 deliver: bool = True) -> None:
    """Run `act` with operator rights in one transaction; mail what it sends to players.

    Answers (such as a welcome) go to `answer_to` when given, else they are printed."""
    from pbm.context import Context
    from pbm.mail.delivery import deliver_pending
    from pbm.mail.receive import queue

    factory = app.store()
    with factory() as session, session.begin(), _refusals():
        ctx = Context(session, answer_to, admin=True, limits=app.config.limits,
                      bots=app.config.bots, web_base_url=app.config.web.base_url,
                      time=app.config.time)
        act(ctx)
        ids = queue(session, app.config, ctx.replies, None, None)
    for reply in ctx.replies:
        if not reply.to:
            click.echo(reply.body.rstrip("\n"))
    sent = failed = 0
    if deliver and ids:
        sent, failed = deliver_pending(factory, app.config, only=ids)
    for reply in ctx.replies:
        if reply.to:
            click.echo(f"Queued '{reply.subject}' for {', '.join(reply.to)}")
    if ids:
        click.echo(f"{sent} mail(s) delivered now, {len(ids) - sent} left in the outbox"
                   + (f" ({failed} not delivered yet; see `pbm outbox`)" if failed else ""))


# Options are the game's and the board's (-size=19, --totaltime=30), not the command's.
@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("game")
@click.argument("words", nargs=-1, required=True)
@pass_app
def challenge(app: App, game: str, words: tuple[str, ...]) -> None:
    """Start a board of GAME between the users (options like -size=19 or --totaltime=30
    anywhere)."""
    from pbm.commands.game_commands import challenge as start
    from pbm.games import registry

    userids = [word for word in words if not word.startswith("-")]
    options = [word for word in words if word.startswith("-")]
    as_operator(app, lambda ctx: start(ctx, registry.lookup(game), userids, options))


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("where", nargs=-1, required=True, metavar="[GAME] BOARD")
@click.option("--as", "userid", help="Show the board as this player sees it.")
@click.option("--move", "upto", type=int, help="As it was after this move.")
@pass_app
def show(app: App, where: tuple[str, ...], userid: str | None, upto: int | None) -> None:
    """Print a board: the public view, or a player's own view with --as. Boards are
    numbered per game (a101: a tournament's): name the game when several games have a board
    of that name."""
    from pbm.boards import names
    from pbm.commands.game_commands import view_as
    from pbm.context import Context
    from pbm.games import registry

    if len(where) > 2 or not names.is_name(where[-1]):
        raise click.UsageError("write: pbm show [GAME] BOARD, for example pbm show trou 101 "
                               "(or trou a101, a tournament's board)")
    with app.store(read_only=True)() as session, _refusals():
        game = registry.lookup(where[0]).info.name if len(where) == 2 else None
        text = view_as(Context(session, "", admin=True), where[-1], upto, userid, game)
    click.echo(text.rstrip("\n"))


@main.command()
@click.argument("userid", required=False)
@click.option("--all", "everything", is_flag=True,
              help="Every board, finished ones too however long ago.")
@pass_app
def games(app: App, userid: str | None, everything: bool) -> None:
    """List active boards of every game (or of one user), and those finished in the last
    archive_days; with --all, every board ever played."""
    from pbm.accounts.users import require_user
    from pbm.boards.select import Which, archive_cutoff, every_board
    from pbm.context import Context
    from pbm.views.listings import board_line

    with app.store(read_only=True)() as session:
        ctx = Context(session, "", admin=True, time=app.config.time)
        with _refusals():
            user = require_user(ctx, userid) if userid else None
        if everything:
            found = every_board(session, user=user, which=Which.ALL)
        else:
            found = every_board(session, user=user, archived_before=archive_cutoff(ctx))
        listed = 0
        for board in found:  # printed as read, chunk by chunk: the list may be long
            click.echo(f"{board.game:<12}{board_line(board)}")
            listed += 1
        if not listed:
            click.echo("no boards")


@main.command(name="help")
@click.argument("topic", required=False, default="general")
@pass_app
def help_command(app: App, topic: str) -> None:
    """Print a help page: general, commands, bots, or a game's rules."""
    from pbm.commands.accounts import help_topic

    with _refusals():
        _subject, text = help_topic(topic.lower(), app.config.bots)
    click.echo(text.rstrip("\n"))


@main.group()
def users() -> None:
    """Manage player accounts."""


@users.command(name="list")
@pass_app
def users_list(app: App) -> None:
    """Every account with its addresses (and whether it asked for plain text mail)."""
    from pbm.accounts.users import all_users

    with app.store(read_only=True)() as session:
        for user in all_users(session):
            if user.bot:  # no address, no mail, no settings of its own
                click.echo(f"{user.userid:<17}(a bot: {user.bot}; see `pbm bots`)")
                continue
            state = ("" if user.active else "  (signed off)") + \
                ("" if user.html else "  (plain text)")  # `set ... html off`
            addresses = ", ".join(a.address + _bounce_state(a) for a in user.addresses)
            click.echo(f"{user.userid:<17}{addresses}{state}")


def _bounce_state(address: Address) -> str:
    """How an address's mail fares, when it bounced: " (stopped: 3 bounces, last ...)"."""
    if not address.bounces and not address.stopped:
        return ""
    last = f", last {address.last_bounce_at:%Y-%m-%d}" if address.last_bounce_at else ""
    state = "stopped" if address.stopped else "bouncing"
    return f" ({state}: {address.bounces} bounce{'s' if address.bounces != 1 else ''}{last})"


@users.command(name="resume")
@click.argument("address")
@pass_app
def users_resume(app: App, address: str) -> None:
    """Mail ADDRESS again after its bounces stopped it (its bounce count starts anew)."""
    from pbm.mail.bounces import resume

    with app.store()() as session, session.begin():
        found = resume(session, address)
    if not found:
        click.echo(f"pbm: no user has the address {address}", err=True)
        sys.exit(1)
    click.echo(f"{address.lower()} gets mail again")


def _password(from_stdin: bool) -> str:
    """The new password: the first line of standard input, or typed twice at a prompt that
    does not echo it. Never a command-line argument: those show in `ps` and shell history."""
    if from_stdin:
        line = sys.stdin.readline().rstrip("\r\n")
        if not line:
            click.echo("pbm: no password on standard input", err=True)
            sys.exit(1)
        return line
    return click.prompt("Password", hide_input=True, confirmation_prompt=True)


STDIN_HELP = "Read the password from the first line of standard input instead of a prompt."


@users.command(name="add")
@click.argument("userid")
@click.argument("addresses", nargs=-1, required=True)
@click.option("--password-stdin", "from_stdin", is_flag=True, help=STDIN_HELP)
@pass_app
def users_add(app: App, userid: str, addresses: tuple[str, ...], from_stdin: bool) -> None:
    """Open an account (the player gets the welcome mail); the password is asked for."""
    from pbm.accounts.users import check_addresses
    from pbm.commands.accounts import signup

    with _refusals():
        chosen = check_addresses(list(addresses))
    password = _password(from_stdin)
    as_operator(app, lambda ctx: signup(ctx, userid, password, chosen), answer_to=chosen[0])


@users.command(name="passwd")
@click.argument("userid")
@click.option("--password-stdin", "from_stdin", is_flag=True, help=STDIN_HELP)
@pass_app
def users_passwd(app: App, userid: str, from_stdin: bool) -> None:
    """Set a new password for a player who forgot theirs; the password is asked for."""
    from pbm.commands.accounts import change_password

    password = _password(from_stdin)
    as_operator(app, lambda ctx: change_password(ctx, userid, None, password), deliver=False)


@users.command(name="remove")
@click.argument("userid")
@pass_app
def users_remove(app: App, userid: str) -> None:
    """Sign a player off: their active games are resigned, history kept."""
    from pbm.commands.accounts import signoff

    as_operator(app, lambda ctx: signoff(ctx, userid, None))
