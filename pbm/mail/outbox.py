"""The outbox as couriers see it: claim due mail, record each outcome, take back dead claims."""

from __future__ import annotations

import logging
import os
import socket
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import (
    BindParameter,
    CursorResult,
    Select,
    Update,
    bindparam,
    delete,
    func,
    select,
    update,
)
from sqlalchemy.orm import Session, sessionmaker

from pbm import logs
from pbm.config import DeliverySettings
from pbm.db.models import OutboxMail, OutboxStatus
from pbm.db.session import session_factory, tuned

log = logging.getLogger(__name__)

# A claim older than this is taken back even when its courier may live (on another host,
# where we cannot ask whether its process runs). A slow round renews its claims well before.
LEASE = timedelta(minutes=15)
RENEW = LEASE / 3
# Statements that name ids stay under SQLite's default limit of bound parameters.
ID_CHUNK = 500


@dataclass(frozen=True)
class Parcel:
    """One claimed outbox mail, detached from any session."""

    id: int
    recipient: str
    raw: bytes
    attempts: int
    created_at: datetime
    maybe_sent: bool  # taken back from a courier that died: it may have gone out


@dataclass(frozen=True)
class Look:
    """What a read-only glance at the outbox found."""

    due: bool
    claims: list[tuple[int, str | None, datetime | None]]  # (id, claimed_by, claimed_at)


def courier_name() -> str:
    """`host:pid`, what a courier writes into `claimed_by`."""
    return f"{socket.gethostname()}:{os.getpid()}"


# ----- the statements of every round, built once ------------------------------------------
# Building a statement, and the ORM's bulk update around it, cost the courier more CPU than
# the database took to run it (the claim of two mails: 1.1-1.3 ms built each time, on a
# session; 0.5-0.6 ms built once, on a connection). These run with their values bound.
_IDS: BindParameter[list[int]] = bindparam("ids", expanding=True)
LOOK_DUE = (select(OutboxMail.id)
            .where(OutboxMail.status == OutboxStatus.PENDING,
                   OutboxMail.next_attempt_at <= bindparam("now"))
            .limit(1))
LOOK_CLAIMS = (select(OutboxMail.id, OutboxMail.claimed_by, OutboxMail.claimed_at)
               .where(OutboxMail.status == OutboxStatus.SENDING))


def _claim(chosen: Select[int]) -> Update:
    """The claim of the mails `chosen` selects: due ones, or the pending ones among ids."""
    # Several nodes: rows another courier is claiming now are passed over, not waited for
    # (it takes them); SQLite's one writer claims alone, and has no SKIP LOCKED.
    chosen = (chosen.where(OutboxMail.status == OutboxStatus.PENDING).order_by(OutboxMail.id)
              .limit(bindparam("limit")).with_for_update(skip_locked=True))
    return (
        update(OutboxMail)
        # status is checked again outside the subquery: on PostgreSQL a row another claimer
        # took after the subquery looked is re-checked against it.
        .where(OutboxMail.id.in_(chosen), OutboxMail.status == OutboxStatus.PENDING)
        .values(status=OutboxStatus.SENDING, claimed_by=bindparam("me"),
                claimed_at=bindparam("claimed_at"))
        .returning(OutboxMail.id, OutboxMail.recipient, OutboxMail.raw, OutboxMail.attempts,
                   OutboxMail.created_at, OutboxMail.maybe_sent)
    )


CLAIM_DUE = _claim(select(OutboxMail.id).where(OutboxMail.next_attempt_at <= bindparam("now")))
CLAIM_AMONG = _claim(select(OutboxMail.id).where(OutboxMail.id.in_(_IDS)))
SENT = (update(OutboxMail).where(OutboxMail.id.in_(_IDS))
        .values(status=OutboxStatus.SENT, sent_at=bindparam("now"), last_error=None,
                attempts=OutboxMail.attempts + 1, claimed_by=None, claimed_at=None))


