"""Schema migrations through Alembic, with the scripts shipped as package data."""

from __future__ import annotations

from importlib.resources import files

from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import Connection, Engine

from pbm.db import locks
from pbm.db.locks import Guarded


def alembic_config() -> AlembicConfig:
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(files("pbm.migrations")))
    return cfg


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None, "pbm ships its migrations: there is always a head"
    return head


class MigrationBrokeReferences(RuntimeError):
    """After a migration some rows point at rows that do not exist (nothing was kept)."""


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to `revision` (creating it if it is empty)."""
    cfg = alembic_config()
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as connection:
        if sqlite:
            # Batch mode rebuilds a SQLite table by copy, drop and rename; with foreign keys
            # on, the drop would cascade to every row pointing at it (a board's seats and
            # moves). The pragma only works outside a transaction, so it is set on the
            # driver's connection; the references are checked before the commit instead.
            _pragma(connection, "PRAGMA foreign_keys=OFF")
        try:
            with connection.begin():
                # Nodes starting together: one migrates, the others then find it done.
                locks.hold(connection, Guarded.MIGRATION)
                cfg.attributes["connection"] = connection
                command.upgrade(cfg, revision)
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                    if broken:
                        raise MigrationBrokeReferences(f"rows with broken references: {broken[:5]}")
        finally:
            if sqlite:
                _pragma(connection, "PRAGMA foreign_keys=ON")


def _pragma(connection: Connection, statement: str) -> None:
    driver = connection.connection.driver_connection
    assert driver is not None
    driver.execute(statement)


class UnknownRevision(Exception):
    """The database is at a revision this pbm does not ship: a newer pbm migrated it."""


def upgrade_known(engine: Engine, revision: str | None) -> None:
    """Migrate a database found at `revision` (None: empty) to head; refuse one at a revision
    this pbm does not know, rather than let Alembic fail halfway."""
    if revision is not None and not _known(revision):
        raise UnknownRevision(f"the database is at revision {revision}, which this pbm does not "
                              f"know (it needs {head_revision()}): was it upgraded by a newer pbm?")
    upgrade(engine)


def _known(revision: str) -> bool:
    try:
        return ScriptDirectory.from_config(alembic_config()).get_revision(revision) is not None
    except CommandError:
        return False
