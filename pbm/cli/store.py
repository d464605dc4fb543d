"""The operator's view of the store: schema migrations, the inbox and the outbox."""

from __future__ import annotations

import sys

import click

from pbm.cli.app import EX_CONFIG, App, fail, main, pass_app


@main.group()
def db() -> None:
    """Database schema: upgrade and current revision; copy to another database."""


@db.command()
@pass_app
def upgrade(app: App) -> None:
    """Create or migrate the database to the newest schema."""
    from pbm.config import masked
    from pbm.db.migrate import upgrade as run_upgrade
    from pbm.db.session import current_revision, make_engine

    engine = make_engine(app.config.database_url)
    before = current_revision(engine)
    run_upgrade(engine)
    after = current_revision(engine)
    shown = masked(app.config.database_url)
    if before == after:
        click.echo(f"database {shown} is at revision {after} (newest)")
    else:
        click.echo(f"database {shown} upgraded from {before or 'empty'} to {after}")


@db.command()
@pass_app
def current(app: App) -> None:
    """Print the database's schema revision."""
    from pbm.db import SCHEMA_REVISION
    from pbm.db.session import StoreMissing, StoreUnavailable, current_revision, make_engine

    try:
        revision = current_revision(make_engine(app.config.database_url, create=False))
    except StoreMissing as err:
        fail(str(err), EX_CONFIG)
    except StoreUnavailable as err:
        fail(str(err), 1)
    state = "newest" if revision == SCHEMA_REVISION else f"this pbm needs {SCHEMA_REVISION}"
    click.echo(f"{revision or 'empty'} ({state})")


@db.command(name="copy")
@click.option("--to", "url", required=True, metavar="URL",
              help="The empty database to fill, e.g. postgresql+psycopg://pbm:PW@host/pbm.")
@click.option("--batch", default=1000, show_default=True, help="Rows read and written at once.")
@pass_app
def db_copy(app: App, url: str, batch: int) -> None:
    """Copy the whole database into the empty database at URL (migrated first), ids kept.

    Stop the server first (every `pbm serve` node, and let `pbm process` finish): mail
    stored in the old database after the copy began would be lost, so the copy refuses a
    source another process has open. Then point [database] url at URL and start again.
    """
    from sqlalchemy.exc import ArgumentError

    from pbm.config import masked
    from pbm.db.copy import CopyRefused, copy_database
    from pbm.db.session import StoreMissing, make_engine

    try:
        source = make_engine(app.config.database_url, create=False)
    except StoreMissing as err:
        fail(str(err), EX_CONFIG)
    try:
        target = make_engine(url)
    except (ArgumentError, ImportError) as err:
        fail(f"cannot use the target {masked(url)}: {err}", EX_CONFIG)
    click.echo(f"copying {masked(app.config.database_url)} to {masked(url)}")
    try:
        counts = copy_database(source, target, batch=batch,
                               progress=lambda line: click.echo(f"pbm db copy: {line}",
                                                                err=True))
    except CopyRefused as err:
        fail(str(err), 1)
    finally:
        source.dispose()
        target.dispose()
    click.echo(f"copied {sum(counts.values())} rows in {len(counts)} tables, counts checked; "
               f"now set [database] url to {masked(url)} and start the server")


@main.group(invoke_without_command=True)
@click.pass_context
def outbox(ctx: click.Context) -> None:
    """Mail waiting to go out: list (default), retry, flush, prune."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(outbox_list)


@outbox.command(name="list")
@click.option("--all", "everything", is_flag=True, help="Sent mail too.")
@pass_app
def outbox_list(app: App, everything: bool) -> None:
    """Mail not yet delivered: when it is tried next, and its last error."""
    from pbm.db.models import OutboxStatus, utcnow
    from pbm.mail.outbox import undelivered

    now = utcnow()
    with app.store(read_only=True)() as session:
        rows = undelivered(session, everything)
        for mail in rows:
            if mail.status == OutboxStatus.PENDING:
                when = ("due now" if mail.next_attempt_at <= now
                        else f"next {mail.next_attempt_at:%Y-%m-%d %H:%M:%S} UTC")
                state = f"  {when}"
            elif mail.status == OutboxStatus.SENDING and mail.claimed_at is not None:
                state = f"  by {mail.claimed_by} since {mail.claimed_at:%H:%M:%S} UTC"
            else:
                state = ""
            error = f"  [{mail.last_error}]" if mail.last_error else ""
            click.echo(f"{mail.id:>6} {mail.status:<8} tries {mail.attempts}  "
                       f"{mail.recipient}  {mail.subject}{state}{error}")
        if not rows:
            click.echo("outbox empty")


@outbox.command(name="retry")
@click.argument("ids", nargs=-1, type=int)
@pass_app
def outbox_retry(app: App, ids: tuple[int, ...]) -> None:
    """Put failed and waiting mail (all, or the given ids) back in the queue as new, and
    deliver it now."""
    from pbm.db.models import utcnow
    from pbm.mail.delivery import deliver_pending
    from pbm.mail.outbox import requeue

    factory = app.store()
    with factory() as session, session.begin():
        count = requeue(session, list(ids), utcnow())
    sent, failed = deliver_pending(factory, app.config)
    click.echo(f"requeued {count}; sent {sent}, failed {failed}")


@outbox.command(name="flush")
@pass_app
def outbox_flush(app: App) -> None:
    """Deliver every pending mail now, also mail waiting for its next retry."""
    from pbm.mail.delivery import Courier

    done = Courier(app.store(), app.config).flush()
    click.echo(f"sent {done.sent}, failed {done.undelivered}")
    if done.undelivered:
        sys.exit(1)


@main.group(invoke_without_command=True)
@click.pass_context
def inbox(ctx: click.Context) -> None:
    """Received mail: list failed (default), show, retry."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(inbox_list)


