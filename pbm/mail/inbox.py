"""The inbox as the operator sees it: mail waiting for them, handling it again, pruning."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, select, update
from sqlalchemy.orm import Session

from pbm.config import Config
from pbm.db import rates
from pbm.db.models import InboundMessage, InboundStatus
from pbm.mail.receive import handle

# Handled mail whose text may go: failed mail waits for the operator, pending for the writer.
HANDLED = (InboundStatus.DONE, InboundStatus.IGNORED, InboundStatus.THROTTLED,
           InboundStatus.REJECTED, InboundStatus.BOUNCE)


def waiting(session: Session, everything: bool = False) -> list[InboundMessage]:
    """Mail whose handling failed or has not happened (or every mail), oldest first."""
    query = select(InboundMessage).order_by(InboundMessage.id)
    if not everything:
        query = query.where(InboundMessage.status.in_((InboundStatus.FAILED,
                                                       InboundStatus.PENDING)))
    return list(session.scalars(query))


def bounced(session: Session) -> list[InboundMessage]:
    """Mail read as bounces (delivery failure reports), oldest first."""
    return list(session.scalars(select(InboundMessage)
                                .where(InboundMessage.status == InboundStatus.BOUNCE)
                                .order_by(InboundMessage.id)))


def find(session: Session, ident: int) -> InboundMessage | None:
    return session.get(InboundMessage, ident)


def retry(session: Session, config: Config, ident: int) -> tuple[InboundStatus, list[int]]:
    """Handle failed mail `ident` again (after the fault is fixed): its new status and the
    outbox mails it queued. LookupError when it is not a failed mail."""
    record = find(session, ident)
    if record is None or record.status != InboundStatus.FAILED:
        raise LookupError(f"inbound mail {ident} is not a failed mail")
    record.error = None
    queued = handle(session, config, record)
    session.flush()
    return record.status, queued


def prune(session: Session, now: datetime, days: int) -> tuple[int, int]:
    """Drop the text (it holds passwords) of handled mail older than `days`, keeping its
    Message-ID so a late copy is still recognised; forget expired rate counters. Returns
    how many of each."""
    pruned = session.execute(
        update(InboundMessage)
        .where(InboundMessage.status.in_(HANDLED),
               InboundMessage.received_at < now - timedelta(days=days),
               InboundMessage.raw != b"")
        .values(raw=b"")
    )
    return cast(CursorResult[Any], pruned).rowcount, rates.prune(session, now)
