"""Where SQLite and PostgreSQL differ for several writers: the few locks pbm takes (how each
engine is set up and what its faults mean is pbm/db/engines.py).

SQLite has one writer at a time (`BEGIN IMMEDIATE`), so whatever one transaction reads
stays true until it commits, and none of these locks is needed there. PostgreSQL lets
transactions of several `pbm serve` nodes run at once: what one reads to decide a write
(the next board number, whether housekeeping runs) is guarded by an advisory lock held
until its commit. Row locks (`FOR UPDATE`) are written once for both engines: SQLAlchemy
leaves them out on SQLite.
"""

from __future__ import annotations

import zlib
from enum import Enum

from sqlalchemy import Connection, text
from sqlalchemy.orm import Session


class Guarded(Enum):
    """What one advisory lock guards; its value names it in the database's lock table."""

    NUMBERS = "pbm:board-numbers"  # the next board id and number, the next rating_seq
    HOUSEKEEPING = "pbm:housekeeping"  # nags and forfeits: one node at a time
    MIGRATION = "pbm:migration"  # nodes starting together migrate once
    LADDERS = "pbm:ladders"  # ranks: joins, leaves, challenges and the ends that move them

    @property
    def key(self) -> int:
        """A stable 32-bit key (PostgreSQL's advisory locks take a bigint)."""
        return zlib.crc32(self.value.encode())


def several_writers(bind: Session | Connection) -> bool:
    """Whether other transactions may write while this one runs (not SQLite)."""
    return bind.get_bind().dialect.name != "sqlite" if isinstance(bind, Session) \
        else bind.dialect.name != "sqlite"


def hold(bind: Session | Connection, what: Guarded) -> None:
    """Wait for `what` and hold it until this transaction ends; nothing on SQLite."""
    if several_writers(bind):
        bind.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": what.key})


def try_hold(bind: Session | Connection, what: Guarded) -> bool:
    """Take `what` until this transaction ends, if no other transaction holds it; on
    SQLite always (the write lock this transaction holds already keeps others out)."""
    if not several_writers(bind):
        return True
    return bool(bind.execute(text("SELECT pg_try_advisory_xact_lock(:key)"),
                             {"key": what.key}).scalar())
