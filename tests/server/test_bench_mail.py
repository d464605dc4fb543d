"""`pbm bench mail`: on PostgreSQL, real nodes on a scratch database, dropped afterwards; on
SQLite, the servers' CPU, SQL statements and fsyncs per move, and the durable floor's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, text

from pbm.bench import fsyncs
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


def test_on_sqlite_the_servers_cpu_statements_and_fsyncs_per_move_are_counted():
    """The server's own CPU time (from /proc), the SQL its writer executes and the fsyncs it
    makes, next to the durable floor's, in the same run (`--json` carries them all)."""
    result = CliRunner().invoke(main, ["bench", "mail", "--boards", "2", "--moves", "6",
                                       "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)  # the figures alone: the steps go to standard error
    steps = result.stderr.splitlines()
    assert steps[0] == "mail: starting 1 pbm serve node(s) on SQLite under strace", steps
    assert "mail: sending 12 moves over 1 connection(s)" in steps
    assert any(step.startswith("mail: delivered after ") for step in steps), steps
    assert steps[-1] == "mail: the do-nothing aiosmtpd, the same moves"
    assert figures["database"] == "sqlite" and figures["mails_delivered_twice"] == 0
    assert figures["moves"] == 12 and figures["server_cpu_ms_per_move"] > 0
    assert figures["durable_floor_mails_per_second"] > 0 and figures["durable_floor_ratio"] > 0
    assert figures["ratio_to_null_aiosmtpd"] > 0
    # Every move is at least a BEGIN and an insert of the mail; the courier and the readers
    # only add to what the writer executes.
    assert figures["sql_statements_per_move"] >= 2
    assert figures["sql_statements_per_move_all_threads"] >= figures["sql_statements_per_move"]
    assert figures["fsyncs_counted_by"] == "strace"  # .ci/run installs it
    # The commit, and the Maildir's files and folder (which the courier may share).
    assert figures["fsyncs_per_move"] >= 2
    assert figures["durable_floor_fsyncs_per_move"] >= 4  # the floor's four by design
    # Board mails carry a text and an HTML part; their mean size is what the floor writes.
    assert figures["board_mail_bytes"] > 1_000


def test_without_strace_fsyncs_show_as_n_a_and_the_reason_is_given(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # a folder without strace in it
    result = CliRunner().invoke(main, ["bench", "mail", "--boards", "1", "--moves", "2"])
    assert result.exit_code == 0, result.output
    lines = {line.split()[0]: line.split(None, 1)[1] for line in result.stdout.splitlines()}
    assert result.stderr.startswith("mail: starting 1 pbm serve node(s) on SQLite\n")
    assert lines["fsyncs_per_move"] == lines["durable_floor_fsyncs_per_move"] == "n/a"
    assert lines["fsyncs_counted_by"] == "n/a: strace is not installed (apt-get install strace)"
    assert float(lines["sql_statements_per_move"]) > 0  # counted inside the server, as ever


def test_fsyncs_are_counted_from_stracing_a_real_process_within_a_window(tmp_path):
    """Three fsyncs and an fdatasync, then a pause, then one more: the window before the
    pause holds four."""
    log, data = tmp_path / "strace.log", tmp_path / "data"
    program = ("import os, sys, time\n"
               f"fd = os.open({str(data)!r}, os.O_WRONLY | os.O_CREAT)\n"
               "for _ in range(3): os.fsync(fd)\n"
               "os.fdatasync(fd)\n"
               "print(time.time(), flush=True)\n"
               "time.sleep(0.3)\n"
               "os.fsync(fd)\n")
    started = time.time()
    done = subprocess.run([*fsyncs.prefix(log), sys.executable, "-c", program],
                          capture_output=True, text=True, check=True)
    paused = float(done.stdout)
    assert fsyncs.counted(log, started, paused) == 4
    assert fsyncs.counted(log, started, time.time()) == 5


def test_cpu_seconds_grow_with_the_work_a_process_does():
    before = cpu_seconds(os.getpid())
    sum(i * i for i in range(2_000_000))  # some CPU of this process's own
    after = cpu_seconds(os.getpid())
    assert before is not None and after is not None and after > before
    assert cpu_seconds(2**22 + 12345) is None  # no such process: no figure, no crash
