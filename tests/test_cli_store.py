"""Where the database is not as it should be: `pbm process` keeps the mail in the MTA's queue
(exit 75) for every fault that is not the mail's, and admin commands never create a database."""

from __future__ import annotations

import re
import sqlite3
import threading
from pathlib import Path

import pytest
from sqlalchemy import make_url, select

from pbm.cli.mailpath import SHORT
from pbm.db import SCHEMA_REVISION
from pbm.db.migrate import upgrade
from pbm.db.models import InboundMessage
from pbm.db.session import make_engine
from tests import stores, test_cli
from tests.test_cli import Pbm

# The fixtures of tests/test_cli.py, by name (pytest finds fixtures in the module's namespace).
bare, empty_database, pbm = test_cli.bare, test_cli.empty_database, test_cli.pbm
accounts_database, players = test_cli.accounts_database, test_cli.players

EX_TEMPFAIL = 75
EX_DATAERR = 65

MAIL = (b"From: Bob <bob@example.org>\r\nTo: pbm@games.test\r\nSubject: help\r\n"
        b"Message-ID: <help.1@example.org>\r\n\r\nthanks\r\n")


def _inbound(folder: Pbm) -> list[tuple[str, str]]:
    with folder.session() as session:
        return [(m.message_key, m.envelope_from)
                for m in session.scalars(select(InboundMessage).order_by(InboundMessage.id))]


def _revision(database: Path) -> str:
    with stores.sql(database) as db:
        return db.execute("SELECT version_num FROM alembic_version").scalar_one()


def _set_revision(database: Path, revision: str) -> None:
    with stores.sql(database) as db:
        db.execute("UPDATE alembic_version SET version_num = :revision", {"revision": revision})


A_FILE = "a SQLite file that is not a database, or not there"


# ----- pbm process: what is not the mail's fault waits in the MTA's queue ---------------------
def test_process_stores_a_mail_and_answers_it(pbm: Pbm):
    result = pbm("process", "--sender", "bob@example.org", input=MAIL)
    assert result.exit_code == 0, result.stderr
    assert _inbound(pbm) == [("<help.1@example.org>", "bob@example.org")]
    assert [m.to for m in pbm.mails()] == ["bob@example.org"]


def test_process_creates_the_database_of_a_new_install(bare: Pbm):
    result = bare("process", "--sender", "bob@example.org", input=MAIL)
    assert result.exit_code == 0, result.stderr
    assert _revision(bare.database) == SCHEMA_REVISION
    assert len(_inbound(bare)) == 1


def test_process_reads_an_empty_sender_as_a_bounce_and_never_answers(pbm: Pbm):
    """Postfix's pipe with null_sender= passes a bounce's sender as an empty argument."""
    bounce = (b"From: MAILER-DAEMON@games.test (Mail Delivery System)\r\n"
              b"To: pbm@games.test\r\nSubject: help\r\n"
              b"Message-ID: <bounce.1@games.test>\r\n\r\nundeliverable\r\n")
    result = pbm("process", "--sender", "", input=bounce)
    assert result.exit_code == 0, result.stderr
    assert _inbound(pbm) == [("<bounce.1@games.test>", "<>")]
    assert pbm.mails() == []


def test_process_refuses_a_mail_too_large_for_ever(pbm: Pbm):
    result = pbm("process", "--sender", "bob@example.org", input=MAIL + b"x" * 1024,
                 env={"PBM_SMTPD_MAX_MESSAGE_BYTES": "1024"})
    assert result.exit_code == EX_DATAERR
    assert "larger than 1024 bytes" in result.stderr
    assert _inbound(pbm) == []


def test_process_with_a_bad_setting_keeps_the_mail(pbm: Pbm):
    config = pbm.folder / "pbm.toml"
    config.write_text("[smtpd]\nportt = 25\n")
    result = pbm("--config", str(config), "process", "--sender", "bob@example.org", input=MAIL)
    assert result.exit_code == EX_TEMPFAIL
    assert "portt" in result.stderr
    assert _inbound(pbm) == []


def test_process_with_a_bad_command_line_keeps_the_mail(pbm: Pbm):
    """A typo in master.cf is the operator's to fix; the mail waits meanwhile."""
    result = pbm("process", "--sendr", "bob@example.org", input=MAIL)
    assert result.exit_code == EX_TEMPFAIL
    assert "--sendr" in result.stderr and "kept for later" in result.stderr
    assert _inbound(pbm) == []


@pytest.mark.sqlite_only(A_FILE)
def test_process_on_a_folder_where_the_database_should_be(bare: Pbm):
    bare.database.mkdir()
    result = bare("process", "--sender", "bob@example.org", input=MAIL)
    assert result.exit_code == EX_TEMPFAIL
    assert f"the database {bare.database} cannot be opened" in result.stderr
    assert "empty database" not in result.stderr
    assert bare.database.is_dir() and list(bare.database.iterdir()) == []


