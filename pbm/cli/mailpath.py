"""`pbm serve`, `pbm process` and `pbm run`: the ways a command reaches the server."""

from __future__ import annotations

import io
import logging
import os
import sys
from typing import TYPE_CHECKING

import click

from pbm.cli.app import (
    EX_DATAERR,
    EX_TEMPFAIL,
    App,
    SchemaRefused,
    fail,
    main,
    migrate_to_head,
    pass_app,
)

if TYPE_CHECKING:
    from sqlalchemy.orm import Session, sessionmaker

    from pbm.mail.receive import Prepared

log = logging.getLogger("pbm.process")


@main.command()
@click.option("--host", help="Listen on this address (overrides smtpd.host).")
@click.option("--port", type=int, help="Listen on this port (overrides smtpd.port).")
@click.option("--lmtp", is_flag=True, help="Speak LMTP instead of SMTP.")
@click.option("--web", "web_listen", metavar="HOST:PORT",
              help="Serve the web view here too, in the same process (overrides web.listen).")
@click.option("--since", type=click.DateTime(formats=["%Y-%m-%d"]), metavar="YYYY-MM-DD",
              help="With [imap]: also answer the mail that was in the folder on the first "
                   "start, from this day on.")
@pass_app
def serve(app: App, host: str | None, port: int | None, lmtp: bool,
          web_listen: str | None, since=None) -> None:  # type: ignore[no-untyped-def]
    """Receive mail over SMTP (or LMTP), play it, and deliver the replies; with --web or
    web.listen, serve the read-only web view too."""
    import asyncio

    from pbm.cli.web import announce, web_address

    smtpd = {k: v for k, v in (("host", host), ("port", port)) if v is not None}
    if lmtp:
        smtpd["protocol"] = "lmtp"
    app.overrides["smtpd"] = smtpd
    config = app.config  # and the log, as [logging] and --log-level say
    factory = app.store(migrate=True, create=True)
    read_factory = app.store(read_only=True)
    server = _server(config, factory, read_factory, since=since)
    web_at = web_address(app, web_listen)

    ready = _announcer(config, "serve")

    async def run() -> None:
        if web_at is None:
            await server.run(ready)
            return
        from pbm.web.site import WebSite

        # Both in one event loop: the pages are made in threads of their own, so a page
        # never holds up a mail, and the mail never waits on a page.
        site = WebSite(config, read_factory)
        try:
            announce(await site.start(*web_at), "serve")
        except OSError as err:
            fail(f"cannot listen on {web_at[0]}:{web_at[1]} for the web view: "
                 f"{err.strerror}", 1)
        try:
            await server.run(ready)
        finally:
            await site.stop()

    asyncio.run(run())
    click.echo("pbm serve: stopped")


def _server(config, factory, read_factory, **options):  # type: ignore[no-untyped-def]
    from pbm.config import ConfigError
    from pbm.mail.smtpd import Server

    try:
        return Server(config, factory, read_factory, **options)
    except ConfigError as err:  # a password or key file that cannot be read
        fail(str(err), 2)


def _announcer(config, name: str):  # type: ignore[no-untyped-def]
    """What `pbm serve` / `pbm imap` print once they are taking mail."""
    from pbm.config import masked

    def ready(address: tuple[str, int] | None) -> None:
        if address is not None:
            protocol = config.smtpd.protocol.upper()
            click.echo(f"pbm {name}: listening on {address[0]}:{address[1]} ({protocol})")
        if config.imap.host:
            imap = config.imap
            click.echo(f"pbm {name}: reading {imap.folder} of {imap.user} at "
                       f"{imap.host}:{imap.port} (IMAP, TLS {imap.tls})")
        click.echo(f"pbm {name}: database {masked(config.database_url)}")
        if config.delivery.relay:
            click.echo(f"pbm {name}: replies go through the relay "
                       f"{masked(config.delivery.relay)}")
        else:
            click.echo(f"pbm {name}: replies go to the Maildir {config.maildir_path}")
        click.echo(f"pbm {name}: players write to {config.server.address}; Ctrl-C stops")
        sys.stdout.flush()

    return ready


@main.command()
@click.option("--since", type=click.DateTime(formats=["%Y-%m-%d"]), metavar="YYYY-MM-DD",
              help="Also answer the mail that was in the folder on the first start, from "
                   "this day on (else it is left unanswered).")