class Outbox:
    """Reads and writes of the outbox table for one courier named `me`.

    Every write is its own short transaction, so the receiving writer is never held up
    for long; every read that decides nothing is read-only, and takes no write lock (the
    idle poll of `pbm serve` must not)."""

    def __init__(self, factory: sessionmaker[Session], settings: DeliverySettings, me: str):
        self.factory = factory
        engine = factory.kw["bind"]
        self.engine = engine  # the round's statements, on a connection of their own
        self.reader = session_factory(engine, read_only=True)
        self.read_engine = tuned(engine, read_only=True)
        self.lazy_engine = tuned(engine, lazy_commit=True)
        self.settings = settings
        self.me = me

    # ----- reading ------------------------------------------------------------------
    def look(self, now: datetime) -> Look:
        with self.read_engine.connect() as conn:  # one read transaction for both
            due = conn.execute(LOOK_DUE, {"now": now}).first() is not None
            claims = [(ident, owner, at) for ident, owner, at in conn.execute(LOOK_CLAIMS)]
        return Look(due, claims)

    def waiting(self) -> int:
        with self.reader() as session:
            return session.scalar(
                select(func.count()).select_from(OutboxMail)
                .where(OutboxMail.status.in_((OutboxStatus.PENDING, OutboxStatus.SENDING)))
            ) or 0

    # ----- claiming -----------------------------------------------------------------
    def claim(self, now: datetime, limit: int, only: list[int] | None = None) -> list[Parcel]:
        """Take up to `limit` due mails (or the pending ones among `only`) for this courier,
        in one short write transaction: no other courier sends them now."""
        values: dict[str, Any] = {"limit": limit, "me": self.me, "claimed_at": now}
        if only is None:
            statement, values["now"] = CLAIM_DUE, now
        else:
            statement, values["ids"] = CLAIM_AMONG, only
        with self.engine.begin() as conn:
            rows = conn.execute(statement, values).all()
        parcels = sorted((Parcel(*row) for row in rows), key=lambda parcel: parcel.id)
        if parcels:
            log.debug("courier %s claimed outbox mail(s) %s", self.me,
                      ", ".join(f"{parcel.id} to {logs.clean(parcel.recipient)} "
                                f"({len(parcel.raw)} bytes, try {parcel.attempts + 1})"
                                for parcel in parcels[:MAX_LOGGED_PARCELS])
                      + (f" and {len(parcels) - MAX_LOGGED_PARCELS} more"
                         if len(parcels) > MAX_LOGGED_PARCELS else ""))
        return parcels

    def renew(self, parcels: list[Parcel], now: datetime) -> None:
        """Keep a long round's claims fresh, so the lease never hands them to another."""
        with self.factory() as session, session.begin():
            for chunk in _chunks([parcel.id for parcel in parcels]):
                session.execute(
                    update(OutboxMail)
                    .where(OutboxMail.id.in_(chunk), OutboxMail.status == OutboxStatus.SENDING,
                           OutboxMail.claimed_by == self.me)
                    .values(claimed_at=now).execution_options(synchronize_session=False)
                )

    def take_back(self, claims: list[tuple[int, str | None, datetime | None]], now: datetime,
                  *, starting: bool = False) -> int:
        """Return to the queue the mails of couriers that died mid-round, marked maybe_sent.

        A claim is dead when its courier ran on this host and its process is gone, or when
        it is older than the lease. `starting`: this process has claimed nothing yet, so a
        claim in its own name is a dead predecessor's that had the same pid."""
        dead = [(ident, owner, at) for ident, owner, at in claims
                if _is_dead(owner, at, now, self.me if not starting else None)]
        if not dead:
            return 0
        taken = 0
        with self.factory() as session, session.begin():
            for (owner, at), idents in _by_claim(dead).items():
                for chunk in _chunks(idents):
                    taken += cast(CursorResult[Any], session.execute(
                        update(OutboxMail)
                        # Only the very claim found dead: on several nodes another may have
                        # taken it back and claimed it afresh since the look.
                        .where(OutboxMail.id.in_(chunk),
                               OutboxMail.status == OutboxStatus.SENDING,
                               _same(OutboxMail.claimed_by, owner),
                               _same(OutboxMail.claimed_at, at))
                        .values(status=OutboxStatus.PENDING, maybe_sent=True, claimed_by=None,
                                claimed_at=None)
                        .execution_options(synchronize_session=False)
                    )).rowcount
        if not taken:
            return 0
        log.warning("took back %d outbox mail(s) from a courier that stopped mid-round "
                    "(%s); they are delivered again, skipping any that already arrived",
                    taken, ", ".join(sorted({str(owner) for _, owner, _ in dead})))
        return taken

    def make_due(self, now: datetime) -> int:
        """Every pending mail is due now (`pbm outbox flush`)."""
        with self.factory() as session, session.begin():
            result = session.execute(
                update(OutboxMail).where(OutboxMail.status == OutboxStatus.PENDING,
                                         OutboxMail.next_attempt_at > now)
                .values(next_attempt_at=now)
                .execution_options(synchronize_session=False)
            )
        return cast(CursorResult[Any], result).rowcount

    # ----- recording ----------------------------------------------------------------
    def sent(self, ids: list[int], now: datetime, *, durable: bool = True) -> None:
        """Record `ids` delivered. Not `durable`: a power loss may undo the record (not the
        claim before it), for mail whose delivery recovery can see (the Maildir's names)."""
        if not ids:
            return
        with (self.engine if durable else self.lazy_engine).begin() as conn:
            for chunk in _chunks(ids):
                conn.execute(SENT, {"ids": chunk, "now": now})
        log.debug("recorded %d outbox mail(s) sent%s: %s", len(ids),
                  "" if durable else " (lazy commit)", _few(ids))

    def retry_later(self, parcel: Parcel, error: str, now: datetime) -> bool:
        """A temporary failure of this one mail: try again after its backoff, or give up
        when it is older than give_up_days. Returns whether it was given up."""
        settings = self.settings
        if parcel.created_at < now - timedelta(days=settings.give_up_days):
            self.fail(parcel, f"{error} (undelivered after {settings.give_up_days} days; "
                              "gave up)")
            log.error("gave up on outbox mail %d to %s, undelivered after %d days: %s",
                      parcel.id, parcel.recipient, settings.give_up_days, error)
            return True
        delay = min(settings.retry_seconds * 2 ** min(parcel.attempts, 30),
                    settings.max_retry_seconds)
        self._set(parcel.id, status=OutboxStatus.PENDING, last_error=error,
                  attempts=OutboxMail.attempts + 1,
                  next_attempt_at=now + timedelta(seconds=delay))
        log.debug("outbox mail %d to %s: tries again in %d s", parcel.id,
                  logs.clean(parcel.recipient), delay)
        return False

    def fail(self, parcel: Parcel, error: str) -> None:
        """This mail will not go out without the operator (`pbm outbox retry`)."""
        self._set(parcel.id, status=OutboxStatus.FAILED, last_error=error,
                  attempts=OutboxMail.attempts + 1)

    def release(self, parcels: list[Parcel], error: str | None,
                maybe_sent: list[int] | tuple[int, ...] = ()) -> None:
        """Back to the queue, due as before and not charged an attempt: the relay could not
        be reached, or the courier is stopping. `maybe_sent`: mails whose handing over was
        cut off, or written but not recorded."""
        if not parcels:
            return
        ids = [parcel.id for parcel in parcels]
        values: dict = {"status": OutboxStatus.PENDING, "claimed_by": None, "claimed_at": None}
        if error is not None:
            values["last_error"] = error
        with self.factory() as session, session.begin():
            for chunk in _chunks(ids):
                session.execute(
                    update(OutboxMail)
                    .where(OutboxMail.id.in_(chunk), OutboxMail.status == OutboxStatus.SENDING)
                    .values(**values).execution_options(synchronize_session=False)
                )
            for chunk in _chunks(list(maybe_sent)):
                session.execute(
                    update(OutboxMail).where(OutboxMail.id.in_(chunk))
                    .values(maybe_sent=True).execution_options(synchronize_session=False)
                )

    def give_up_expired(self, now: datetime, error: str) -> list[tuple[int, str]]:
        """After the relay could not be reached: mark failed every waiting mail older than
        give_up_days. Returns their (id, recipient)."""
        days = self.settings.give_up_days
        cutoff = now - timedelta(days=days)
        with self.reader() as session:
            expired: list[tuple[int, str]] = [(ident, to) for ident, to in session.execute(
                select(OutboxMail.id, OutboxMail.recipient)
                .where(OutboxMail.status == OutboxStatus.PENDING, OutboxMail.created_at < cutoff)
            )]
        if not expired:
            return []
        with self.factory() as session, session.begin():
            for chunk in _chunks([ident for ident, _ in expired]):
                session.execute(
                    update(OutboxMail)
                    .where(OutboxMail.id.in_(chunk), OutboxMail.status == OutboxStatus.PENDING)
                    .values(status=OutboxStatus.FAILED,
                            last_error=f"{error} (undelivered after {days} days; gave up)")
                    .execution_options(synchronize_session=False)
                )
        recipients = sorted({recipient for _, recipient in expired})
        shown = ", ".join(recipients[:10]) + (f" and {len(recipients) - 10} more"
                                              if len(recipients) > 10 else "")
        log.error("gave up on %d repl%s undelivered after %d days (to %s): %s",
                  len(expired), "y" if len(expired) == 1 else "ies", days, shown, error)
        return expired

    def _set(self, ident: int, **values) -> None:
        values.update(claimed_by=None, claimed_at=None)
        with self.factory() as session, session.begin():
            session.execute(
                update(OutboxMail).where(OutboxMail.id == ident).values(**values)
                .execution_options(synchronize_session=False)
            )


