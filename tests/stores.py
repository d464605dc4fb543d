"""Where a test's database lives: the one place that decides it.

In the ordinary run a test's database is a SQLite file (the path the test names). With
`pytest --postgresql` it is a fresh database on a throwaway PostgreSQL server (started once
per xdist worker by the session fixture in tests/conftest.py): created from a template that
is already migrated, so a test does not pay for the migrations, and dropped after the test.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, CursorResult, Engine, create_engine, make_url, text

from pbm.db.migrate import upgrade

TEMPLATE = "pbm_migrated"


class PostgresServer:
    """A PostgreSQL server on which each test gets databases of its own."""

    def __init__(self, url: str):
        self.url = url
        # AUTOCOMMIT: CREATE and DROP DATABASE refuse to run inside a transaction.
        self.admin: Engine = create_engine(url, isolation_level="AUTOCOMMIT", pool_size=1)
        self.names = itertools.count(1)
        with self.admin.connect() as conn:
            version = int(conn.execute(text("SHOW server_version_num")).scalar_one())
        # FILE_COPY (PostgreSQL 15's default is WAL_LOG): a small database copies in a
        # third of the time when the server need not log every page of it.
        self.strategy = " STRATEGY FILE_COPY" if version >= 150000 else ""
        self._execute(f"CREATE DATABASE {TEMPLATE}")
        template = create_engine(self.database_url(TEMPLATE))
        upgrade(template)
        template.dispose()  # CREATE DATABASE ... TEMPLATE wants nobody on the template

    def database_url(self, name: str) -> str:
        return make_url(self.url).set(database=name).render_as_string(hide_password=False)

    def create(self, *, migrated: bool = False, like: str | None = None,
               name: str | None = None) -> str:
        """A new database (empty, migrated to head, or a copy of the database at URL `like`);
        its URL."""
        name = name or f"test_{next(self.names)}"
        source = make_url(like).database if like else TEMPLATE if migrated else "template0"
        if like:
            # A copy needs the original to itself: a `pbm` run in-process leaves its pooled
            # connections to the process's exit, which in a test run is far away.
            self._execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          f"WHERE datname = '{source}' AND pid <> pg_backend_pid()")
        self._execute(f"CREATE DATABASE {name} TEMPLATE {source}{self.strategy}")
        return self.database_url(name)

    def drop(self, url: str) -> None:
        # FORCE: a test may leave a pooled connection behind; the database goes all the same.
        self._execute(f"DROP DATABASE IF EXISTS {make_url(url).database} WITH (FORCE)")

    def close(self) -> None:
        self.admin.dispose()

    def _execute(self, statement: str) -> None:
        with self.admin.connect() as conn:
            conn.execute(text(statement))


_server: PostgresServer | None = None
_given: dict[Path, str] = {}  # this test's databases, by the path it named
_lasting: dict[Path, str] = {}  # databases made once for many tests (until the session ends)


def use(server: PostgresServer | None) -> None:
    """Give every test from now on a database on `server` (None: SQLite files)."""
    global _server
    _server = server


def postgresql() -> bool:
    """Whether this run's tests get PostgreSQL databases."""
    return _server is not None


def url(path: Path, *, migrated: bool = False, lasting: bool = False) -> str:
    """The URL of the test's database that `path` names: on SQLite the file itself; on
    PostgreSQL a fresh database, the same one each time the same path is named.
    `migrated`: the caller only wants a migrated database (SQLite files are migrated by
    their callers, which costs a PostgreSQL database nothing when it already is).
    `lasting`: a database made once for many tests (a module's template), kept to the end."""
    if _server is None:
        return f"sqlite:///{path}"
    key = Path(path).absolute()
    found = _lasting.get(key) or _given.get(key)
    if found is None:
        found = _server.create(migrated=migrated)
        (_lasting if lasting else _given)[key] = found
    return found


def copy(source: Path, to: Path, *, lasting: bool = False) -> None:
    """Make the database `to` names a copy of the one `source` names (a template made once
    so that each test need not redo slow work: migrations, password hashes)."""
    if _server is None:
        with _closing(sqlite3.connect(source)) as original, _closing(sqlite3.connect(to)) as new:
            original.backup(new)
        return
    key = Path(to).absolute()
    kept = _lasting if lasting else _given
    name = make_url(kept[key]).database if key in kept else None
    if key in kept:  # named before (its URL is already in use): the copy takes its name
        _server.drop(kept[key])
    kept[key] = _server.create(like=url(source), name=name)


@contextmanager
def _closing(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    try:
        yield connection
    finally:
        connection.close()


class Sql:
    """Plain SQL on a test's database, in one transaction."""

    def __init__(self, connection: Connection):
        self.connection = connection

    def execute(self, statement: str,
                parameters: dict[str, Any] | tuple[Any, ...] | None = None) -> CursorResult[Any]:
        """Run `statement`; its parameters by name, or a tuple for its ?s in order."""
        if isinstance(parameters, tuple):
            parts = statement.split("?")
            statement = "".join(f"{part}:p{i}" for i, part in enumerate(parts[:-1])) + parts[-1]
            parameters = {f"p{i}": value for i, value in enumerate(parameters)}
        return self.connection.execute(text(statement), parameters or {})


@contextmanager
def sql(path: Path) -> Iterator[Sql]:
    """Look at (or change) the database `path` names behind pbm's back, committed at the end."""
    engine = create_engine(url(path))
    try:
        with engine.begin() as connection:
            yield Sql(connection)
    finally:
        engine.dispose()


def drop_all() -> None:
    """Drop the databases this test was given (at its end)."""
    if _server is not None:
        for given in _given.values():
            _server.drop(given)
    _given.clear()