@pass_app
def imap(app: App, since) -> None:  # type: ignore[no-untyped-def]
    """Read the [imap] mailbox (IDLE), play its mail and deliver the replies, without an
    SMTP listener: a server run with just a mail account."""
    import asyncio

    config = app.config
    if not config.imap.host:
        fail("pbm imap reads the mailbox of [imap]: set imap.host, imap.user and the "
             "password (imap.password_file or PBM_IMAP_PASSWORD)", 2)
    factory = app.store(migrate=True, create=True)
    read_factory = app.store(read_only=True)
    server = _server(config, factory, read_factory, listen=False, since=since)
    asyncio.run(server.run(_announcer(config, "imap")))
    click.echo("pbm imap: stopped")


class _MailCommand(click.Command):
    """A command an MTA runs per mail: a wrong command line (in master.cf, say) is the
    operator's to fix, so it fails temporarily and the MTA keeps the mail."""

    def make_context(self, info_name, args, parent=None, **extra):  # type: ignore[no-untyped-def]
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as err:
            click.echo("pbm process: bad command line, mail kept for later: "
                       f"{err.format_message()}", err=True)
            sys.exit(EX_TEMPFAIL)


@main.command(cls=_MailCommand)
@click.option("--sender", default=lambda: os.environ.get("SENDER"),
              help="Envelope sender: Postfix's pipe passes it as ${sender} (with null_sender= "
                   "an empty one for a bounce, which pbm reads as <>); default: $SENDER, as "
                   "Postfix's local delivery to a command sets it.")
@click.option("--client-address", default=lambda: os.environ.get("CLIENT_ADDRESS", ""),
              help="IP address of the SMTP client the mail came from, to count wrong "
                   "passwords by: Postfix's pipe passes it as ${client_address}; default: "
                   "$CLIENT_ADDRESS, as Postfix's local delivery to a command sets it.")
@pass_app
def process(app: App, sender: str | None, client_address: str) -> None:
    """Handle one mail read from standard input (for an MTA's pipe).

    Exits 0 once the mail is stored, 65 when the mail is larger than
    smtpd.max_message_bytes or outside the [limits] for reading a mail (the MTA bounces it
    with the reason), and 75 on every other failure (settings, database, a bug): the mail
    is not at fault, so the MTA keeps it and tries again later.
    """
    app.config_failure_status = EX_TEMPFAIL
    # Postfix's pipe puts what a failed command wrote into its log and the bounce, cut
    # short: the outcome goes first, in one short line, and what else was written (log
    # lines, a traceback, the outcome's whole text) after it.
    held, real = io.StringIO(), sys.stderr
    status, outcome = 0, ""
    sys.stderr = held
    try:
        outcome = _process(app, sender, client_address)
    except _Outcome as stop:
        status, outcome = stop.status, stop.line
    except SystemExit as stop:  # app.config or the store failed: their line is held already
        status = stop.code if isinstance(stop.code, int) else EX_TEMPFAIL
    except Exception as err:  # a bug: never the mail's fault, so the MTA must keep it
        import traceback

        traceback.print_exc(file=sys.stderr)
        status, outcome = EX_TEMPFAIL, f"failed, mail kept for later: {type(err).__name__}: {err}"
    finally:
        sys.stderr = real
        _tell(outcome, held.getvalue())
    sys.exit(status)


SHORT = 100  # characters: Postfix's pipe keeps about this much of what pbm wrote, or more


class _Outcome(Exception):
    """`pbm process` ends with this exit status and outcome line."""

    def __init__(self, status: int, line: str):
        super().__init__(line)
        self.status, self.line = status, line


def _tell(outcome: str, rest: str) -> None:
    """The outcome line first (cut to SHORT, the whole of it after when cut), then the rest."""
    if outcome:
        line = f"pbm: {outcome}"
        if len(line) > SHORT:
            cut = line[:SHORT - 3].rsplit(" ", 1)[0]
            click.echo(f"{cut}...", err=True)
            rest = f"pbm process: {outcome}\n{rest}"
        else:
            click.echo(line, err=True)
    if rest:
        click.echo(rest, err=True, nl=False)


