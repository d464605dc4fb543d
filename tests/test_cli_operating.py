"""Operating pbm: its log, `config show`, owner-only files, passwords kept off the command
line, `db backup`, the outbox notes of `pbm process` and listings that stay bounded."""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import stat
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine, event, func, insert, select

from pbm.db import SCHEMA_REVISION
from pbm.db.models import InboundMessage
from pbm.db.session import make_engine, session_factory
from tests import stores
from tests.test_cli import UNREACHABLE_RELAY, Pbm, _isolate

PASSWORDS = {"alice": "Zq7alicepw", "bob": "Xy8bobpw"}


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def mail(subject: str, sender: str = "alice@example.org", message_id: str = "") -> bytes:
    message_id = message_id or f"<{time.monotonic_ns()}@example.org>"
    return (f"From: {sender}\r\nTo: pbm@games.test\r\nSubject: {subject}\r\n"
            f"Message-ID: {message_id}\r\n\r\n\r\n").encode()


@pytest.fixture
def pbm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Pbm:
    """A folder with a database made by `pbm db upgrade`, as an operator starts."""
    _isolate(monkeypatch, tmp_path)
    made = Pbm(tmp_path, CliRunner())
    made.ok("db", "upgrade")
    return made


@pytest.fixture
def board(pbm: Pbm) -> Pbm:
    """alice and bob signed up (their passwords read from standard input), board 101."""
    for userid, password in PASSWORDS.items():
        pbm.ok("users", "add", userid, f"{userid}@example.org", "--password-stdin",
               input=f"{password}\n")
    pbm.ok("challenge", "trou", "alice", "bob")
    return pbm


# ----- the log --------------------------------------------------------------------------
@pytest.mark.parametrize("subject", [
    "trou move 101 alice Wrong9pw 1B2",  # a wrong password
    f"trou move 101 alice 1B2 {PASSWORDS['alice']}",  # the password one word late
    f"{PASSWORDS['alice']} trou move 101",  # the password first: no command at all
    f"trou limit alice 5 {PASSWORDS['alice']}",  # one word too many
], ids=["wrong", "late", "first", "extra"])
def test_a_mail_is_logged_in_one_line_without_its_password(board: Pbm, caplog, subject: str):
    with caplog.at_level(logging.DEBUG):
        result = board("--log-level", "debug", "process", "--sender", "alice@example.org",
                       input=mail(subject, message_id="<m1@example.org>"))
    assert result.exit_code == 0, result.output
    handled = [r.getMessage() for r in caplog.records if r.getMessage().startswith("inbound")]
    assert len(handled) == 1, handled
    line = handled[0]
    assert "message-id <m1@example.org> from alice@example.org:" in line
    first_word = subject.split()[0]
    if first_word == "trou":
        assert f": trou {subject.split()[1]} -> done" in line
    else:
        assert ": ? -> done" in line
    sent = [r.getMessage() for r in caplog.records if r.getMessage().startswith("outbox mail")]
    assert sent and all("to alice@example.org: sent into the Maildir" in s for s in sent)
    for secret in ("Wrong9pw", *PASSWORDS.values()):
        assert secret not in caplog.text
        assert secret not in result.output


def test_the_log_file_is_owner_only_and_holds_no_password(board: Pbm):
    env = {"PBM_LOGGING_FILE": "logs/pbm.log"}
    result = board("process", "--sender", "alice@example.org", env=env,
                   input=mail(f"trou move 101 alice 1B2 {PASSWORDS['alice']}"))
    assert result.exit_code == 0, result.output
    log = board.folder / "logs" / "pbm.log"
    assert mode(log) == 0o600
    text = log.read_text()
    assert "INFO inbound mail" in text and "trou move -> done" in text
    assert "INFO outbox mail" in text
    assert PASSWORDS["alice"] not in text
    assert "INFO" not in result.stderr  # into the file, not standard error
    # Only the outcome, for the pipe's own log line.
    assert re.fullmatch(r"pbm: stored inbound mail \d+ \(done\): 1 reply queued\n",
                        result.stderr), result.stderr


def test_a_forged_message_id_or_sender_cannot_make_a_second_log_line(board: Pbm, caplog):
    raw = (b"From: alice@example.org\r\nSubject: help\r\n"
           b"Message-ID: <a\x1b[2J@example.org>\r\n\r\n")
    with caplog.at_level(logging.INFO):
        board.ok("process", "--sender", "x\ny INFO forged", input=raw)
    handled = [r.getMessage() for r in caplog.records if r.getMessage().startswith("inbound")]
    assert len(handled) == 1 and "\n" not in handled[0] and "\x1b" not in handled[0]