@inbox.command(name="list")
@click.option("--all", "everything", is_flag=True, help="Handled mail too.")
@click.option("--bounces", is_flag=True, help="Only bounces, with the addresses they named.")
@pass_app
def inbox_list(app: App, everything: bool, bounces: bool = False) -> None:
    """Mail whose handling failed and waits for the operator."""
    from pbm.mail.inbox import bounced, waiting

    with app.store(read_only=True)() as session:
        rows = bounced(session) if bounces else waiting(session, everything)
        for record in rows:
            error = (record.error or "").strip().splitlines()
            last = f"  [{error[-1]}]" if error else ""
            click.echo(f"{record.id:>6} {record.status:<8} {record.received_at:%Y-%m-%d %H:%M} "
                       f"{record.envelope_from or '-'}  {record.message_key[:60]}{last}")
        if not rows:
            click.echo("no bounces" if bounces else "no failed mail")


@inbox.command(name="show")
@click.argument("ident", type=int)
@pass_app
def inbox_show(app: App, ident: int) -> None:
    """Print a stored mail and the error it hit."""
    from pbm.mail.inbox import find

    with app.store(read_only=True)() as session:
        record = find(session, ident)
        if record is None:
            click.echo(f"pbm: no inbound mail {ident}", err=True)
            sys.exit(1)
        click.echo(f"status: {record.status}")
        if record.error:
            click.echo(record.error.rstrip())
        click.echo("")
        click.echo(record.raw.decode("utf-8", errors="replace").rstrip())


@inbox.command(name="retry")
@click.argument("ident", type=int)
@pass_app
def inbox_retry(app: App, ident: int) -> None:
    """Handle a failed mail again (after the fault is fixed)."""
    from pbm.mail.delivery import deliver_pending
    from pbm.mail.inbox import retry

    factory = app.store()
    try:
        with factory() as session, session.begin():
            status, ids = retry(session, app.config, ident)
    except LookupError as err:
        click.echo(f"pbm: {err}", err=True)
        sys.exit(1)
    click.echo(f"mail {ident}: {status}")
    if ids:
        deliver_pending(factory, app.config, only=ids)


@inbox.command(name="prune")
@click.option("--days", default=30, show_default=True, help="Keep mail younger than this.")
@pass_app
def inbox_prune(app: App, days: int) -> None:
    """Drop the raw text of handled mail older than DAYS (it holds players' passwords).

    The Message-ID stays, so a late copy of an old mail is still recognised and ignored.
    Failed mail is never pruned: it waits for the operator. Rate-limit counters whose
    window has passed are forgotten too.
    """
    from pbm.db.models import utcnow
    from pbm.mail.inbox import prune

    with app.store()() as session, session.begin():
        count, counters = prune(session, utcnow(), days)
    click.echo(f"pruned the text of {count} handled mail(s) older than {days} days; "
               f"forgot {counters} expired rate counter(s)")


@outbox.command(name="prune")
@click.option("--days", default=30, show_default=True, help="Keep mail younger than this.")
@pass_app
def outbox_prune(app: App, days: int) -> None:
    """Delete delivered mail older than DAYS (pending and failed mail stay)."""
    from pbm.db.models import utcnow
    from pbm.mail.outbox import prune

    with app.store()() as session, session.begin():
        count = prune(session, utcnow(), days)
    click.echo(f"deleted {count} delivered mail(s) older than {days} days")
