"""Migrations against the models: an empty database upgraded to head is what the models say."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from click.testing import CliRunner
from sqlalchemy import event, inspect, text

from pbm import db
from pbm.cli import main
from pbm.db.migrate import head_revision, upgrade
from pbm.db.models import Base
from pbm.db.session import SchemaNotCurrent, check_current, current_revision, make_engine
from tests import stores


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in list(os.environ):
        if name.startswith("PBM_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def url(tmp_path: Path) -> str:
    """An empty database (a SQLite file not made yet, or an empty PostgreSQL database)."""
    return stores.url(tmp_path / "pbm.sqlite")


def test_upgrade_of_an_empty_database_matches_the_models(url: str):
    engine = make_engine(url)
    upgrade(engine)
    with engine.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"compare_type": True, "compare_server_default": True}
        )
        diff = compare_metadata(context, Base.metadata)
    assert diff == []
    tables = set(inspect(engine).get_table_names())
    assert set(Base.metadata.tables) <= tables
    assert "alembic_version" in tables


def test_the_comparison_would_see_drift(url: str):
    """The no-drift test can fail: a table the models lack shows up in the diff."""
    engine = make_engine(url)
    upgrade(engine)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE stray (id INTEGER PRIMARY KEY)"))
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert [entry[0] for entry in diff] == ["remove_table"]


def test_schema_revision_is_the_migration_head():
    assert db.SCHEMA_REVISION == head_revision()


def test_upgrade_records_the_head_revision_and_is_idempotent(url: str):
    engine = make_engine(url)
    assert current_revision(engine) is None
    upgrade(engine)
    assert current_revision(engine) == head_revision()
    upgrade(engine)  # a second upgrade is a no-op, not an error
    assert current_revision(engine) == head_revision()


@pytest.mark.sqlite_only("SQLite's PRAGMAs")
def test_sqlite_connections_use_wal_and_foreign_keys(url: str):
    engine = make_engine(url)
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar().lower() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() > 0


def test_foreign_keys_are_enforced(url: str):
    engine = make_engine(url)
    upgrade(engine)
    from sqlalchemy.exc import IntegrityError

    with pytest.raises(IntegrityError):
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO addresses (user_id, position, address) "
                              "VALUES (999, 0, 'ghost@example.org')"))


def test_check_current_refuses_an_empty_database_and_passes_after_upgrade(url: str):
    engine = make_engine(url)
    with pytest.raises(SchemaNotCurrent) as caught:
        check_current(engine)
    assert "pbm db upgrade" in str(caught.value)
    upgrade(engine)
    check_current(engine)


def test_check_current_refuses_another_revision(url: str):
    engine = make_engine(url)
    upgrade(engine)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = 'ffff'"))
    with pytest.raises(SchemaNotCurrent) as caught:
        check_current(engine)
    assert "ffff" in str(caught.value)


def test_cli_db_upgrade_and_current(tmp_path: Path, url: str):
    runner = CliRunner()
    env = {"PBM_DATABASE_URL": url}
    if not stores.postgresql():  # a PostgreSQL database is made by its administrator
        missing = runner.invoke(main, ["db", "current"], env=env)
        assert missing.exit_code == 2
        assert f"no database at {tmp_path / 'pbm.sqlite'}" in missing.stderr
        assert not (tmp_path / "pbm.sqlite").exists()
        (tmp_path / "pbm.sqlite").touch()  # an empty file is an empty database
    before = runner.invoke(main, ["db", "current"], env=env)
    assert before.exit_code == 0, before.output
    assert before.output.startswith("empty")
    assert f"needs {db.SCHEMA_REVISION}" in before.output

    result = runner.invoke(main, ["db", "upgrade"], env=env)
    assert result.exit_code == 0, result.output
    assert "upgraded from empty" in result.output
    assert head_revision() in result.output
    assert (tmp_path / "pbm.sqlite").is_file() != stores.postgresql()

    again = runner.invoke(main, ["db", "upgrade"], env=env)
    assert again.exit_code == 0
    assert "newest" in again.output

    after = runner.invoke(main, ["db", "current"], env=env)
    assert after.exit_code == 0
    assert after.output.strip() == f"{head_revision()} (newest)"
    check_current(make_engine(url))


def test_cli_db_upgrade_through_a_config_file(tmp_path: Path):
    folder = tmp_path / "srv"
    folder.mkdir()
    config = folder / "pbm.toml"
    config.write_text('[database]\nurl = "sqlite:///state/games.sqlite"\n', encoding="utf-8")
    (folder / "state").mkdir()
    result = CliRunner().invoke(main, ["--config", str(config), "db", "upgrade"])
    assert result.exit_code == 0, result.output
    created = folder / "state" / "games.sqlite"
    assert created.is_file()  # relative to the config file, not the working folder
    assert str(created.resolve()) in result.output
    assert current_revision(make_engine(f"sqlite:///{created}")) == head_revision()


def test_upgrade_from_0001_keeps_the_data_and_fills_the_new_columns(url: str):
    engine = make_engine(url)
    upgrade(engine, "0001")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO users (userid, password_hash, created_at, active) "
                          "VALUES ('alice', 'h', '2026-01-01', TRUE)"))
        conn.execute(text("INSERT INTO outbox (recipient, subject, raw, status, attempts, "
                          "next_attempt_at, created_at) VALUES ('a@x.org', 's', :raw, "
                          "'pending', 0, '2026-01-01', '2026-01-01')"), {"raw": b"A"})
    upgrade(engine)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT userid, wrong_passwords, password_paused_until "
                                 "FROM users")).one() == ("alice", 0, None)
        assert conn.execute(text("SELECT status, maybe_sent, claimed_by FROM outbox")).one() \
            == ("pending", False, None)


@pytest.mark.sqlite_only("an older schema's rows in SQLite's types (integers for booleans, "
                        "JSON read back as text)")
def test_upgrade_to_0003_starts_the_clocks_of_games_in_progress(url: str):
    """A board in progress when the clock arrives: its player to move waits from the last
    move, the other does not wait, and housekeeping nags 7 days after that move."""
    import json
    from datetime import datetime, timedelta

    from pbm.config import Config
    from pbm.db.session import session_factory
    from pbm.games import registry
    from pbm.mail.housekeeping import tick

    trou = registry.get("trou")
    state = trou.start({}, 101)
    state = trou.play(state, 0, trou.parse(state, 0, "1B2"))  # Red moved: Black to move
    last_move = datetime(2026, 11, 20, 9, 30)
    engine = make_engine(url)
    upgrade(engine, "0002")
    with engine.begin() as conn:
        for userid in ("alice", "bob"):
            conn.execute(text("INSERT INTO users (userid, password_hash, created_at, active) "
                              "VALUES (:u, 'h', '2026-01-01', 1)"), {"u": userid})
            conn.execute(text("INSERT INTO addresses (user_id, position, address) SELECT id, 0,"
                              " userid || '@example.org' FROM users WHERE userid = :u"),
                         {"u": userid})
        conn.execute(text(
            "INSERT INTO boards (id, game, rules_version, options, seed, status, state, "
            "move_count, challenger, created_at, updated_at) VALUES (101, 'trou', :v, '{}', "
            "101, 'active', :state, 1, 'operator', '2026-11-19', :last)"),
            {"v": trou.info.rules_version, "state": json.dumps(trou.encode(state)),
             "last": last_move})
        conn.execute(text("INSERT INTO seats (board_id, position, user_id, resign_queued) "
                          "SELECT 101, id - 1, id, 0 FROM users"))
        conn.execute(text("INSERT INTO moves (board_id, number, seat, notation, shown, "
                          "created_at) VALUES (101, 1, 0, '1B2', '{}', :last)"),
                     {"last": last_move})
        # A game bob won before ratings existed: rated by the upgrade.
        conn.execute(text(
            "INSERT INTO boards (id, game, rules_version, options, seed, status, state, "
            "move_count, winners, result_reason, challenger, created_at, updated_at, "
            "finished_at) VALUES (100, 'trou', 1, '{}', 100, 'finished', '{}', 0, '[1]', "
            "'alice resigned.', 'operator', '2026-11-01', '2026-11-02', '2026-11-02')"))
        conn.execute(text("INSERT INTO seats (board_id, position, user_id, resign_queued) "
                          "SELECT 100, id - 1, id, 0 FROM users"))
    upgrade(engine)
    with engine.connect() as conn:
        clocks = conn.execute(text("SELECT position, waiting_since, nags FROM seats "
                                   "ORDER BY board_id DESC, position")).all()
        # Rebuilding a table must not cascade to the rows pointing at it.
        assert conn.execute(text("SELECT count(*) FROM moves")).scalar() == 1
        assert conn.execute(text("SELECT count(*) FROM addresses")).scalar() == 2
        assert conn.execute(text("SELECT rating_seq, rating_changes FROM boards WHERE id = 100")
                            ).one() == (1, "[[1600, 1424, 0], [1600, 1824, 0]]")
        assert conn.execute(text("SELECT user_id, rating, won, lost FROM ratings ORDER BY "
                                 "user_id")).all() == [(1, 1424, 0, 1), (2, 1824, 1, 0)]
    assert [(p, w and str(w)[:16], n) for p, w, n in clocks] == [
        (0, None, 0), (1, "2026-11-20 09:30", 0), (0, None, 0), (1, None, 0)]
    factory = session_factory(engine)
    assert tick(factory, Config(), last_move + timedelta(days=6, hours=23))[0].replies == []
    nag = tick(factory, Config(), last_move + timedelta(days=7))[0]
    assert nag.nagged == [("Trou", "101", "bob")]  # the board by its name


def test_upgrade_to_0004_keeps_every_board_number(url: str):
    """Boards made when numbers ran across games keep their numbers; new ones count on
    from the highest of their own game."""
    engine = make_engine(url)
    upgrade(engine, "0003")
    with engine.begin() as conn:
        for number, game in ((101, "trou"), (102, "loophole"), (103, "trou")):
            conn.execute(text(
                "INSERT INTO boards (id, game, rules_version, options, seed, status, state, "
                "move_count, challenger, created_at, updated_at) VALUES (:n, :g, 1, '{}', :n, "
                "'active', '{}', 0, 'operator', '2026-11-19', '2026-11-19')"),
                {"n": number, "g": game})
    upgrade(engine)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT id, game, number FROM boards ORDER BY id")).all() == [
            (101, "trou", 101), (102, "loophole", 102), (103, "trou", 103)]


@pytest.mark.sqlite_only("SQLite's exclusive lock")
def test_a_locked_database_is_not_called_empty(tmp_path: Path, url: str):
    """A database another process holds locked must not read as 'empty: run pbm db upgrade'."""
    import sqlite3

    from pbm.db.session import StoreUnavailable

    setup = make_engine(url)
    upgrade(setup)
    setup.dispose()
    holder = sqlite3.connect(tmp_path / "pbm.sqlite", isolation_level=None)
    holder.execute("PRAGMA journal_mode=DELETE")  # the lock WAL readers cannot get past
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("UPDATE alembic_version SET version_num = version_num")
    try:
        engine = make_engine(url)
        # Wait briefly, not the server's 10 s, for the lock before giving up.
        event.listen(engine, "connect",
                     lambda dbapi, _rec: dbapi.execute("PRAGMA busy_timeout=50"), insert=True)
        with pytest.raises(StoreUnavailable, match="locked"):
            current_revision(engine)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
