"""`pbm bench mail`: on PostgreSQL, real nodes on a scratch database, dropped afterwards; on
SQLite, the servers' CPU per move."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, text

from pbm.bench.mail import cpu_seconds, run
from pbm.cli import main
from tests import pgcluster


@pytest.fixture(scope="module")
def pg_server() -> Iterator[str]:
    if pgcluster.programs() is None:
        pytest.skip("PostgreSQL is not installed here (apt-get install postgresql)")
    with pgcluster.running("pbm-bench-pg-") as url:
        yield url


def databases(server: str) -> set[str]:
    engine = create_engine(server)
    with engine.connect() as conn:
        names = set(conn.execute(text("SELECT datname FROM pg_database")).scalars())
    engine.dispose()
    return names


def test_one_node_on_postgresql_delivers_every_board_mail_once(pg_server: str):
    before = databases(pg_server)
    figures = run(boards=2, moves_per_board=6, connections=2, database=pg_server)
    assert figures["database"] == "postgresql" and figures["nodes"] == 1
    assert figures["moves"] == 12 and figures["mails_delivered_twice"] == 0
    assert 0 < figures["ratio_to_null_aiosmtpd"] < 1
    assert databases(pg_server) == before  # the scratch database is gone


def test_several_nodes_need_postgresql():
    result = CliRunner().invoke(main, ["bench", "mail", "--nodes", "2"])
    assert result.exit_code == 2
    assert "several nodes share a PostgreSQL database: give --database" in result.output


def test_the_database_must_be_postgresql():
    result = CliRunner().invoke(main, ["bench", "mail", "--database", "sqlite:///x.sqlite"])
    assert result.exit_code == 2 and "PostgreSQL server's URL" in result.output


def test_on_sqlite_the_servers_cpu_per_move_is_counted():
    """The server's own CPU time (from /proc), the figure issue 23 sets a target on."""
    figures = run(boards=2, moves_per_board=6)
    assert figures["database"] == "sqlite" and figures["mails_delivered_twice"] == 0
    assert figures["server_cpu_ms_per_move"] > 0


def test_cpu_seconds_grow_with_the_work_a_process_does():
    before = cpu_seconds(os.getpid())
    sum(i * i for i in range(2_000_000))  # some CPU of this process's own
    after = cpu_seconds(os.getpid())
    assert before is not None and after is not None and after > before
    assert cpu_seconds(2**22 + 12345) is None  # no such process: no figure, no crash
