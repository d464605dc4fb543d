"""Engine and sessions: SQLite tuned for a mail server (WAL, foreign keys, busy timeout)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import OperationalError, ProgrammingError
from sqlalchemy.orm import Session, sessionmaker

from pbm.db import SCHEMA_REVISION


class SchemaNotCurrent(Exception):
    """The database is missing or not migrated to the revision this code needs."""


def make_engine(url: str) -> Engine:
    engine = create_engine(url)
    database = engine.url.database
    if engine.dialect.name == "sqlite" and database and database != ":memory:":
        # A fresh install names a file in a folder that may not exist yet.
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
        # pysqlite's own transaction handling defers BEGIN; we issue it ourselves so that
        # a transaction that will write takes the lock at its start (no upgrade deadlocks).
        event.listen(engine, "begin", lambda conn: conn.exec_driver_sql("BEGIN IMMEDIATE"))
    return engine


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    dbapi_connection.isolation_level = None  # let the "begin" listener issue BEGIN
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    # FULL: a mail is acknowledged with 250 only after its commit, so the commit must
    # survive a power loss too (NORMAL in WAL mode could drop the last transactions).
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


def current_revision(engine: Engine) -> str | None:
    """The database's Alembic revision, or None for an empty database."""
    try:
        with engine.connect() as conn:
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except (OperationalError, ProgrammingError):
        return None


def check_current(engine: Engine) -> None:
    """Refuse to work on a database that is not at the code's schema revision."""
    revision = current_revision(engine)
    if revision != SCHEMA_REVISION:
        found = revision or "an empty database"
        raise SchemaNotCurrent(
            f"the database is at {found}, this pbm needs revision {SCHEMA_REVISION}: "
            "run `pbm db upgrade`"
        )
