"""Rate limits: how often something happened in a fixed window, counted in the store.

The counts live in the database, not in memory, so that `pbm process` (one process per
mail) and `pbm serve` count together and a restart forgets nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.orm import Session

from pbm.db.models import RateCounter

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)


@dataclass(frozen=True)
class Allowance:
    allowed: bool
    first_refusal: bool  # the first refusal of this window: the moment for one notice
    resets_at: datetime


def _window(session: Session, key: str, window: timedelta, now: datetime) -> RateCounter:
    row = session.get(RateCounter, key)
    if row is None:
        row = RateCounter(key=key, window_start=now, count=0, noticed=False)
        session.add(row)
    elif row.window_start + window <= now:
        row.window_start, row.count, row.noticed = now, 0, False
    return row


def take(session: Session, key: str, limit: int, window: timedelta,
         now: datetime) -> Allowance:
    """Count one event under `key` if the window still allows it (`limit` 0: no limit)."""
    if limit <= 0:
        return Allowance(True, False, now)
    row = _window(session, key, window, now)
    resets_at = row.window_start + window
    if row.count < limit:
        row.count += 1
        return Allowance(True, False, resets_at)
    first = not row.noticed
    row.noticed = True
    return Allowance(False, first, resets_at)


def reached(session: Session, key: str, limit: int, window: timedelta,
            now: datetime) -> datetime | None:
    """When `key` has reached `limit` in its window: the time the window ends; else None."""
    if limit <= 0:
        return None
    row = session.get(RateCounter, key)
    if row is None or row.window_start + window <= now or row.count < limit:
        return None
    return row.window_start + window


def count(session: Session, key: str, window: timedelta, now: datetime) -> int:
    """Count one event under `key` without a limit; returns the window's count."""
    row = _window(session, key, window, now)
    row.count += 1
    return row.count


LONGEST_WINDOW = DAY


def prune(session: Session, now: datetime) -> int:
    """Forget counters whose window has ended (every sender ever seen leaves a row)."""
    return session.execute(
        delete(RateCounter).where(RateCounter.window_start < now - LONGEST_WINDOW)
    ).rowcount
