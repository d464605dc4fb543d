"""A lazy commit (pbm/db/engines.py) waits for no disk, and only in its own transaction: the
pooled connection it used commits durably again for the next session, the writer's."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text
from sqlalchemy.orm import Session

from pbm.db.migrate import upgrade
from pbm.db.session import make_engine, session_factory
from tests import stores


def _durability(session: Session) -> str:
    """How the transaction `session` is in will commit: SQLite's synchronous setting (FULL,
    NORMAL), PostgreSQL's synchronous_commit (on, off)."""
    if session.get_bind().dialect.name == "sqlite":
        level = session.execute(text("PRAGMA synchronous")).scalar_one()
        return {1: "NORMAL", 2: "FULL"}[level]
    return str(session.execute(text("SHOW synchronous_commit")).scalar_one())


def _connection(session: Session) -> object:
    return session.connection().connection.dbapi_connection


def test_a_lazy_commit_is_lazy_in_its_own_transaction_only(tmp_path: Path):
    engine = make_engine(stores.url(tmp_path / "pbm.sqlite", migrated=True))
    upgrade(engine)
    durable, lazy = session_factory(engine), session_factory(engine, lazy_commit=True)
    sqlite = engine.dialect.name == "sqlite"
    with durable() as session, session.begin():
        if not sqlite:  # the tests' cluster is set to off, for speed: on, for this connection
            session.execute(text("SET synchronous_commit TO on"))
        assert _durability(session) == ("FULL" if sqlite else "on")
        first = _connection(session)
    with lazy() as session, session.begin():
        assert _durability(session) == ("NORMAL" if sqlite else "off")
        session.execute(text("UPDATE rate_counters SET count = count + 1"))
        assert _connection(session) is first  # the pool hands the same connection round
    for _ in range(2):
        with durable() as session, session.begin():
            assert _connection(session) is first
            assert _durability(session) == ("FULL" if sqlite else "on")
    # A lazy session that failed leaves no lazy connection behind either.
    try:
        with lazy() as session, session.begin():
            session.execute(text("SELECT no_such_column FROM rate_counters"))
    except Exception:  # noqa: BLE001 - the failure is the point
        pass
    with durable() as session, session.begin():
        assert _durability(session) == ("FULL" if sqlite else "on")
    engine.dispose()