def _process(app: App, sender: str | None, client_address: str = "") -> str:
    """Handle the mail on standard input; its outcome line. Raises _Outcome for a mail not
    stored."""
    config = app.config
    limit = config.smtpd.max_message_bytes
    raw = sys.stdin.buffer.read(limit + 1)
    if len(raw) > limit:
        raise _Outcome(EX_DATAERR, f"refused: message larger than {limit} bytes")
    # Postfix passes "" (${sender} with null_sender=, or $SENDER) for the null sender.
    envelope_from = "<>" if sender == "" else (sender or "")
    from pbm.mail.authenticity import source
    from pbm.mail.receive import Received, check_ahead, prepare, receive
    from pbm.mail.screen import Refusal, time_limit

    prepared: Prepared | None = None
    try:
        with time_limit(config.limits.parse_seconds):
            prepared = prepare(raw, envelope_from, config.limits, config.server.authserv_id,
                               source(client_address, config.smtpd.relay_networks))
    except Refusal as refusal:  # never acceptable: the MTA bounces it with this text
        raise _Outcome(EX_DATAERR, f"refused: {refusal}") from None
    except Exception:  # a bug in reading it: stored all the same, as failed
        prepared = None
    from sqlalchemy.exc import DatabaseError

    from pbm.db.session import StoreUnavailable, make_engine, session_factory, why_unusable

    engine = make_engine(config.database_url, create=True)
    try:
        # The first mail creates the database; one after an upgrade of pbm migrates it.
        migrate_to_head(engine)
        factory = session_factory(engine)
        if prepared is not None:
            with session_factory(engine, read_only=True)() as reader:
                prepared = check_ahead(prepared, reader, config.limits)
        result, queued = receive(factory, config, raw, envelope_from, prepared)
    except Refusal as refusal:  # a sender over the rate: the MTA keeps the mail for later
        raise _Outcome(EX_TEMPFAIL, f"not now, mail kept for later: {refusal}") from None
    except (StoreUnavailable, SchemaRefused) as err:
        raise _Outcome(EX_TEMPFAIL, f"not stored, mail kept for later: {err}") from None
    except DatabaseError as err:
        raise _Outcome(EX_TEMPFAIL, "not stored, mail kept for later: "
                                    f"{why_unusable(engine, err)}") from None
    ident, state = _stored_as(factory, raw, prepared)
    if result is Received.DUPLICATE:
        return f"received before as inbound mail {ident}: not handled again"
    replies = f"{len(queued)} repl{'y' if len(queued) == 1 else 'ies'} queued"
    outcome = f"stored inbound mail {ident} ({state}): {replies}"
    if queued:
        # Deliver this mail's replies now; whatever fails stays queued for `pbm serve` or
        # `pbm outbox flush` to retry.
        from pbm.mail.delivery import deliver_pending

        try:
            _sent, undelivered = deliver_pending(factory, config, only=queued)
        except Exception:
            undelivered = len(queued)
            log.exception("stored; delivering its replies failed")
        if undelivered:
            note = (f"stored; {undelivered} of its {len(queued)} repl(ies) not delivered now, "
                    "left in the outbox for `pbm serve` or `pbm outbox flush` (see `pbm outbox`)")
            outcome += f", {undelivered} left in the outbox (see `pbm outbox`)"
            if config.log_path is not None:  # else the log is this same standard error
                log.warning("inbound mail %s %s", ident, note)
    return outcome


def _stored_as(factory: sessionmaker[Session], raw: bytes, prepared: Prepared | None
               ) -> tuple[object, str]:
    """The stored mail's id and status, found by its Message-ID (one indexed read)."""
    from sqlalchemy import select

    from pbm.db.models import InboundMessage
    from pbm.mail import inbound

    key = prepared.mail.message_key if prepared is not None else inbound.message_key(raw)
    with factory() as session:
        row = session.execute(select(InboundMessage.id, InboundMessage.status)
                              .where(InboundMessage.message_key == key)).first()
    if row is None:
        return "?", "?"
    return row.id, str(getattr(row.status, "value", row.status))


@main.command()
@click.option("--from", "sender", required=True, help="Act as a mail from this address.")
@click.argument("command_line", nargs=-1, required=True)
@pass_app
def run(app: App, sender: str, command_line: tuple[str, ...]) -> None:
    """Handle one command as if mailed from ADDRESS; print the replies instead of mailing."""
    from pbm.commands.dispatch import run_line
    from pbm.context import Context

    factory = app.store()
    with factory() as session, session.begin():
        ctx = Context(session, sender.lower(), limits=app.config.limits, time=app.config.time,
                      bots=app.config.bots, web_base_url=app.config.web.base_url,
                      operators=app.config.server.operators)
        run_line(ctx, " ".join(command_line))
    for reply in ctx.replies:
        click.echo(f"To: {', '.join(reply.to)}")
        click.echo(f"Subject: {reply.subject}")
        click.echo("")
        click.echo(reply.body.rstrip("\n"))
        click.echo("")
