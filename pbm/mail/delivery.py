"""Deliver queued mail: through the SMTP relay, or into the local Maildir when none is set."""

from __future__ import annotations

import logging
import mailbox
import smtplib
import socket
from datetime import timedelta
from email.utils import parseaddr

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from pbm.config import Config, parse_relay
from pbm.db.models import OutboxMail, utcnow

log = logging.getLogger(__name__)
BATCH = 200


class PermanentFailure(Exception):
    """The relay refused the mail for good (5xx): retrying will not help."""


class Courier:
    """Hands messages to the relay or the Maildir; one SMTP connection per batch."""

    def __init__(self, config: Config):
        self.config = config
        self.relay = parse_relay(config.delivery.relay) if config.delivery.relay else None
        self.smtp: smtplib.SMTP | None = None
        self.maildir: mailbox.Maildir | None = None

    def send(self, mail: OutboxMail) -> None:
        if self.relay is None:
            if self.maildir is None:
                self.maildir = mailbox.Maildir(self.config.maildir_path, create=True)
            self.maildir.add(mail.raw)
            return
        if self.smtp is None:
            self.smtp = self._connect()
        sender = parseaddr(self.config.server.address)[1]
        try:
            # Envelope sender <> would be right for auto-replies (RFC 3834) but many relays
            # refuse it; the server address is used and auto-answers to it are ignored.
            self.smtp.sendmail(sender, [mail.recipient], mail.raw)
        except smtplib.SMTPRecipientsRefused as err:
            code = next(iter(err.recipients.values()))[0]
            if 500 <= code < 600:
                raise PermanentFailure(f"{code} recipient refused") from None
            raise
        except smtplib.SMTPResponseException as err:
            if 500 <= err.smtp_code < 600:
                raise PermanentFailure(f"{err.smtp_code} {err.smtp_error!r}") from None
            raise

    def _connect(self) -> smtplib.SMTP:
        relay = self.relay
        assert relay is not None
        smtp = smtplib.SMTP(relay.host, relay.port, local_hostname=self.config.server.hostname,
                            timeout=30)
        if relay.starttls:
            smtp.starttls()
        if relay.username:
            smtp.login(relay.username, relay.password or "")
        return smtp

    def close(self) -> None:
        if self.smtp is not None:
            try:
                self.smtp.quit()
            except (smtplib.SMTPException, OSError):
                pass
            self.smtp = None


def deliver_pending(factory: sessionmaker[Session], config: Config,
                    only: list[int] | None = None) -> tuple[int, int]:
    """Deliver due outbox mail. Returns (sent, failed attempts)."""
    now = utcnow()
    with factory() as session:
        query = select(OutboxMail).where(OutboxMail.status == "pending")
        if only is not None:
            query = query.where(OutboxMail.id.in_(only))
        else:
            query = query.where(OutboxMail.next_attempt_at <= now)
        batch = list(session.scalars(query.order_by(OutboxMail.id).limit(BATCH)))
        session.expunge_all()
    courier = Courier(config)
    sent = failed = 0
    outcomes: list[tuple[OutboxMail, str | None, bool]] = []
    try:
        for mail in batch:
            try:
                courier.send(mail)
                outcomes.append((mail, None, False))
                sent += 1
            except PermanentFailure as err:
                outcomes.append((mail, str(err), True))
                failed += 1
            except (smtplib.SMTPException, OSError, socket.timeout) as err:
                courier.close()
                outcomes.append((mail, f"{type(err).__name__}: {err}", False))
                failed += 1
    finally:
        courier.close()
        _record(factory, config, outcomes)
    return sent, failed


def _record(factory: sessionmaker[Session], config: Config,
            outcomes: list[tuple[OutboxMail, str | None, bool]]) -> None:
    if not outcomes:
        return
    now = utcnow()
    with factory() as session, session.begin():
        delivered = [mail.id for mail, error, _ in outcomes if error is None]
        if delivered:
            # The common case in one statement: a busy server delivers hundreds per round.
            session.execute(
                update(OutboxMail)
                .where(OutboxMail.id.in_(delivered))
                .values(status="sent", sent_at=now, last_error=None,
                        attempts=OutboxMail.attempts + 1)
            )
        for detached, error, permanent in outcomes:
            if error is None:
                continue
            mail = session.get(OutboxMail, detached.id)
            if mail is None:
                continue
            mail.attempts += 1
            mail.last_error = error
            expired = mail.created_at < now - timedelta(days=config.delivery.give_up_days)
            if permanent or expired:
                mail.status = "failed"
                log.warning("giving up on outbox mail %s to %s: %s", mail.id, mail.recipient,
                            error)
            else:
                delay = min(config.delivery.retry_seconds * 2 ** min(mail.attempts - 1, 30),
                            config.delivery.max_retry_seconds)
                mail.next_attempt_at = now + timedelta(seconds=delay)