def _is_dead(owner: str | None, claimed_at: datetime | None, now: datetime,
             me: str | None) -> bool:
    if owner is None or claimed_at is None or claimed_at < now - LEASE:
        return True
    if owner == me:
        return False  # our own round in progress (another thread of this process)
    host, _, pid = owner.rpartition(":")
    if host != socket.gethostname():
        return False  # only the lease can tell
    try:
        number = int(pid)
    except ValueError:
        return True
    if number == os.getpid():
        return me is None  # starting: a predecessor with our pid
    return not _alive(number)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def _by_claim(claims: list[tuple[int, str | None, datetime | None]]
              ) -> dict[tuple[str | None, datetime | None], list[int]]:
    """The ids of `claims` grouped by their claim (courier and moment)."""
    groups: dict[tuple[str | None, datetime | None], list[int]] = {}
    for ident, owner, at in claims:
        groups.setdefault((owner, at), []).append(ident)
    return groups


def _same(column: Any, value: Any) -> Any:
    """`column` holds `value`, None included."""
    return column.is_(None) if value is None else column == value


MAX_LOGGED_PARCELS = 20  # a debug line names this many mails, then counts the rest


def _few(ids: list[int]) -> str:
    shown = ", ".join(str(ident) for ident in ids[:MAX_LOGGED_PARCELS])
    more = len(ids) - MAX_LOGGED_PARCELS
    return shown + (f" and {more} more" if more > 0 else "")


