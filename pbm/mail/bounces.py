"""Bounces: a delivery failure report marks the address; repeated ones stop mail to it.

A bounce comes from `<>` (or MAILER-DAEMON) and is never answered. flufl.bounce (Mailman's
bounce detectors) reads RFC 3464 DSNs and the older formats of Exim, qmail, Microsoft and
others; only permanent failures count (a "delayed" notice is no bounce, nor is a DSN of
success).

Anyone can send a mail that looks like a bounce. So a failure counts only when the report
quotes the Message-ID of a mail we sent to that very address (the original's headers come
back with every bounce format we read); anything else is stored and noted, nothing more.
"""

from __future__ import annotations

import email
import logging
import re
from datetime import datetime, timedelta
from email import policy

from flufl.bounce import all_failures
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pbm.config import Config
from pbm.context import Reply
from pbm.db.models import Address, InboundMessage, InboundStatus, OutboxMail
from pbm.mail import inbound as parsing

log = logging.getLogger(__name__)
# The detectors log every detector they try at INFO: noise in an operator's log.
logging.getLogger("flufl.bounce").setLevel(logging.WARNING)

SPACING = timedelta(days=1)  # bounces within a day count once: one outage, many mails
FORGOTTEN = timedelta(days=30)  # a bounce this old is forgotten: the count starts again
MAX_ADDRESSES = 10  # failed recipients looked at in one report
MAX_IDS = 20  # quoted Message-IDs looked for
RECENT_MAILS = 20_000  # outbox rows searched for them, newest first (a bounded scan)


def take(session: Session, config: Config, record: InboundMessage,
         mail: parsing.InboundMail, now: datetime) -> list[Reply] | None:
    """Within the mail's transaction: None when `record` is no bounce; else the addresses
    it names are marked (and perhaps stopped), `record` says so, and the notices to send."""
    if not mail.auto:
        return None
    failed = permanent_failures(record.raw)
    if not failed:
        return None
    record.status = InboundStatus.BOUNCE
    ours = _quoted_ids(record.raw, config.server.hostname)
    notes: list[str] = []
    notices: list[Reply] = []
    for address in failed[:MAX_ADDRESSES]:
        rows = list(session.scalars(select(Address).where(Address.address == address)))
        if not rows:
            notes.append(f"{address}: not an address of ours")
        elif not _sent_to(session, address, ours):
            notes.append(f"{address}: quotes no mail we sent there; not counted")
        else:
            for row in rows:
                note, stopped = count(row, now, config.delivery.bounces_before_stop)
                notes.append(f"{address}: {note}")
                if stopped:
                    notices += _tell_owner(row)
    record.error = "bounce: " + "; ".join(notes)
    log.info("inbound mail %s is a bounce: %s", record.id, "; ".join(notes))
    return notices


def permanent_failures(raw: bytes) -> list[str]:
    """The addresses a bounce reports as failed for good, lower-cased, in order."""
    try:
        message = email.message_from_bytes(raw, policy=policy.compat32)
        _temporary, permanent = all_failures(message)
    except Exception:  # a detector choking on a strange mail: no bounce we can read
        log.exception("reading a bounce failed")
        return []
    found = []
    for item in sorted(permanent):
        address = item.decode("ascii", "replace").strip().lower()
        if parsing.ADDRESS.fullmatch(address):
            found.append(address)
    return found


def count(address: Address, now: datetime, limit: int) -> tuple[str, bool]:
    """Count a bounce of `address`; stop mail to it at `limit`. What was done, in words,
    and whether mail to it stopped just now."""
    last = address.last_bounce_at
    if address.stopped:
        return "mail to it is stopped already", False
    if last is not None and now - last < SPACING:
        return f"bounced again within a day ({address.bounces} of {limit})", False
    address.bounces = 1 if last is None or now - last >= FORGOTTEN else address.bounces + 1
    address.last_bounce_at = now
    if address.bounces >= limit:
        address.stopped = True
        return f"bounce {address.bounces} of {limit}: mail to it stopped", True
    return f"bounce {address.bounces} of {limit}", False


def resume(session: Session, address: str) -> int:
    """Mail `address` again (the operator's `pbm users resume`): how many rows it had."""
    rows = list(session.scalars(select(Address).where(Address.address == address.lower())))
    for row in rows:
        row.stopped, row.bounces, row.last_bounce_at = False, 0, None
    return len(rows)


def _tell_owner(stopped: Address) -> list[Reply]:
    """One notice to the owner's other addresses that still get mail, if there are any: not
    to one still unconfirmed, a stranger's perhaps (confirmations.py)."""
    others = tuple(a.address for a in stopped.user.addresses
                   if a.id != stopped.id and a.confirmed and not a.stopped
                   and a.address != stopped.address)
    if not others:
        return []
    userid = stopped.user.userid
    body = (f"Mail from the game server to {stopped.address}, an address of {userid}, came "
            f"back undelivered {stopped.bounces} times, so the server has stopped mailing it. "
            "Your board mails now go only to this address.\n\n"
            f"If {stopped.address} works again, name it once more: 'change address {userid} "
            f"PASSWORD {' '.join(dict.fromkeys((*others, stopped.address)))}'.\n")
    return [Reply(others, f"pbm: mail to {stopped.address} stopped", body, "notice")]


def _quoted_ids(raw: bytes, hostname: str) -> list[str]:
    """Message-IDs of ours quoted in a report (the original's headers come back in it)."""
    pattern = re.compile(rb"<[!-;=?A-~]{1,200}@" + re.escape(hostname.encode()) + rb">",
                         re.IGNORECASE)
    found: list[str] = []
    for match in pattern.finditer(raw):
        text = match.group().decode("ascii")
        if text not in found:
            found.append(text)
            if len(found) == MAX_IDS:
                break
    return found


def _sent_to(session: Session, address: str, ids: list[str]) -> bool:
    """Whether one of `ids` is the Message-ID of a recent mail of ours to `address`."""
    if not ids:
        return False
    newest = session.scalar(select(func.max(OutboxMail.id))) or 0
    rows = session.execute(
        select(OutboxMail.raw)
        .where(OutboxMail.id > newest - RECENT_MAILS, OutboxMail.recipient == address)
        .order_by(OutboxMail.id.desc()))
    wanted = [f"Message-ID: {msg_id}".encode() for msg_id in ids]
    for (raw,) in rows:
        head = bytes(raw[:4096])
        if any(w in head for w in wanted):
            return True
    return False
