"""Copy a whole pbm database into an empty one on another engine (SQLite <-> PostgreSQL).

The source is read in one snapshot (one read transaction) and written to the target in one
transaction, table by table in foreign-key order, in batches; ids are kept and PostgreSQL's
sequences are moved past them. Nothing may write to the source meanwhile or after: a mail
stored there once the copy has begun would never reach the target. So the copy refuses a
source that another process has open (a running `pbm serve`, a `pbm process`).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, Engine, Table, func, insert, inspect, select, text
from sqlalchemy.exc import DBAPIError, OperationalError

from pbm.config import masked
from pbm.db import SCHEMA_REVISION
from pbm.db.migrate import UnknownRevision, upgrade_known
from pbm.db.models import Base
from pbm.db.session import StoreUnavailable, current_revision, sqlite_file

BATCH = 1000
EVERY = 10_000  # rows between two progress lines of a big table

# SQLite's unix VFS: every connection to a WAL database holds a shared lock on this byte of
# the -shm file while it is open (os_unix.c: UNIX_SHM_DMS = (22 + 8) * 4 + 8).
_SHM_DMS_BYTE = 128


class CopyRefused(Exception):
    """The copy was not made (or not kept): the message says why and what to do."""


def tables() -> list[Table]:
    """pbm's tables, each after the tables it refers to."""
    return list(Base.metadata.sorted_tables)


Progress = Callable[[str], None]


def copy_database(source: Engine, target: Engine, *, batch: int = BATCH,
                  progress: Progress | None = None, every: int = EVERY) -> dict[str, int]:
    """Copy every row of `source` into the empty database `target`; rows per table.

    `progress` hears a line per table as it is done ("users: 1,200 rows"), and one for
    each `every` rows of a table along the way ("outbox: 20,000 rows so far")."""
    refuse_busy_source(source)
    revision = _revision(source, "source")
    if revision != SCHEMA_REVISION:
        raise CopyRefused(f"the source is at {revision or 'no revision (empty)'}, this pbm "
                          f"needs {SCHEMA_REVISION}: run `pbm db upgrade` on it first")
    prepare_target(target)
    with _snapshot(source) as reader, target.begin() as writer:
        counts: dict[str, int] = {}
        for table in tables():
            counts[table.name] = _copy_table(reader, writer, table, batch, progress, every)
            if progress is not None:
                progress(f"{table.name}: {counts[table.name]:,} rows")
        if writer.dialect.name == "postgresql":
            if progress is not None:
                progress("moving the id sequences past the copied ids")
            _advance_sequences(writer)
        if progress is not None:
            progress("counting every table again on both sides")
        _check_counts(reader, writer, counts)
        if progress is not None:
            progress("committing the target")
    return counts


def _revision(engine: Engine, which: str) -> str | None:
    """The database's schema revision; refused when it cannot be reached or read."""
    try:
        with engine.connect():
            pass
    except DBAPIError as err:
        raise CopyRefused(f"cannot reach the {which} {where(engine)}: "
                          f"{_first_line(err)}") from None
    try:
        return current_revision(engine)
    except StoreUnavailable as err:
        raise CopyRefused(f"the {which}: {err}") from None


def where(engine: Engine) -> str:
    """The engine's URL for people: its password masked."""
    return masked(engine.url.render_as_string(hide_password=False))


def _first_line(err: DBAPIError) -> str:
    return str(err.orig).strip().splitlines()[0] if str(err.orig).strip() else repr(err.orig)


def refuse_busy_source(source: Engine) -> None:
    """Refuse a source another process has open: what it writes would be lost."""
    if source.dialect.name == "sqlite":
        path = sqlite_file(source.url.render_as_string(hide_password=False))
        if path is not None and _sqlite_open_elsewhere(path):
            raise CopyRefused(f"another process has {path} open (a running `pbm serve` or "
                              "`pbm process`?): stop the server, then copy")
    elif source.dialect.name == "postgresql":
        others = _pg_other_sessions(source)
        if others:
            raise CopyRefused(f"{others} other session(s) use the source {where(source)} "
                              "(a running `pbm serve`?): stop every node, then copy")