def test_log_levels(pbm: Pbm):
    bad = pbm("--log-level", "chatty", "outbox")
    assert bad.exit_code == 2 and "chatty" in bad.stderr
    wrong = pbm("outbox", env={"PBM_LOGGING_LEVEL": "loud"})
    assert wrong.exit_code == 2
    assert "environment PBM_LOGGING_LEVEL: logging.level must be one of debug, info, " \
           "warning, error, not 'loud'" in wrong.stderr
    pbm.ok("--log-level", "WARNING", "outbox")
    assert logging.getLogger().level == logging.WARNING
    assert logging.getLogger("mail.log").level == logging.WARNING  # aiosmtpd's chatter


# ----- config show ----------------------------------------------------------------------
def test_config_show_says_where_each_value_came_from(pbm: Pbm):
    config = pbm.folder / "pbm.toml"
    config.write_text('[smtpd]\nport = 2600\n[delivery]\n'
                      'relay = "smtp://games:S3cretRelay@mail.example.org:587?starttls"\n')
    out = pbm.ok("--config", str(config), "--log-level", "debug", "config", "show",
                 env={"PBM_TIME_NAG_DAYS": "3"})
    # Keyed by section and name: [smtpd] and [imap] both have a port.
    lines, section = {}, ""
    for line in out.splitlines():
        if line.startswith("["):
            section = line.strip("[]").strip()
        elif " = " in line:
            lines.setdefault(line.split("=")[0].strip(), line)
            lines[f"{section}.{line.split('=')[0].strip()}"] = line
    assert lines["smtpd.port"].endswith(f"# {config}")
    assert lines["smtpd.port"].startswith("port = 2600 ")
    assert lines["nag_days"].endswith("# environment PBM_TIME_NAG_DAYS")
    assert lines["level"].startswith('level = "debug"') and lines["level"].endswith(
        "# command line")
    assert lines["forfeit_days"].endswith("# defaults")
    # The test's own environment (see _isolate) sets the database and the server address.
    assert lines["address"].endswith("# environment PBM_SERVER_ADDRESS")
    assert "S3cretRelay" not in out
    assert '"smtp://games:********@mail.example.org:587?starttls"' in lines["relay"]
    assert f"# settings file: {config}" in out
    for section in ("server", "smtpd", "database", "delivery", "limits", "time", "logging"):
        assert f"[{section}]" in out


# ----- files ----------------------------------------------------------------------------
def test_the_database_and_the_maildir_are_owner_only(board: Pbm):
    board.ok("process", "--sender", "alice@example.org",
             input=mail(f"trou move 101 alice {PASSWORDS['alice']} 1B2"))
    database = board.database
    if not stores.postgresql():  # PostgreSQL keeps its files in its own cluster
        assert mode(database) == 0o600
        for suffix in ("-wal", "-shm"):
            extra = Path(f"{database}{suffix}")
            if extra.exists():
                assert mode(extra) == 0o600, suffix
    assert mode(board.maildir) == 0o700
    for folder in ("tmp", "new", "cur"):
        assert mode(board.maildir / folder) == 0o700
    mails = list((board.maildir / "new").iterdir())
    assert mails and all(mode(m) == 0o600 for m in mails)


@pytest.mark.sqlite_only("the modes of the SQLite file")
def test_a_database_made_readable_to_others_is_closed_again(board: Pbm):
    os.chmod(board.database, 0o644)
    board.ok("users", "list")
    assert mode(board.database) == 0o600


# ----- passwords off the command line ----------------------------------------------------
def test_users_add_asks_for_the_password_twice_without_echoing_it(pbm: Pbm):
    result = pbm("users", "add", "carol", "carol@example.org", input="Pw4carol\nPw4carol\n")
    assert result.exit_code == 0, result.output
    assert "Password:" in result.output and "Repeat for confirmation:" in result.output
    assert "Pw4carol" not in result.output
    assert "has been changed" in pbm.ok("run", "--from", "carol@example.org",
                                        "change password carol Pw4carol Pw5carol")  # it was set


def test_users_add_with_two_different_passwords_asks_again(pbm: Pbm):
    result = pbm("users", "add", "carol", "carol@example.org", input="Pw4carol\nPw5carol\n")
    assert result.exit_code == 1  # click asks again; standard input has ended: abort
    assert "do not match" in result.output
    assert "carol" not in pbm.ok("users", "list")


def test_a_password_is_no_longer_taken_from_the_command_line(board: Pbm):
    result = board("users", "passwd", "alice", "n3wpass")
    assert result.exit_code == 2
    assert "unexpected extra argument" in result.stderr.lower()
    empty = board("users", "passwd", "alice", "--password-stdin", input="\n")
    assert empty.exit_code == 1 and "no password on standard input" in empty.stderr


