"""Bounces: a delivery failure report marks the address; repeated ones stop mail to it.

A bounce comes from `<>` (or MAILER-DAEMON) and is never answered. flufl.bounce (Mailman's
bounce detectors) reads RFC 3464 DSNs and the older formats of Exim, qmail, Microsoft and
others; only permanent failures count (a "delayed" notice is no bounce, nor is a DSN of
success).

Anyone can send a mail that looks like a bounce. So a failure counts only when the report
returns a mail we sent to that very address: the Message-ID header of the original it
returns (a message/rfc822 or text/rfc822-headers part, or the copy after an Exim or qmail
notice), parsed as a header, is the stored Message-ID of an outbox mail to that address.
Text anywhere else in the report counts for nothing: a stranger's comment quoted in a board
mail once made a forged report count. Nor does an id anyone can work out (a board's first
mail to a player carries one derived from the board and the address, see threads.py).
Anything else is stored and noted, nothing more.

Reading a report (`read`) happens before the writer, bounded in bytes; the writer only
looks up what it found (`take`).
"""

from __future__ import annotations

import email
import logging
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from email import policy
from email.message import Message
from email.parser import BytesHeaderParser

from flufl.bounce import all_failures
from sqlalchemy import select
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
MAX_IDS = 20  # returned originals' Message-IDs looked for
# What of a report the detectors read: its notice, its status part and the returned
# original's headers come first. Some detectors read every line once per pattern (about
# 25 us a line), which made a megabyte of "address failed" lines cost the writer seconds.
MAX_REPORT_BYTES = 64 * 1024
MAX_REPORT_LINES = 1000
RETURNED = ("message/rfc822", "text/rfc822-headers")
# The line after which Exim, qmail and older MTAs copy the original, headers first.
COPY_FOLLOWS = re.compile(
    rb"^[ \t]*-{2,}[^\r\n]*\b(?:copy of the (?:original )?message|(?:original|unsent|returned)"
    rb" message)\b[^\r\n]*\r?\n(?:[ \t]*\r?\n)*", re.I | re.M)
DERIVED = "<board."  # threads.root_id and anchor_id: worked out from public facts


@dataclass(frozen=True)
class Report:
    """What a delivery failure report says, read before the writer takes the mail."""

    failed: tuple[str, ...]  # addresses failed for good, lower-cased, in order
    returned: tuple[str, ...]  # Message-IDs of the originals it returns


def read(raw: bytes) -> Report | None:
    """The report in an automatic mail; None when it reports no permanent failure."""
    try:
        message = email.message_from_bytes(_head(raw), policy=policy.compat32)
        _temporary, permanent = all_failures(message)
    except Exception:  # a detector choking on a strange mail: no bounce we can read
        log.exception("reading a bounce failed")
        return None
    failed = []
    for item in sorted(permanent):
        address = item.decode("ascii", "replace").strip().lower()
        if parsing.ADDRESS.fullmatch(address):
            failed.append(address)
    if not failed:
        return None
    return Report(tuple(failed), tuple(returned_ids(message)))


def _head(raw: bytes) -> bytes:
    """The start of a report the detectors may read: MAX_REPORT_BYTES, MAX_REPORT_LINES."""
    head = raw[:MAX_REPORT_BYTES]
    if head.count(b"\n") <= MAX_REPORT_LINES:
        return head
    end = -1
    for _ in range(MAX_REPORT_LINES):
        end = head.find(b"\n", end + 1)
    return head[:end + 1]


def returned_ids(message: Message) -> list[str]:
    """The Message-ID headers of the originals a report returns, as headers parse them."""
    found: list[str] = []
    for part in message.walk():
        kind = part.get_content_type()
        if kind == "message/rfc822":
            payload = part.get_payload()
            heads = [p for p in payload if isinstance(p, Message)] \
                if isinstance(payload, list) else []
        elif kind == "text/rfc822-headers":
            heads = [_headers(part.get_payload(decode=True))]
        elif kind == "text/plain" and not part.is_multipart():
            text = part.get_payload(decode=True)
            copy = COPY_FOLLOWS.search(text) if isinstance(text, bytes) else None
            heads = [_headers(text[copy.end():])] if copy and isinstance(text, bytes) else []
        else:
            continue
        for head in heads:
            value = head.get("Message-ID")
            found_id = parsing.MSG_ID.fullmatch("".join(str(value or "").split()))
            if found_id and found_id.group() not in found and len(found_id.group()) <= 250:
                found.append(found_id.group())
        if len(found) >= MAX_IDS:
            break
    return found[:MAX_IDS]


def _headers(data: object) -> Message:
    return BytesHeaderParser(policy=policy.compat32).parsebytes(
        data if isinstance(data, bytes) else b"")


def take(session: Session, config: Config, record: InboundMessage,
         report: Report | None, now: datetime) -> list[Reply] | None:
    """Within the mail's transaction: None when `report` is None (no bounce); else the
    addresses it names are marked (and perhaps stopped), `record` says so, and the notices
    to send."""
    if report is None:
        return None
    record.status = InboundStatus.BOUNCE
    ours = [msg_id for msg_id in report.returned if not msg_id.startswith(DERIVED)]
    notes: list[str] = []
    notices: list[Reply] = []
    for address in report.failed[:MAX_ADDRESSES]:
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


def _sent_to(session: Session, address: str, ids: list[str]) -> bool:
    """Whether one of `ids` is the stored Message-ID of a mail of ours to `address`."""
    if not ids:
        return False
    return session.scalar(
        select(OutboxMail.id)
        .where(OutboxMail.message_id.in_(ids), OutboxMail.recipient == address)
        .limit(1)) is not None
