"""Engine and sessions on SQLite or PostgreSQL (what differs between them: pbm/db/engines.py)."""

from __future__ import annotations

import logging
from pathlib import Path

from sqlalchemy import Engine, create_engine, make_url, text
from sqlalchemy.exc import DatabaseError, ProgrammingError
from sqlalchemy.orm import Session, sessionmaker

from pbm.config import masked
from pbm.db import SCHEMA_REVISION, engines

log = logging.getLogger(__name__)


class SchemaNotCurrent(Exception):
    """The database is missing or not migrated to the revision this code needs."""


class StoreUnavailable(Exception):
    """The database exists but cannot be read now (locked, unreadable): try again later."""


class StoreMissing(Exception):
    """There is no database where the settings point (and this command may not create one)."""


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names; None for an in-memory or non-SQLite database."""
    parsed = make_url(url)
    if not parsed.get_backend_name() == "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def make_engine(url: str, *, create: bool = True) -> Engine:
    """An engine on `url`. With create=False a SQLite file that does not exist yet raises
    StoreMissing instead of being created empty (SQLite creates any file it opens)."""
    path = sqlite_file(url)
    if path is not None:
        if not create and not path.exists():
            raise StoreMissing(f"no database at {path.absolute()}: `pbm db upgrade` creates it "
                               "(check database_url and the folder pbm runs in)")
        if create:
            # A fresh install names a file in a folder that may not exist yet.
            path.parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url)
    engines.prepare(engine)
    log.debug("database %s (%s)", masked(url),
              f"SQLite file {path.absolute()}" if path is not None else engine.dialect.name)
    return engine


def tuned(engine: Engine, *, read_only: bool = False, lazy_commit: bool = False) -> Engine:
    """`engine` for reads that never take SQLite's write lock, or for writes whose commits
    need not survive a power loss (engines.LAZY_COMMIT says when that is right)."""
    options = {"pbm_read_only": True} if read_only else {}
    if lazy_commit:
        options[engines.LAZY_COMMIT] = True
    return engine.execution_options(**options) if options else engine


def session_factory(engine: Engine, *, read_only: bool = False) -> sessionmaker[Session]:
    """Sessions on `engine`; read-only ones never take SQLite's write lock."""
    return sessionmaker(tuned(engine, read_only=read_only), expire_on_commit=False)


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
    except DatabaseError as err:
        if "no such table" in str(err.orig):
            return None
        raise StoreUnavailable(why_unusable(engine, err)) from None


def why_unusable(engine: Engine, err: DatabaseError) -> str:
    """What an operator needs to hear about a database error that is not the mail's fault."""
    return engines.unusable(engine, str(err.orig))


def check_current(engine: Engine) -> None:
    """Refuse to work on a database that is not at the code's schema revision."""
    revision = current_revision(engine)
    if revision != SCHEMA_REVISION:
        found = revision or "an empty database"
        raise SchemaNotCurrent(
            f"the database is at {found}, this pbm needs revision {SCHEMA_REVISION}: "
            "run `pbm db upgrade`"
        )