# ----- pbm process and the outbox ----------------------------------------------------------
def test_process_says_when_a_reply_is_left_in_the_outbox(board: Pbm):
    result = board("process", "--sender", "alice@example.org", input=mail("help"),
                   env={"PBM_DELIVERY_RELAY": UNREACHABLE_RELAY})
    assert result.exit_code == 0
    first = result.stderr.splitlines()[0]
    assert re.fullmatch(r"pbm: stored inbound mail \d+ \(done\): 1 reply queued, 1 left in "
                        r"the outbox \(see `pbm outbox`\)", first), result.stderr
    assert "pending" in board.ok("outbox")


# ----- db backup ------------------------------------------------------------------------
BACKUP_IS_SQLITES = "`pbm db backup` is SQLite's online backup"


def _count(database: Path) -> int:
    with sqlite3.connect(database) as connection:
        return connection.execute("SELECT count(*) FROM inbound_messages").fetchone()[0]


@pytest.mark.sqlite_only(BACKUP_IS_SQLITES)
def test_backup_of_a_database_being_written_to_restores(board: Pbm, tmp_path: Path):
    engine = make_engine(stores.url(board.database))
    factory = session_factory(engine)
    # Some bulk, so that the copy takes a while and the writer goes on meanwhile.
    with factory() as session, session.begin():
        session.execute(insert(InboundMessage), [
            {"message_key": f"<bulk{n}@example.org>", "envelope_from": "x@example.org",
             "raw": os.urandom(2048), "status": "done"} for n in range(8000)])
    committed = [_count(board.database)]
    stop = threading.Event()

    def write() -> None:
        n = 0
        while not stop.is_set():
            with factory() as session, session.begin():
                session.add(InboundMessage(message_key=f"<live{n}@example.org>",
                                           envelope_from="x@example.org", raw=b"x" * 500))
            n += 1
            committed.append(committed[0] + n)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        while len(committed) < 20:  # the writer is going
            time.sleep(0.01)
        before, started = committed[-1], len(committed)
        result = board("db", "backup", str(tmp_path / "copy.sqlite"))
        during = len(committed) - started
        time.sleep(0.1)
    finally:
        stop.set()
        writer.join()
    assert during > 0, "the writer committed nothing while the copy was made"
    assert result.exit_code == 0, result.output
    assert "backed up" in result.stdout and "checked: ok" in result.stdout
    # The pages done after each step, on standard error: several steps, as it is some MB,
    # and all of them one snapshot (see `held` below).
    steps = re.findall(r"^pbm db backup: ([\d,]+) of ([\d,]+) pages$", result.stderr, re.M)
    assert len(steps) > 1, result.stderr
    assert len({total for _, total in steps}) == 1 and steps[-1][0] == steps[-1][1]
    done = [int(pages.replace(",", "")) for pages, _ in steps]
    assert done == sorted(done), result.stderr
    assert result.stderr.splitlines()[-1] == "pbm db backup: checked the copy: ok"
    copy = tmp_path / "copy.sqlite"
    assert mode(copy) == 0o600
    assert not list(tmp_path.glob(".copy.sqlite.partial*"))
    # Restore as the README says: pbm stopped, the file copied back, `pbm db upgrade`.
    engine.dispose()
    restored = tmp_path / "restored"
    restored.mkdir()
    (restored / "pbm.sqlite").write_bytes(copy.read_bytes())
    env = {"PBM_DATABASE_URL": f"sqlite:///{restored / 'pbm.sqlite'}"}
    assert "(newest)" in board.ok("db", "upgrade", env=env)
    assert board.ok("db", "current", env=env).strip() == f"{SCHEMA_REVISION} (newest)"
    with sqlite3.connect(restored / "pbm.sqlite") as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    held = _count(restored / "pbm.sqlite")
    assert before <= held <= committed[-1]  # all committed before it began, one snapshot
    assert "alice" in board.ok("users", "list", env=env)
    assert "101" in board.ok("games", env=env)


@pytest.mark.sqlite_only(BACKUP_IS_SQLITES)
def test_backup_refuses_to_overwrite_unless_forced(board: Pbm, tmp_path: Path):
    target = tmp_path / "old.sqlite"
    target.write_bytes(b"an older backup")
    refused = board("db", "backup", str(target))
    assert refused.exit_code == 1
    assert f"{target} exists; give --force to overwrite it" in refused.stderr
    assert target.read_bytes() == b"an older backup"
    board.ok("db", "backup", str(target), "--force")
    with sqlite3.connect(target) as connection:
        assert connection.execute("SELECT count(*) FROM users").fetchone()[0] == 2


