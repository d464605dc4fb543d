"""`pbm bench mail` on PostgreSQL: real nodes on a scratch database, dropped afterwards."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, text

from pbm.bench.mail import run
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
