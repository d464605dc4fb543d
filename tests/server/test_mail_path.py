"""The rest of the mail path: LMTP, a real relay with retries, `pbm process`, failed mail."""

from __future__ import annotations

import smtplib
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from tests import stores
from tests.server.harness import SERVER_ADDRESS, PbmServer, by_recipient, mail

ALICE = "alice@players.test"
BOB = "bob@players.test"

pytestmark = pytest.mark.server


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class FlakyRelay:
    """An SMTP relay that answers 451 to the first `failures` deliveries, then accepts."""

    def __init__(self, failures: int):
        self.failures = failures
        self.attempts = 0
        self.delivered: list[tuple[list[str], bytes]] = []

    async def handle_DATA(self, server, session, envelope):
        self.attempts += 1
        if self.attempts <= self.failures:
            return "451 4.3.0 busy, try later"
        self.delivered.append((list(envelope.rcpt_tos), envelope.original_content))
        return "250 OK"


def test_lmtp_front_door(tmp_path: Path):
    pbm = PbmServer(tmp_path)
    pbm.write_config()
    text = pbm.config_file.read_text().replace('port = 0\n', 'port = 0\nprotocol = "lmtp"\n')
    pbm.config_file.write_text(text)
    pbm.start()
    try:
        assert "(LMTP)" in pbm.log.read_text()
        # RFC 2033: after DATA, one reply per accepted recipient. (smtplib's LMTP.sendmail
        # reads only the first, so the exchange is spelled out.)
        with smtplib.LMTP("127.0.0.1", pbm.port) as lmtp:
            assert lmtp.ehlo()[0] == 250  # sends LHLO
            assert lmtp.mail(ALICE)[0] == 250
            assert lmtp.rcpt(SERVER_ADDRESS)[0] == 250
            assert lmtp.rcpt("games@games.test")[0] == 250
            first = lmtp.data(mail(ALICE, "signup alice secret"))
            second = lmtp.getreply()
        assert first[0] == 250 and second[0] == 250
        (welcome,) = pbm.collect(1)
        assert welcome.subject == "Welcome to pbm, alice"
    finally:
        pbm.stop()


