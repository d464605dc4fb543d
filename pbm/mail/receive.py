"""One inbound mail, one transaction: store it, run its commands, queue the replies."""

from __future__ import annotations

import logging
import traceback
from enum import Enum

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from pbm.commands.context import Context, Reply
from pbm.commands.dispatch import run_lines
from pbm.config import Config
from pbm.db.models import InboundMessage, OutboxMail, utcnow
from pbm.mail import inbound as parsing
from pbm.mail.compose import compose

log = logging.getLogger(__name__)


class Received(Enum):
    STORED = "stored"
    DUPLICATE = "duplicate"


NO_COMMAND = (
    "Your mail reached the game server, but no command was found in it.\n\n"
    "Put a command in the Subject, for example:\n"
    "  signup alice secret\n"
    "  trou challenge alice bob\n"
    "or make the Subject 'multiple' and write one command per line of the body.\n"
    "Send 'help' as the Subject for an overview.\n"
)

FAILED = (
    "Your mail reached the game server, but handling it hit an error on our side.\n"
    "Nothing in it was applied. The mail has been kept and the operator will look at it;\n"
    "you do not need to send it again.\n"
)


def receive(factory: sessionmaker[Session], config: Config, raw: bytes,
            envelope_from: str = "") -> tuple[Received, list[int]]:
    """Store and handle one raw mail in one transaction.

    Returns whether it was new and the ids of the outbox mails it queued. Raises only when
    the mail could not be stored (the caller answers 451 / exits 75 so the sender retries).
    """
    try:
        with factory() as session, session.begin():
            return store(session, config, raw, envelope_from)
    except IntegrityError:
        # Either a concurrent process committed the same Message-ID first (then the mail
        # is handled), or some other clash (then the sender must try again later).
        key = parsing.message_key(raw)
        with factory() as session:
            if session.scalar(select(InboundMessage.id)
                              .where(InboundMessage.message_key == key)) is not None:
                return Received.DUPLICATE, []
        raise


def store(session: Session, config: Config, raw: bytes,
          envelope_from: str = "") -> tuple[Received, list[int]]:
    """Within the caller's transaction: store a mail unless seen before, and handle it."""
    key = parsing.message_key(raw)
    seen = session.scalar(select(InboundMessage.id).where(InboundMessage.message_key == key))
    if seen is not None:
        return Received.DUPLICATE, []
    record = InboundMessage(message_key=key, envelope_from=envelope_from, raw=raw)
    session.add(record)
    session.flush()
    queued = handle(session, config, record)
    session.flush()
    return Received.STORED, [mail.id for mail in queued]


def receive_batch(factory: sessionmaker[Session], config: Config,
                  mails: list[tuple[bytes, str]]) -> list[tuple[Received, list[int]] | None]:
    """Group commit: store and handle several mails, each in its own savepoint, with one
    commit for all of them (one fsync instead of one per mail).

    Each mail stays atomic: its savepoint holds it and everything it caused. A result is
    None for a mail that could not be stored; all are None when the commit fails. Nobody
    may be told 250 before this returns.
    """
    results: list[tuple[Received, list[int]] | None] = []
    try:
        with factory() as session, session.begin():
            for raw, envelope_from in mails:
                try:
                    with session.begin_nested():
                        results.append(store(session, config, raw, envelope_from))
                except Exception:
                    log.exception("could not store a mail from %s", envelope_from)
                    results.append(None)
    except Exception:
        log.exception("could not commit a batch of %d mails", len(mails))
        return [None] * len(mails)
    return results


def handle(session: Session, config: Config, record: InboundMessage) -> list[OutboxMail]:
    """Run the commands of a stored mail; an unexpected error marks it failed, never lost."""
    record.processed_at = utcnow()
    try:
        mail = parsing.read(record.raw, record.envelope_from)
    except Exception:
        record.status, record.error = "failed", traceback.format_exc()
        log.exception("cannot parse inbound mail %s", record.id)
        return []
    if mail.auto or mail.sender == config.server.address.lower():
        # Never answer robots, nor ourselves: a reply to a reply is how mail loops start.
        record.status = "ignored"
        return []
    try:
        with session.begin_nested():
            ctx = Context(session, mail.sender)
            found = parsing.commands(mail)
            ctx.comment = found.comment
            if found.lines:
                run_lines(ctx, found.lines)
            else:
                ctx.answer("pbm: no command found", NO_COMMAND)
            queued = queue(session, config, ctx.replies, record, mail)
        record.status = "done"
        return queued
    except Exception:
        record.status, record.error = "failed", traceback.format_exc()
        log.exception("inbound mail %s failed", record.id)
        # The Subject may hold a password, so the apology does not quote it.
        sorry = Reply((mail.sender,), "pbm: your mail is waiting for the operator", FAILED)
        return queue(session, config, [sorry], record, mail)


def queue(session: Session, config: Config, replies: list[Reply],
          record: InboundMessage | None, mail: parsing.InboundMail | None) -> list[OutboxMail]:
    """Write each reply, once per recipient address, to the outbox."""
    queued = []
    for reply in replies:
        for address in reply.to:
            if not address:
                continue
            row = OutboxMail(
                inbound_id=record.id if record is not None else None,
                recipient=address,
                subject=reply.subject,
                raw=compose(reply, address, config.server, mail),
            )
            session.add(row)
            queued.append(row)
    return queued
