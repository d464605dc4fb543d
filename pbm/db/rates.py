"""Rate limits: how often something happened in a fixed window, counted in the store.

The counts live in the database, not in memory, so that `pbm process` (one process per
mail) and `pbm serve` count together and a restart forgets nothing. Counting is one
statement (an upsert that starts a new window when the old one has passed), as it runs
for every mail.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any, cast

from sqlalchemy import CursorResult, Table, bindparam, case, delete, select
from sqlalchemy.orm import Session

from pbm.db.models import RateCounter

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
LONGEST_WINDOW = DAY
COUNTERS = cast(Table, RateCounter.__table__)


@cache
def _counting(dialect: str) -> Any:
    """The upsert that counts an event: the dialect's INSERT with ON CONFLICT DO UPDATE
    (SQLite and PostgreSQL spell it alike), starting a new window when the old one has
    passed. Built once per dialect, the values bound at each call (building it cost several
    times what running it does, at every mail). The dialect is imported when first needed:
    PostgreSQL's costs `pbm process` 60 ms."""
    insert = importlib.import_module(f"sqlalchemy.dialects.{dialect}").insert(COUNTERS)
    now = bindparam("now", type_=COUNTERS.c.window_start.type)
    passed = COUNTERS.c.window_start <= bindparam("window_began",
                                                  type_=COUNTERS.c.window_start.type)
    return (
        insert.values(key=bindparam("key"), window_start=now, count=1)
        .on_conflict_do_update(
            index_elements=[COUNTERS.c.key],
            set_={
                "count": case((passed, 1), else_=COUNTERS.c.count + 1),
                "window_start": case((passed, now), else_=COUNTERS.c.window_start),
            },
        )
        .returning(COUNTERS.c.count, COUNTERS.c.window_start)
    )


_READING = select(COUNTERS.c.count, COUNTERS.c.window_start).where(
    COUNTERS.c.key == bindparam("key"))


@dataclass(frozen=True)
class Allowance:
    allowed: bool
    first_refusal: bool  # the first refusal of this window: the moment for one notice
    resets_at: datetime


def count(session: Session, key: str, window: timedelta, now: datetime) -> tuple[int, datetime]:
    """Count one event under `key`: the window's count so far and when the window began."""
    statement = _counting(session.get_bind().dialect.name)
    # On the connection: the ORM's statement machinery adds nothing for a table write.
    total, began = session.connection().execute(
        statement, {"key": key, "now": now, "window_began": now - window}).one()
    return int(total), began


def take(session: Session, key: str, limit: int, window: timedelta,
         now: datetime) -> Allowance:
    """Count one event under `key`; allowed while the window's count is within `limit`
    (0: no limit, and nothing is counted)."""
    if limit <= 0:
        return Allowance(True, False, now)
    total, began = count(session, key, window, now)
    return Allowance(total <= limit, total == limit + 1, began + window)


def reached(session: Session, key: str, limit: int, window: timedelta,
            now: datetime) -> datetime | None:
    """When `key` has reached `limit` in its window: the time the window ends; else None."""
    if limit <= 0:
        return None
    row = session.connection().execute(_READING, {"key": key}).first()
    if row is None:
        return None
    total, began = row
    ends: datetime = began + window
    return None if ends <= now or total < limit else ends


def prune(session: Session, now: datetime) -> int:
    """Forget counters whose window has ended (every sender ever seen leaves a row)."""
    result = session.execute(
        delete(RateCounter).where(RateCounter.window_start < now - LONGEST_WINDOW))
    return cast(CursorResult[Any], result).rowcount