@pytest.mark.sqlite_only(BACKUP_IS_SQLITES)
def test_backup_of_a_missing_database_names_it(pbm: Pbm, tmp_path: Path):
    missing = tmp_path / "nowhere" / "pbm.sqlite"
    result = pbm("db", "backup", str(tmp_path / "copy.sqlite"),
                 env={"PBM_DATABASE_URL": f"sqlite:///{missing}"})
    assert result.exit_code == 1
    assert f"no database at {missing}" in result.stderr
    assert not missing.exists() and not (tmp_path / "copy.sqlite").exists()


def test_backup_of_a_postgresql_database_points_at_its_own_tools(pbm: Pbm, tmp_path: Path):
    url = stores.url(pbm.database) if stores.postgresql() \
        else "postgresql+psycopg://pbm@127.0.0.1:1/pbm"  # never connected to
    result = pbm("db", "backup", str(tmp_path / "copy"), env={"PBM_DATABASE_URL": url})
    assert result.exit_code == 1
    assert "db backup copies SQLite databases; back up postgresql with its own tools" \
        in result.stderr
    assert not (tmp_path / "copy").exists()


# ----- bounded listings --------------------------------------------------------------------
@pytest.fixture
def many_boards(pbm: Pbm) -> Pbm:
    """A store of 1,200 Loophole boards among 300 players, built directly."""
    from pbm.bench.scale import build

    build(stores.url(pbm.database), 1200, 300)
    return pbm


def test_listings_by_mail_stop_in_the_query(many_boards: Pbm):
    statements: list[str] = []

    def spy(conn, cursor, statement, *args) -> None:
        statements.append(statement)

    event.listen(Engine, "before_cursor_execute", spy)
    try:
        out = many_boards.ok("run", "--from", "u00001@bench.test", "loophole games")
    finally:
        event.remove(Engine, "before_cursor_execute", spy)
    # pbmserv's rows: the board number right-aligned in the first five columns.
    board_lines = [line for line in out.splitlines() if line[:5].strip().isdigit()]
    assert len(board_lines) == 200
    assert "More than 200 boards: the first 200 are listed." in out
    last = int(board_lines[-1].split()[0])
    assert f"For the next ones send:\n  loophole games {last + 1}\n" in out
    listing = [s for s in statements if s.lstrip().startswith("SELECT boards.id")]
    assert listing and all("LIMIT" in s for s in listing), listing


def test_the_admin_listing_streams_every_board(many_boards: Pbm):
    out = many_boards.ok("games")
    assert len(out.splitlines()) == 1200
    engine = make_engine(stores.url(many_boards.database))
    with session_factory(engine)() as session:
        from pbm.db.models import Board

        assert session.scalar(select(func.count()).select_from(Board)) == 1200


def test_the_log_names_the_relays_queue_id_or_why_a_reply_waits(board: Pbm, caplog):
    from tests.mail.sinks import Sink, relay

    answers = iter(["250 2.0.0 Ok: queued as 4XyZ1", "451 4.3.0 Try again later"])
    sink = Sink(on_data=lambda envelope: next(answers, "554 5.0.0 asked twice"))
    with relay(sink) as port, caplog.at_level(logging.INFO):
        env = {"PBM_DELIVERY_RELAY": f"smtp://127.0.0.1:{port}"}
        for _ in range(2):
            board.ok("process", "--sender", "alice@example.org", input=mail("help"), env=env)
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("outbox mail")]
    assert len(lines) == 2, lines
    assert lines[0].endswith(f"to alice@example.org: sent through 127.0.0.1:{port}: "
                             "2.0.0 Ok: queued as 4XyZ1")
    assert "to alice@example.org: deferred: " in lines[1] and "451 4.3.0" in lines[1]


def test_process_tries_a_reply_the_relay_keeps_deferring_once(board: Pbm):
    """A greylisting relay answers 451 every time: `pbm process` used to claim the deferred
    reply again at once, round after round, and never ended."""
    from tests.mail.sinks import Sink, relay

    sink = Sink(on_rcpt=lambda address: "451 4.7.1 Greylisted, try again later")
    with relay(sink) as port:
        started = time.monotonic()
        result = board("process", "--sender", "alice@example.org", input=mail("help"),
                       env={"PBM_DELIVERY_RELAY": f"smtp://127.0.0.1:{port}"})
        took = time.monotonic() - started
    assert result.exit_code == 0
    assert took < 10
    assert "1 reply queued, 1 left in the outbox" in result.stderr.splitlines()[0]
    (line,) = [line for line in board.ok("outbox").splitlines() if "pending" in line]
    assert "tries 1" in line and "451 4.7.1" in line