def _sqlite_open_elsewhere(path: Path) -> bool:
    # Must run before this process opens the database itself: closing any descriptor of
    # the -shm file drops every POSIX lock this process holds on it, SQLite's own too.
    shm = Path(f"{path}-shm")
    try:
        fd = os.open(shm, os.O_RDWR)
    except FileNotFoundError:
        return False  # no connection has it open in WAL mode
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, _SHM_DMS_BYTE)
    except OSError:
        return True
    else:
        fcntl.lockf(fd, fcntl.LOCK_UN, 1, _SHM_DMS_BYTE)
        return False
    finally:
        os.close(fd)


def _pg_other_sessions(source: Engine) -> int:
    try:
        with source.connect() as conn:
            return int(conn.execute(text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND backend_type = 'client backend'")).scalar_one())
    except OperationalError as err:
        raise CopyRefused(f"cannot reach the source {where(source)}: "
                          f"{_first_line(err)}") from None


def prepare_target(target: Engine) -> None:
    """Migrate an empty target to the schema; refuse one that holds data or is unreachable."""
    revision = _revision(target, "target")
    present = set(inspect(target).get_table_names())
    ours = [t for t in tables() if t.name in present]
    if revision is None and ours:
        raise CopyRefused(f"the target {where(target)} holds tables of its own "
                          f"({', '.join(t.name for t in ours[:3])}...) but no pbm schema "
                          "revision: give an empty database")
    with target.connect() as conn:
        filled = [t.name for t in ours if conn.execute(select(func.count()).select_from(t))
                  .scalar_one()]
    if filled:
        raise CopyRefused(f"the target {where(target)} already holds data (in "
                          f"{', '.join(filled)}): give an empty database")
    try:
        upgrade_known(target, revision)
    except UnknownRevision as err:
        raise CopyRefused(f"the target: {err}") from None


@contextmanager
def _snapshot(source: Engine) -> Iterator[Connection]:
    """One read transaction on the source: every table as of one moment."""
    if source.dialect.name == "postgresql":
        options: dict[str, object] = {"isolation_level": "REPEATABLE READ",
                                      "postgresql_readonly": True}
    else:
        # SQLite in WAL mode: a deferred BEGIN; the snapshot is taken at the first read.
        options = {"pbm_read_only": True}
    with source.connect().execution_options(**options) as conn, conn.begin():
        yield conn


def _copy_table(reader: Connection, writer: Connection, table: Table, batch: int,
                progress: Progress | None = None, every: int = EVERY) -> int:
    """Stream one table's rows over in batches (never the whole table in memory)."""
    query = select(table).order_by(*table.primary_key.columns)
    result = reader.execution_options(stream_results=True, yield_per=batch).execute(query)
    copied = 0
    for rows in result.partitions():
        writer.execute(insert(table), [row._asdict() for row in rows])
        before, copied = copied, copied + len(rows)
        if progress is not None and copied // every > before // every:
            progress(f"{table.name}: {copied:,} rows so far")
    return copied


def _advance_sequences(writer: Connection) -> None:
    """Move each id sequence past the copied ids, so new rows do not collide with them."""
    for table in tables():
        for column in table.primary_key.columns:
            sequence = writer.execute(text("SELECT pg_get_serial_sequence(:t, :c)"),
                                      {"t": table.name, "c": column.name}).scalar()
            if sequence is None:
                continue  # not generated (boards' ids, composite keys)
            writer.execute(text(
                f"SELECT setval(:s, COALESCE((SELECT max({column.name}) FROM {table.name}), 0)"
                " + 1, false)"), {"s": sequence})


def _check_counts(reader: Connection, writer: Connection, counts: dict[str, int]) -> None:
    """Every table's rows counted again on both sides; a difference undoes the copy."""
    for table in tables():
        here = reader.execute(select(func.count()).select_from(table)).scalar_one()
        there = writer.execute(select(func.count()).select_from(table)).scalar_one()
        if not here == there == counts[table.name]:
            raise CopyRefused(f"{table.name}: {here} rows in the source, {there} in the "
                              f"target after copying {counts[table.name]}: nothing was kept")