def _chunks(ids: list[int]) -> list[list[int]]:
    return [ids[start:start + ID_CHUNK] for start in range(0, len(ids), ID_CHUNK)]


# ----- the operator's view ----------------------------------------------------------------
def undelivered(session: Session, everything: bool = False) -> list[OutboxMail]:
    """Mail not yet delivered (or every mail), oldest first."""
    query = select(OutboxMail).order_by(OutboxMail.id)
    if not everything:
        query = query.where(OutboxMail.status != OutboxStatus.SENT)
    return list(session.scalars(query))


def requeue(session: Session, ids: list[int], now: datetime) -> int:
    """Failed and waiting mail (all, or `ids`) back in the queue as new, due now."""
    query = update(OutboxMail).where(
        OutboxMail.status.in_((OutboxStatus.FAILED, OutboxStatus.PENDING)))
    if ids:
        query = query.where(OutboxMail.id.in_(ids))
    result = session.execute(query.values(status=OutboxStatus.PENDING, attempts=0,
                                          next_attempt_at=now))
    return cast(CursorResult[Any], result).rowcount


def prune(session: Session, now: datetime, days: int) -> int:
    """Delete delivered mail older than `days` (pending and failed mail stay)."""
    result = session.execute(
        delete(OutboxMail).where(OutboxMail.status == OutboxStatus.SENT,
                                 OutboxMail.sent_at < now - timedelta(days=days)))
    return cast(CursorResult[Any], result).rowcount