@pytest.mark.sqlite_only(A_FILE)
def test_process_on_a_damaged_database_keeps_the_mail(bare: Pbm):
    bare.database.write_bytes(b"this is no SQLite database, it only sits where one should\n" * 100)
    result = bare("process", "--sender", "bob@example.org", input=MAIL)
    assert result.exit_code == EX_TEMPFAIL
    assert f"the database {bare.database} is damaged or not a SQLite database" in result.stderr
    assert bare.database.read_bytes().startswith(b"this is no SQLite database")


def test_process_on_a_database_of_a_newer_pbm_keeps_the_mail(pbm: Pbm):
    _set_revision(pbm.database, "9999")
    result = pbm("process", "--sender", "bob@example.org", input=MAIL)
    assert result.exit_code == EX_TEMPFAIL
    assert "revision 9999, which this pbm does not know" in result.stderr
    assert _revision(pbm.database) == "9999"
    assert _inbound(pbm) == []


def test_process_migrates_a_database_of_an_older_pbm(bare: Pbm):
    """After `pip install -U`, the first piped mail brings the schema up to date."""
    upgrade(make_engine(stores.url(bare.database)), "0004")
    result = bare("process", "--sender", "bob@example.org", input=MAIL)
    assert result.exit_code == 0, result.stderr
    assert _revision(bare.database) == SCHEMA_REVISION
    assert len(_inbound(bare)) == 1


def test_process_with_a_broken_install_keeps_the_mail(pbm: Pbm):
    """Anything unforeseen (here: a database driver that is not installed) is a temporary
    failure with the error's name, never a bounce of a mail that did nothing wrong."""
    result = pbm("process", "--sender", "bob@example.org", input=MAIL,
                 env={"PBM_DATABASE_URL": "nosuchdriver://localhost/pbm"})
    assert result.exit_code == EX_TEMPFAIL
    assert "NoSuchModuleError" in result.stderr and "kept for later" in result.stderr


# ----- the line Postfix's pipe keeps ----------------------------------------------------------
# Postfix puts what a failed pipe command wrote into its log and the bounce, cut short: pbm's
# outcome comes first, in one line of at most SHORT characters, whatever else it writes after.
def _first(result) -> str:
    first = result.stderr.splitlines()[0]
    assert len(first) <= SHORT, first
    return first


def test_process_says_its_outcome_first(pbm: Pbm):
    result = pbm("--log-level", "debug", "process", "--sender", "bob@example.org", input=MAIL)
    assert result.exit_code == 0, result.stderr
    assert re.fullmatch(r"pbm: stored inbound mail \d+ \(done\): 1 reply queued",
                        _first(result)), result.stderr
    assert " DEBUG " in result.stderr and " INFO inbound mail " in result.stderr  # after it
    again = pbm("process", "--sender", "bob@example.org", input=MAIL)
    assert re.fullmatch(r"pbm: received before as inbound mail \d+: not handled again",
                        _first(again)), again.stderr


def test_process_says_a_refusal_first(pbm: Pbm):
    result = pbm("--log-level", "debug", "process", "--sender", "bob@example.org",
                 input=MAIL + b"x" * 1024, env={"PBM_SMTPD_MAX_MESSAGE_BYTES": "1024"})
    assert result.exit_code == EX_DATAERR
    assert _first(result) == "pbm: refused: message larger than 1024 bytes"


@pytest.mark.sqlite_only(A_FILE)
def test_a_long_outcome_is_cut_in_its_line_and_given_whole_after_it(bare: Pbm):
    bare.database.mkdir()
    result = bare("process", "--sender", "bob@example.org", input=MAIL)
    assert result.exit_code == EX_TEMPFAIL
    lines = result.stderr.splitlines()
    assert _first(result).startswith("pbm: not stored, mail kept for later: ")
    assert lines[0].endswith("...")
    assert lines[1].startswith("pbm process: not stored, mail kept for later: ")
    assert f"the database {bare.database} cannot be opened" in lines[1]


def test_a_bug_says_its_outcome_before_its_traceback(pbm: Pbm):
    result = pbm("process", "--sender", "bob@example.org", input=MAIL,
                 env={"PBM_DATABASE_URL": "nosuchdriver://localhost/pbm"})
    assert result.exit_code == EX_TEMPFAIL
    assert _first(result).startswith("pbm: failed, mail kept for later: NoSuchModuleError: ")
    assert "Traceback (most recent call last)" in result.stderr.split("\n", 2)[2]


@pytest.mark.slow
@pytest.mark.sqlite_only("SQLite's one write lock and its busy timeout")
def test_process_on_a_locked_database_says_it_is_locked(players: Pbm):
    """Another process holds the write lock past the busy timeout (10 s)."""
    holder = sqlite3.connect(players.database, check_same_thread=False)
    holder.isolation_level = None
    holder.execute("BEGIN EXCLUSIVE")
    try:
        result = players("process", "--sender", "bob@example.org", input=MAIL)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.exit_code == EX_TEMPFAIL
    assert f"the database {players.database} is locked by another process" in result.stderr
    assert "empty database" not in result.stderr
    assert _inbound(players) == []
    # Once the lock is gone, the MTA's retry goes through.
    again = players("process", "--sender", "bob@example.org", input=MAIL)
    assert again.exit_code == 0, again.stderr
    assert len(_inbound(players)) == 1


