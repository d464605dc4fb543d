"""A lazy commit (pbm/db/engines.py) waits for no disk, and only in its own transaction: the
pooled connection it used commits durably again for the next transaction, the writer's."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Connection, text

from pbm.db.migrate import upgrade
from pbm.db.session import make_engine, tuned
from tests import stores


def _durability(conn: Connection) -> str:
    """How the transaction `conn` is in will commit: SQLite's synchronous setting (FULL,
    NORMAL), PostgreSQL's synchronous_commit (on, off)."""
    if conn.dialect.name == "sqlite":
        level = conn.execute(text("PRAGMA synchronous")).scalar_one()
        return {1: "NORMAL", 2: "FULL"}[level]
    return str(conn.execute(text("SHOW synchronous_commit")).scalar_one())


def test_a_lazy_commit_is_lazy_in_its_own_transaction_only(tmp_path: Path):
    engine = make_engine(stores.url(tmp_path / "pbm.sqlite", migrated=True))
    upgrade(engine)
    lazy = tuned(engine, lazy_commit=True)
    sqlite = engine.dialect.name == "sqlite"
    durable, not_durable = ("FULL", "NORMAL") if sqlite else ("on", "off")
    with engine.begin() as conn:
        if not sqlite:  # the tests' cluster is set to off, for speed: on, for this connection
            conn.execute(text("SET synchronous_commit TO on"))
        assert _durability(conn) == durable
        first = conn.connection.dbapi_connection
    with lazy.begin() as conn:
        assert _durability(conn) == not_durable
        conn.execute(text("UPDATE rate_counters SET count = count + 1"))
        assert conn.connection.dbapi_connection is first  # the pool hands the same one round
    for _ in range(2):
        with engine.begin() as conn:
            assert conn.connection.dbapi_connection is first
            assert _durability(conn) == durable
    # A lazy transaction that failed leaves no lazy connection behind either.
    try:
        with lazy.begin() as conn:
            conn.execute(text("SELECT no_such_column FROM rate_counters"))
    except Exception:  # the failure is the point
        pass
    with engine.begin() as conn:
        assert _durability(conn) == durable
    engine.dispose()
