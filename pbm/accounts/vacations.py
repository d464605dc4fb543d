"""Vacations: times a player is away, their clocks stopped, within a yearly allowance."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from pbm.db.models import Seat, User, Vacation

DAY = timedelta(days=1)


def on_vacation(user: User, now: datetime) -> bool:
    return user.vacation_until is not None and user.vacation_until > now


def current(session: Session, user: User, now: datetime) -> Vacation | None:
    """The vacation `user` is on now, if any."""
    return session.scalar(select(Vacation).where(
        Vacation.user_id == user.id, Vacation.starts_at <= now, Vacation.ends_at > now))


def away(periods: Sequence[tuple[datetime, datetime]], since: datetime,
         until: datetime) -> timedelta:
    """How much of [since, until) the periods cover (they never overlap each other)."""
    total = timedelta()
    for start, end in periods:
        overlap = min(end, until) - max(start, since)
        if overlap > timedelta():
            total += overlap
    return total


def periods(session: Session, user_id: int, since: datetime,
            until: datetime) -> list[tuple[datetime, datetime]]:
    """The user's vacations that touch [since, until)."""
    rows = session.execute(select(Vacation.starts_at, Vacation.ends_at).where(
        Vacation.user_id == user_id, Vacation.ends_at > since, Vacation.starts_at < until))
    return [(start, end) for start, end in rows]


def days_used(session: Session, user: User, year: int, instead: Vacation | None = None,
              planned: tuple[datetime, datetime] | None = None) -> int:
    """Whole days (rounded up) of vacation `user` has in calendar `year`, with `planned`
    in place of the vacation `instead` (or added) when given."""
    start, end = datetime(year, 1, 1), datetime(year + 1, 1, 1)
    taken = [(s, e) for vid, s, e in session.execute(
        select(Vacation.id, Vacation.starts_at, Vacation.ends_at).where(
            Vacation.user_id == user.id, Vacation.ends_at > start, Vacation.starts_at < end))
        if instead is None or vid != instead.id]
    if planned is not None:
        taken.append(planned)
    return math.ceil(away(taken, start, end) / DAY)


def years(start: datetime, end: datetime) -> range:
    last = (end - timedelta(microseconds=1)).year
    return range(start.year, last + 1)


def wake_clocks(session: Session, user: User, now: datetime) -> None:
    """Have housekeeping look at the user's waiting seats now: a vacation that ends early
    must not leave their checks scheduled for its old end."""
    session.execute(update(Seat).where(Seat.user_id == user.id,
                                       Seat.waiting_since.is_not(None))
                    .values(next_check_at=now))

