"""Engine and sessions: SQLite tuned for a mail server (WAL, foreign keys, busy timeout)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import OperationalError, ProgrammingError
from sqlalchemy.orm import Session, sessionmaker

from pbm.db import SCHEMA_REVISION
from pbm.files import secure_database


class SchemaNotCurrent(Exception):
    """The database is missing or not migrated to the revision this code needs."""


class StoreUnavailable(Exception):
    """The database exists but cannot be read now (locked, unreadable): try again later."""


def make_engine(url: str) -> Engine:
    engine = create_engine(url)
    database = engine.url.database
    if engine.dialect.name == "sqlite" and database and database != ":memory:":
        # A fresh install names a file in a folder that may not exist yet.
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _begin)
    return engine


def _begin(conn) -> None:
    # pysqlite's own transaction handling defers BEGIN; we issue it ourselves so that a
    # transaction that will write takes the lock at its start (no upgrade deadlocks).
    # Readers (a courier looking for due mail, listings) take no lock at all.
    if conn.get_execution_options().get("pbm_read_only"):
        conn.exec_driver_sql("BEGIN")
    else:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    dbapi_connection.isolation_level = None  # let the "begin" listener issue BEGIN
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    # FULL: a mail is acknowledged with 250 only after its commit, so the commit must
    # survive a power loss too (NORMAL in WAL mode could drop the last transactions).
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=10000")
    # It holds players' mail with their passwords: the file, its WAL and SHM, owner only.
    files = [row[2] for row in cursor.execute("PRAGMA database_list") if row[1] == "main"]
    cursor.close()
    if files and files[0]:
        secure_database(files[0])


def session_factory(engine: Engine, *, read_only: bool = False) -> sessionmaker[Session]:
    """Sessions on `engine`; read-only ones never take SQLite's write lock."""
    bind = engine.execution_options(pbm_read_only=True) if read_only else engine
    return sessionmaker(bind, expire_on_commit=False)


def current_revision(engine: Engine) -> str | None:
    """The database's Alembic revision, or None for an empty database.

    A database that cannot be read (locked, unreadable) is not an empty one: that raises
    StoreUnavailable, so nobody is told to migrate a database that only needs a moment."""
    try:
        # A read: it must not wait for (nor take) the write lock a busy server holds.
        with engine.execution_options(pbm_read_only=True).connect() as conn:
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except ProgrammingError:  # PostgreSQL: the table does not exist
        return None
    except OperationalError as err:
        if "no such table" in str(err.orig):
            return None
        raise StoreUnavailable(f"cannot read the database {engine.url.database or engine.url}: "
                               f"{err.orig}") from None


def check_current(engine: Engine) -> None:
    """Refuse to work on a database that is not at the code's schema revision."""
    revision = current_revision(engine)
    if revision != SCHEMA_REVISION:
        found = revision or "an empty database"
        raise SchemaNotCurrent(
            f"the database is at {found}, this pbm needs revision {SCHEMA_REVISION}: "
            "run `pbm db upgrade`"
        )