@pytest.mark.sqlite_only("SQLite's one write lock and its busy timeout")
def test_process_waits_out_a_short_lock(players: Pbm):
    """A lock held for a moment (another mail being played) is waited for, not failed on."""
    holder = sqlite3.connect(players.database, check_same_thread=False)
    holder.isolation_level = None
    holder.execute("BEGIN EXCLUSIVE")
    release = threading.Timer(0.5, lambda: (holder.execute("ROLLBACK"), holder.close()))
    release.start()
    try:
        result = players("process", "--sender", "bob@example.org", input=MAIL)
    finally:
        release.join()
    assert result.exit_code == 0, result.stderr
    assert len(_inbound(players)) == 1


# ----- admin commands never create a database ---------------------------------------------
ADMIN_COMMANDS = [
    ("users", "list"),
    ("users", "add", "alice", "alice@example.org", "--password-stdin"),
    ("challenge", "trou", "alice", "bob"),
    ("show", "101"),
    ("games",),
    ("standings", "trou"),
    ("run", "--from", "alice@example.org", "help"),
    ("tick",),
    ("outbox",),
    ("outbox", "flush"),
    ("inbox",),
    ("inbox", "prune"),
    ("db", "current"),
]


@pytest.mark.parametrize("command", ADMIN_COMMANDS, ids=" ".join)
@pytest.mark.sqlite_only(A_FILE)
def test_an_admin_command_without_a_database_names_the_path_and_creates_nothing(
        bare: Pbm, command: tuple[str, ...]):
    result = bare(*command, input="secret\n")
    assert result.exit_code == 2
    assert f"no database at {bare.database}" in result.stderr
    assert "pbm db upgrade" in result.stderr
    assert not bare.database.exists()


@pytest.mark.sqlite_only(A_FILE)
def test_an_admin_command_does_not_create_the_database_folder(bare: Pbm):
    where = bare.folder / "srv" / "pbm.sqlite"
    result = bare("users", "list", env={"PBM_DATABASE_URL": f"sqlite:///{where}"})
    assert result.exit_code == 2
    assert f"no database at {where}" in result.stderr
    assert not (bare.folder / "srv").exists()


def test_db_upgrade_creates_the_database_the_others_then_use(bare: Pbm):
    assert "upgraded from empty" in bare.ok("db", "upgrade")
    assert bare.ok("users", "list") == ""


def test_an_admin_command_on_a_database_of_a_newer_pbm_says_so(pbm: Pbm):
    _set_revision(pbm.database, "9999")
    result = pbm("users", "list")
    assert result.exit_code == 1
    assert "revision 9999, which this pbm does not know" in result.stderr
    assert _revision(pbm.database) == "9999"


@pytest.mark.sqlite_only(A_FILE)
def test_an_admin_command_on_a_folder_where_the_database_should_be(bare: Pbm):
    bare.database.mkdir()
    result = bare("users", "list")
    assert result.exit_code == 1
    assert f"the database {bare.database} cannot be opened" in result.stderr


# ----- PostgreSQL: a server, database or user that is not there ------------------------------
def _faults(bare: Pbm, url: str, said: str) -> None:
    """`pbm process` keeps the mail and an admin command fails, both saying `said`."""
    env = {"PBM_DATABASE_URL": url}
    kept = bare("process", "--sender", "bob@example.org", input=MAIL, env=env)
    assert kept.exit_code == EX_TEMPFAIL
    assert said in kept.stderr and "kept for later" in kept.stderr
    admin = bare("users", "list", env=env)
    assert admin.exit_code == 1
    assert said in admin.stderr


def test_no_postgresql_server_keeps_the_mail_and_says_where(bare: Pbm):
    _faults(bare, "postgresql+psycopg://pbm@127.0.0.1:1/pbm",  # nothing listens on port 1
            "no PostgreSQL server answers at 127.0.0.1:1 (is it running")


@pytest.mark.parametrize(("parts", "said"), [
    ({"database": "nosuch"}, "the database nosuch on 127.0.0.1:{port} does not exist: create "
                             "it (createdb -O postgres nosuch), then run `pbm db upgrade`"),
    ({"username": "nobody"}, "PostgreSQL at 127.0.0.1:{port} refuses user nobody"),
], ids=["database", "user"])
def test_a_missing_postgresql_database_or_user_is_named(bare: Pbm, parts: dict[str, str],
                                                        said: str):
    if not stores.postgresql():
        pytest.skip("needs the PostgreSQL server of the --postgresql run")
    url = make_url(stores.url(bare.database)).set(**parts)
    _faults(bare, url.render_as_string(hide_password=False), said.format(port=url.port))