def test_relay_delivery_retries_after_4xx(tmp_path: Path):
    relay = FlakyRelay(failures=2)
    port = free_port()
    controller = Controller(relay, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        pbm = PbmServer(tmp_path)
        pbm.write_config()
        text = pbm.config_file.read_text().replace(
            'maildir = "maildir"\n',
            f'maildir = "maildir"\nrelay = "smtp://127.0.0.1:{port}"\nretry_seconds = 1\n',
        )
        pbm.config_file.write_text(text)
        pbm.start()
        try:
            pbm.send(ALICE, "signup alice secret")
            deadline = time.monotonic() + 30
            while not relay.delivered and time.monotonic() < deadline:
                time.sleep(0.1)
            assert relay.attempts == 3
            (recipients, raw) = relay.delivered[0]
            assert recipients == [ALICE]
            assert b"Subject: Welcome to pbm, alice" in raw
            assert not pbm.maildir.exists()  # with a relay, nothing goes to the Maildir
            # The relay has the mail; the server records that right after.
            while time.monotonic() < deadline:
                with stores.sql(pbm.database) as db:
                    row = db.execute("select status, attempts from outbox").fetchone()
                if row[0] not in ("pending", "sending"):  # sending: being handed over
                    break
                time.sleep(0.1)
            assert row == ("sent", 3)
        finally:
            pbm.stop()
    finally:
        controller.stop()


def _process(folder: Path, raw: bytes, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pbm", "--config", str(folder / "pbm.toml"), "process", *extra],
        input=raw, capture_output=True, cwd=folder, timeout=60,
    )


def test_pbm_process_from_a_pipe(tmp_path: Path):
    pbm = PbmServer(tmp_path)
    pbm.write_config()
    # The first mail of a new install creates the database.
    first = mail(ALICE, "signup alice secret")
    assert not pbm.database.exists()
    result = _process(tmp_path, first, "--sender", ALICE)
    assert result.returncode == 0, result.stderr
    (welcome,) = pbm.collect(1)  # delivered by `pbm process` itself
    assert welcome.to == ALICE and welcome.subject == "Welcome to pbm, alice"

    again = _process(tmp_path, first)  # the MTA delivers the same mail twice
    assert again.returncode == 0
    pbm.collect(0)

    huge = mail(BOB, "signup bob hunter2", "x" * 1_100_000)
    result = _process(tmp_path, huge)
    assert result.returncode == 65
    assert b"larger than 1048576 bytes" in result.stderr
    with stores.sql(pbm.database) as db:
        assert db.execute("select count(*) from inbound_messages").fetchone()[0] == 1

    # A bounce: Postfix hands over the null sender as an empty ${sender}. Stored, unanswered.
    bounce = _process(tmp_path, mail(BOB, "signup bob hunter2"), "--sender", "")
    assert bounce.returncode == 0, bounce.stderr
    pbm.collect(0)
    with stores.sql(pbm.database) as db:
        rows = db.execute("select envelope_from, status from inbound_messages").fetchall()
    assert rows[-1] == ("<>", "ignored")


@pytest.mark.sqlite_only("SQLite's exclusive lock")
def test_pbm_process_on_a_locked_database_says_so_and_asks_for_a_retry(tmp_path: Path):
    """Under a held lock pbm process once said to run `pbm db upgrade`."""
    pbm = PbmServer(tmp_path)
    pbm.write_config()
    upgrade = subprocess.run([sys.executable, "-m", "pbm", "--config", str(pbm.config_file),
                              "db", "upgrade"], capture_output=True, timeout=60)
    assert upgrade.returncode == 0, upgrade.stderr
    holder = sqlite3.connect(pbm.database, isolation_level=None)
    holder.execute("PRAGMA journal_mode=DELETE")  # a lock WAL readers cannot get past
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("UPDATE alembic_version SET version_num = version_num")
    try:
        result = _process(tmp_path, mail(ALICE, "signup alice secret"), "--sender", ALICE)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.returncode == 75, result.stderr
    assert b"locked" in result.stderr
    assert b"pbm db upgrade" not in result.stderr
    # Once the lock is gone the MTA's retry goes through.
    result = _process(tmp_path, mail(ALICE, "signup alice secret"), "--sender", ALICE)
    assert result.returncode == 0, result.stderr


def test_a_mail_that_hits_a_bug_is_kept_and_can_be_retried(server: PbmServer):
    server.send(ALICE, "signup alice secret")
    server.send(BOB, "signup bob hunter2")
    server.collect(2)
    server.send(ALICE, "trou challenge alice bob")
    server.collect(2)
    # Damage the stored snapshot the way a bug or a bad manual edit would.
    with stores.sql(server.database) as db:
        good = db.execute("select cast(state as text) from boards where id = 101").scalar_one()
        db.execute("update boards set state = '{\"cells\": 9}' where id = 101")
    server.send(ALICE, "trou move 101 alice secret 1B2")
    (sorry,) = server.collect(1)
    assert sorry.to == ALICE
    assert "operator will look at it" in " ".join(sorry.body.split())
    assert "secret" not in sorry.body and "secret" not in sorry.subject

    cli = [sys.executable, "-m", "pbm", "--config", str(server.config_file)]
    listing = subprocess.run([*cli, "inbox"], capture_output=True, text=True, timeout=60)
    assert listing.returncode == 0
    failed = [line for line in listing.stdout.splitlines() if " failed " in line]
    assert len(failed) == 1
    ident = failed[0].split()[0]
    shown = subprocess.run([*cli, "inbox", "show", ident], capture_output=True, text=True,
                           timeout=60)
    assert "Traceback" in shown.stdout and "trou move 101" in shown.stdout

    with stores.sql(server.database) as db:
        db.execute("update boards set state = ? where id = 101", (good,))
        assert db.execute("select move_count from boards").fetchone()[0] == 0
    retried = subprocess.run([*cli, "inbox", "retry", ident], capture_output=True, text=True,
                             timeout=60)
    assert retried.returncode == 0, retried.stderr
    assert f"mail {ident}: done" in retried.stdout
    boards = by_recipient(server.collect(2))
    assert boards[BOB].subject == "Trou Board 101 bob"
    with stores.sql(server.database) as db:
        assert db.execute("select move_count from boards").fetchone()[0] == 1


@pytest.mark.sqlite_only("the default database: a SQLite file in the folder pbm runs in")
def test_installed_package_serves_from_any_folder(tmp_path: Path):
    """`pip install .` (not editable): migrations and help pages ship inside the package."""
    root = Path(__file__).resolve().parents[2]
    target = tmp_path / "site"
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
         "--target", str(target), str(root)],
        capture_output=True, text=True, timeout=300,
    )
    assert install.returncode == 0, install.stderr
    assert (target / "pbm" / "migrations" / "versions").is_dir()
    assert (target / "pbm" / "help" / "general.txt").is_file()
    assert (target / "pbm" / "games" / "trou" / "help.txt").is_file()  # beside its rules
    assert (target / "pbm" / "py.typed").is_file()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "-c",
         "import sys; from pbm.cli import main; sys.argv=['pbm','help','trou']; main()"],
        capture_output=True, text=True, cwd=elsewhere, env=env, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Help For Trou" in result.stdout
    # A game split into a subpackage ships whole, its help figures drawn by its own modules.
    pipeline = subprocess.run(
        [sys.executable, "-m", "pbm", "help", "pipeline"],
        capture_output=True, text=True, cwd=elsewhere, env=env, timeout=60,
    )
    assert pipeline.returncode == 0, pipeline.stderr
    assert "Help For Pipeline" in pipeline.stdout and "[[" not in pipeline.stdout
    upgraded = tmp_path / "upgraded"
    upgraded.mkdir()
    upgrade = subprocess.run(
        [sys.executable, "-m", "pbm", "db", "upgrade"],
        capture_output=True, text=True, cwd=upgraded, env=env, timeout=60,
    )
    assert upgrade.returncode == 0, upgrade.stderr
    with sqlite3.connect(upgraded / "pbm.sqlite") as db:
        assert db.execute("select version_num from alembic_version").fetchone()[0]
    # The installed copy, not the source tree, is what runs.
    check = subprocess.run(
        [sys.executable, "-c", "import pbm; print(pbm.__file__)"],
        capture_output=True, text=True, cwd=elsewhere, env=env, timeout=60,
    )
    assert check.stdout.startswith(str(target))
    pbm = PbmServer(elsewhere)
    pbm.write_config()
    log = elsewhere / "serve.log"
    with open(log, "wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "pbm", "serve"], cwd=elsewhere,
                                   env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while "listening on" not in log.read_text() and time.monotonic() < deadline:
            assert process.poll() is None, log.read_text()
            time.sleep(0.1)
        assert "listening on" in log.read_text()
        assert str(elsewhere / "pbm.sqlite") in log.read_text()
        with sqlite3.connect(elsewhere / "pbm.sqlite") as db:
            assert db.execute("select version_num from alembic_version").fetchone()[0]
    finally:
        process.terminate()
        process.wait(timeout=20)
