"""The operator's command line through click's runner, on a real database and Maildir."""

from __future__ import annotations

import mailbox
import os
import re
import sqlite3
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from importlib.resources import files
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import select

from pbm.cli import main
from pbm.db.models import Board, InboundMessage, OutboxMail, User, utcnow
from pbm.db.session import make_engine, session_factory
from pbm.games import registry
from tests import stores

UNREACHABLE_RELAY = "smtp://127.0.0.1:1"  # nothing listens on port 1: connection refused


def _delivery_order(key: str) -> int:
    """Our Maildir names are <created seconds>.<outbox id>-<digest>.pbm: order of queueing."""
    return int(key.split(".")[1].partition("-")[0])


@dataclass
class Sent:
    to: str
    subject: str
    body: str
    message: EmailMessage


@dataclass
class Pbm:
    """Runs `pbm ...` in-process against the test's database and Maildir."""

    folder: Path
    runner: CliRunner

    @property
    def database(self) -> Path:
        return self.folder / "pbm.sqlite"

    @property
    def maildir(self) -> Path:
        return self.folder / "maildir"

    def __call__(self, *args: str, input: bytes | str | None = None,
                 env: dict[str, str] | None = None) -> Result:
        return self.runner.invoke(main, list(args), input=input, env=env,
                                  catch_exceptions=False)

    def ok(self, *args: str, **kwargs) -> str:
        result = self(*args, **kwargs)
        assert result.exit_code == 0, f"pbm {' '.join(args)}: {result.output}{result.stderr}"
        return result.stdout

    def mails(self) -> list[Sent]:
        """Every mail delivered to the Maildir so far, oldest first."""
        if not self.maildir.exists():
            return []
        box = mailbox.Maildir(self.maildir, create=False)
        found = []
        for key in sorted(box.keys(), key=_delivery_order):
            message = BytesParser(policy=policy.default).parsebytes(box.get_bytes(key))
            body = message.get_body(preferencelist=("plain",))
            text = body.get_content().replace("\r\n", "\n") if body else ""
            found.append(Sent(str(message["To"]), str(message["Subject"]), text, message))
        return found

    def session(self):
        return session_factory(make_engine(stores.url(self.database)))()


def _isolate(monkeypatch: pytest.MonkeyPatch, folder: Path, *, lasting: bool = False) -> None:
    """Point pbm at `folder` for its database and Maildir, whatever the caller's shell has."""
    for name in list(os.environ):
        if name.startswith("PBM_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(folder)
    monkeypatch.setenv("PBM_DATABASE_URL", stores.url(folder / "pbm.sqlite", lasting=lasting))
    monkeypatch.setenv("PBM_DELIVERY_MAILDIR", str(folder / "maildir"))
    monkeypatch.setenv("PBM_SERVER_ADDRESS", "pbm@games.test")


@pytest.fixture
def bare(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Pbm:
    """A folder with no database yet (only `serve`, `process` and `db upgrade` make one)."""
    _isolate(monkeypatch, tmp_path)
    return Pbm(tmp_path, CliRunner())


@pytest.fixture(scope="module")
def empty_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database migrated to head by `pbm db upgrade`, made once per module."""
    folder = tmp_path_factory.mktemp("empty")
    with pytest.MonkeyPatch.context() as monkeypatch:
        _isolate(monkeypatch, folder, lasting=True)
        Pbm(folder, CliRunner()).ok("db", "upgrade")
    return folder / "pbm.sqlite"


@pytest.fixture
def pbm(bare: Pbm, empty_database: Path) -> Pbm:
    """An empty database, as an operator has after `pbm db upgrade`."""
    stores.copy(empty_database, bare.database)
    return bare


@pytest.fixture(scope="module")
def accounts_database(tmp_path_factory: pytest.TempPathFactory, empty_database: Path) -> Path:
    """A database where alice and bob have signed up, made once: password hashing is slow
    on purpose, so each test starts from a copy instead of signing up again."""
    folder = tmp_path_factory.mktemp("accounts")
    with pytest.MonkeyPatch.context() as monkeypatch:
        template = Pbm(folder, CliRunner())
        stores.copy(empty_database, template.database, lasting=True)
        _isolate(monkeypatch, folder, lasting=True)
        template.ok("users", "add", "alice", "alice@example.org",
                    "--password-stdin", input="secret\n")
        template.ok("users", "add", "bob", "bob@example.org", "--password-stdin", input="hunter2\n")
    return template.database


@pytest.fixture
def players(pbm: Pbm, accounts_database: Path) -> Pbm:
    """alice and bob have accounts (and an empty Maildir)."""
    stores.copy(accounts_database, pbm.database)
    return pbm


@pytest.fixture
def board(players: Pbm) -> Pbm:
    """Board 101: alice (Red, to move) against bob (Black)."""
    players.ok("challenge", "trou", "alice", "bob")
    return players


# ----- users --------------------------------------------------------------------------------
def test_users_add_stores_the_account(pbm: Pbm):
    out = pbm.ok("users", "add", "Alice", "alice@example.org", "alice@home.example.org",
                 "--password-stdin", input="secret\n")
    assert "alice" in out
    assert "secret" not in out  # never echo a password
    with pbm.session() as session:
        user = session.scalar(select(User).where(User.userid == "alice"))
        assert user is not None
        assert [a.address for a in user.addresses] == ["alice@example.org",
                                                       "alice@home.example.org"]
        # The operator vouches for the addresses typed: no confirmation is asked.
        assert all(a.confirmed and a.confirm_token is None for a in user.addresses)
        assert "secret" not in user.password_hash
    assert [m.subject for m in pbm.mails()] == ["Welcome to pbm, alice"]


def test_users_add_mails_the_welcome(pbm: Pbm):
    pbm.ok("users", "add", "alice", "alice@example.org", "--password-stdin", input="secret\n")
    welcome = [m for m in pbm.mails() if m.to == "alice@example.org"]
    assert len(welcome) == 1, [m.subject for m in pbm.mails()]
    assert welcome[0].subject == "Welcome to pbm, alice"
    assert "alice" in welcome[0].body
    assert "secret" not in welcome[0].body
    assert str(welcome[0].message["From"]).endswith("<pbm@games.test>")
    assert welcome[0].message["Auto-Submitted"] is not None


def test_users_add_refuses_a_taken_userid(players: Pbm):
    result = players("users", "add", "alice", "alice2@example.org",
                     "--password-stdin", input="other\n")
    assert result.exit_code == 1
    assert "taken" in result.stderr


def test_users_add_refuses_a_bad_address(pbm: Pbm):
    result = pbm("users", "add", "carol", "not-an-address", "--password-stdin", input="secret\n")
    assert result.exit_code == 1
    assert "not-an-address" in result.stderr
    assert "carol" not in pbm.ok("users", "list")


def test_users_list(players: Pbm):
    out = players.ok("users", "list")
    lines = out.splitlines()
    assert len(lines) == 2
    assert lines[0].split() == ["alice", "alice@example.org"]
    assert lines[1].split() == ["bob", "bob@example.org"]


def test_users_list_says_who_wants_plain_text(players: Pbm):
    said = players.ok("run", "--from", "bob@example.org", "set bob hunter2 html off")
    assert "plain text only" in said
    lines = players.ok("users", "list").splitlines()
    assert lines[0].split() == ["alice", "alice@example.org"]
    assert lines[1].split() == ["bob", "bob@example.org", "(plain", "text)"]


def test_users_list_of_an_empty_database(pbm: Pbm):
    assert pbm.ok("users", "list") == ""


def test_users_passwd_sets_a_new_password(board: Pbm):
    out = board.ok("users", "passwd", "alice", "--password-stdin", input="n3wpass\n")
    assert "alice" in out and "changed" in out
    assert "n3wpass" not in out
    refused = board.ok("run", "--from", "alice@example.org", "trou move 101 alice secret 1B2")
    assert "Wrong password" in refused
    played = board.ok("run", "--from", "alice@example.org", "trou move 101 alice n3wpass 1B2")
    assert "Subject: Trou Board 101 bob" in played


def test_users_passwd_refuses_a_password_with_a_space(board: Pbm):
    """Once `users passwd alice "hunter22 extra"` set the password to hunter22 and exited 0:
    the CLI built a command line for the mail parser, which split the words."""
    result = board("users", "passwd", "alice", "--password-stdin", input="hunter22 extra\n")
    assert result.exit_code == 1
    assert "A password is one word: no spaces in it." in result.stderr
    for password in ("hunter22", "hunter22 extra"):
        refused = board.ok("run", "--from", "alice@example.org",
                           f"trou move 101 alice {password} 1B2")
        assert "Wrong password" in refused
    assert "Subject: Trou Board 101 bob" in board.ok(
        "run", "--from", "alice@example.org", "trou move 101 alice secret 1B2")


def test_users_add_refuses_a_password_with_a_space(pbm: Pbm):
    result = pbm("users", "add", "dora", "dora@example.org",
                 "--password-stdin", input="two words\n")
    assert result.exit_code == 1
    assert "no spaces" in result.stderr
    assert "dora" not in pbm.ok("users", "list")


def test_users_passwd_of_an_unknown_user(pbm: Pbm):
    result = pbm("users", "passwd", "nobody", "--password-stdin", input="n3wpass\n")
    assert result.exit_code == 1
    assert "nobody" in result.stderr


def test_users_remove_signs_off_and_declines(board: Pbm):
    before = len(board.mails())
    out = board.ok("users", "remove", "bob")
    assert "bob has signed off" in out
    assert "101" in out
    listed = board.ok("users", "list")
    assert "bob" in listed and "signed off" in listed
    # bob had not moved yet, so the board is declined (as `resign` would) and both are told.
    ended = board.mails()[before:]
    assert sorted(m.to for m in ended) == ["alice@example.org", "bob@example.org"]
    assert {m.subject for m in ended} == {"Trou Board 101"}
    assert all("bob declined Trou board 101" in m.body for m in ended)
    assert board.ok("games").strip() == "no boards"
    # A signed-off user can no longer be challenged.
    result = board("challenge", "trou", "alice", "bob")
    assert result.exit_code == 1


def test_users_remove_of_an_unknown_user(pbm: Pbm):
    result = pbm("users", "remove", "nobody")
    assert result.exit_code == 1
    assert "nobody" in result.stderr


# ----- challenge, show, games ---------------------------------------------------------------
def test_challenge_mails_both_players(players: Pbm):
    before = len(players.mails())
    out = players.ok("challenge", "trou", "alice", "bob")
    assert "New Trou Board 101 alice" in out
    new = players.mails()[before:]
    assert sorted(m.to for m in new) == ["alice@example.org", "bob@example.org"]
    for mail in new:
        assert mail.subject == "New Trou Board 101 alice"
        assert mail.body.startswith("A new Trou board (101) has been started\n")
        assert "Please start the game alice." in mail.body
        assert mail.message["Auto-Submitted"] == "auto-generated"
        assert mail.message["Message-ID"]
        assert mail.message["Date"]
    with players.session() as session:
        assert session.scalar(select(Board.id)) == 101


def test_challenge_takes_time_and_game_options_as_players_write_them(players: Pbm):
    out = players.ok("challenge", "loophole", "alice", "--totaltime=30", "bob",
                     "--nagtime=3", "--forfeittime=9")
    assert "New Loophole Board 101 alice" in out
    with players.session() as session:
        board = session.get(Board, 101)
        assert board is not None
        assert (board.nag_days, board.forfeit_days, board.total_days) == (3, 9, 30)
    # A game option reaches the game (click does not take it for one of its own).
    refused = players("challenge", "trou", "alice", "bob", "-size=11")
    assert refused.exit_code == 1
    assert "Trou takes no options (got '-size')" in refused.stderr


def test_boards_are_numbered_from_101(board: Pbm):
    out = board.ok("challenge", "TROU", "Bob", "Alice")
    assert "New Trou Board 102 bob" in out
    listed = board.ok("games")
    assert [line.split()[:2] for line in listed.splitlines()] == [["trou", "101"],
                                                                 ["trou", "102"]]


def test_challenge_with_an_unknown_user_exits_1(players: Pbm):
    before = len(players.mails())
    result = players("challenge", "trou", "alice", "zed")
    assert result.exit_code == 1
    assert "There is no user 'zed'" in result.stderr
    assert players.ok("games").strip() == "no boards"
    assert len(players.mails()) == before


def test_challenge_of_an_unknown_game_exits_1(players: Pbm):
    result = players("challenge", "chess", "alice", "bob")
    assert result.exit_code == 1
    assert "chess" in result.stderr


def test_challenge_with_too_few_players_exits_1(players: Pbm):
    result = players("challenge", "trou", "alice")
    assert result.exit_code == 1
    assert "2 players" in result.stderr


def test_show_public_view(board: Pbm):
    out = board.ok("show", "101")
    assert out.startswith("Summary of Trou Board 101\n")
    assert "Please start the game alice." in out
    assert "Red: alice" in out and "Black: bob" in out
    assert "  1  .   .   ." in out
    assert "e.g. 3B2" not in out  # the prompt is for the player to move only


def test_boards_are_numbered_per_game_and_show_asks_which(board: Pbm):
    board.ok("challenge", "loophole", "bob", "alice")
    assert board.mails()[-1].subject == "New Loophole Board 101 bob"
    result = board("show", "101")
    assert result.exit_code == 1
    assert "There is a board 101 in loophole and trou: say which game." in result.stderr
    assert board.ok("show", "trou", "101").startswith("Summary of Trou Board 101\n")
    assert board.ok("show", "loophole", "101").startswith("Summary of Loophole Board 101\n")
    wrong = board("show", "101", "102")
    assert wrong.exit_code == 1 and "There is no game called '101'" in wrong.stderr
    assert board("show", "trou", "101", "102").exit_code == 2  # usage


def test_show_names_a_tournament_board(board: Pbm):
    from pbm.boards import play
    from pbm.context import Context

    with board.session() as session, session.begin():  # as the tournament service does
        users = [session.scalars(select(User).where(User.userid == u)).one()
                 for u in ("bob", "alice")]
        play.start_board(Context(session, "", admin=True), registry.get("trou"), users, {}, "",
                         prefix="a")
    out = board.ok("show", "trou", "a101")
    assert out.startswith("Summary of Trou Board a101\n") and "Red: bob" in out
    assert board.ok("show", "A101", "--as", "bob").startswith("Summary of Trou Board a101\n")
    assert board.ok("show", "trou", "101").startswith("Summary of Trou Board 101\n")
    assert "Red: alice" in board.ok("show", "101")  # a plain number: the ordinary board alone
    missing = board("show", "trou", "a999")
    assert missing.exit_code == 1 and "There is no Trou board a999." in missing.stderr
    assert board("show", "trou", "a1b").exit_code == 2  # usage
    listed = board.ok("games")
    assert listed.index(" 101  alice") < listed.index("a101  bob")


def test_ladder_prints_the_ladder_as_its_mail_does(board: Pbm):
    from pbm.db.models import LadderRung

    assert board.ok("ladder", "trou").startswith("The Trou ladder: 0 players.")
    with board.session() as session, session.begin():
        for rank, userid in enumerate(("bob", "alice"), start=1):
            user = session.scalars(select(User).where(User.userid == userid)).one()
            session.add(LadderRung(game="trou", user_id=user.id, rank=rank,
                                   joined_at=utcnow()))
    out = board.ok("ladder", "Trou")
    assert out.startswith("The Trou ladder: 2 players. A player may challenge someone up to 3 ")
    ranked = [line.split()[:2] for line in out.splitlines() if line[:4].strip().isdigit()]
    assert ranked == [["1", "bob"], ["2", "alice"]]
    assert board.ok("ladder", "loophole").startswith("The Loophole ladder: 0 players.")
    missing = board("ladder", "nosuchgame")
    assert missing.exit_code != 0 and "nosuchgame" in missing.stderr


def test_show_as_a_player(board: Pbm):
    out = board.ok("show", "101", "--as", "alice")
    assert out.startswith("Summary of Trou Board 101\n")
    assert "Place any of your pawns on any cell, e.g. 3B2." in out
    assert "e.g. 3B2" not in board.ok("show", "101", "--as", "bob")


def test_show_after_a_move_and_as_it_was(board: Pbm):
    board.ok("run", "--from", "alice@example.org", "trou move 101 alice secret 1B2")
    now = board.ok("show", "101")
    assert "It is bob's turn." in now
    assert "1. 1B2" in now
    assert "R1" in now
    then = board.ok("show", "101", "--move", "0")
    assert "after move 0" in then
    assert "R1" not in then


def test_show_errors(board: Pbm):
    missing = board("show", "999")
    assert missing.exit_code == 1
    assert "999" in missing.stderr
    stranger = board("users", "add", "carol", "carol@example.org",
                     "--password-stdin", input="secret\n")
    assert stranger.exit_code == 0
    result = board("show", "101", "--as", "carol")
    assert result.exit_code == 1
    assert "carol does not play on board 101" in result.stderr


def test_games_lists_active_boards(board: Pbm):
    out = board.ok("games")
    assert out.splitlines() == [
        "trou          101  alice (Red), bob (Black)  Please start the game alice."
    ]


def test_games_lists_finished_boards_until_archived_and_all_forever(board: Pbm):
    for sender, line in (("alice", "trou move 101 alice secret 1B2"),
                         ("bob", "trou move 101 bob hunter2 4C2"),
                         ("alice", "trou resign 101 alice secret")):
        board.ok("run", "--from", f"{sender}@example.org", line)
    finished = "trou          101  alice (Red), bob (Black)  Game won by bob."
    for days, listed in ((13, [finished]), (15, ["no boards"])):
        with board.session() as session, session.begin():
            session.get(Board, 101).finished_at = utcnow() - timedelta(days=days)
        assert board.ok("games").splitlines() == listed, days
        assert board.ok("games", "--all").splitlines() == [finished], days
    assert "Game won by bob." in board.ok("show", "101")


def test_games_of_a_user(board: Pbm):
    board.ok("users", "add", "carol", "carol@example.org", "--password-stdin", input="secret\n")
    board.ok("challenge", "trou", "bob", "carol")
    alice = board.ok("games", "alice")
    assert [line.split()[1] for line in alice.splitlines()] == ["101"]
    bob = board.ok("games", "BOB")
    assert [line.split()[1] for line in bob.splitlines()] == ["101", "102"]
    unknown = board("games", "zed")
    assert unknown.exit_code == 1
    assert "zed" in unknown.stderr


def test_games_without_boards(players: Pbm):
    assert players.ok("games").strip() == "no boards"


# ----- help ---------------------------------------------------------------------------------
def test_help_prints_the_general_page(pbm: Pbm):
    page = (files("pbm.help") / "general.txt").read_text(encoding="utf-8")
    out = pbm.ok("help")
    assert out.startswith(page + "\nHelp topics\n")  # and the topics, as by mail
    assert "tutorial, votes" in out
    assert out.startswith("Help For pbm")


def test_help_of_a_game(pbm: Pbm):
    page = registry.get("trou").help_page()
    assert page.startswith("Help For Trou")
    assert pbm.ok("help", "trou") == page.rstrip("\n") + "\n"
    assert pbm.ok("help", "TROU") == pbm.ok("help", "trou")


def test_help_commands_lists_every_command(pbm: Pbm):
    from pbm.commands.grammar import ACCOUNT_COMMANDS, GAME_COMMANDS

    out = pbm.ok("help", "commands")
    for name in ACCOUNT_COMMANDS:
        assert f"  {name}" in out, name
    for name in GAME_COMMANDS:
        assert f"  game {name}" in out, name
    assert "multiple" in out


def test_help_of_an_unknown_topic_exits_1(pbm: Pbm):
    result = pbm("help", "nosuch")
    assert result.exit_code == 1
    assert "nosuch" in result.stderr
    assert "commands" in result.stderr and "trou" in result.stderr  # the topics there are
    assert result.stdout == ""


def test_help_does_not_need_a_database(bare: Pbm):
    bare.ok("help")
    assert not bare.database.exists()


# ----- run ----------------------------------------------------------------------------------
def test_run_prints_the_replies_and_sends_nothing(board: Pbm):
    before = sorted(os.listdir(board.maildir / "new"))
    with board.session() as session:
        queued_before = len(list(session.scalars(select(OutboxMail))))
    out = board.ok("run", "--from", "alice@example.org", "trou move 101 alice secret 1B2")
    assert "To: alice@example.org\nSubject: Trou Board 101 bob\n\nSummary of Trou Board 101\n" \
        in out
    assert "To: bob@example.org\nSubject: Trou Board 101 bob\n" in out
    assert out.count("It is bob's turn.") == 2
    assert "secret" not in out
    # Not sent: the Maildir and the outbox are as they were.
    assert sorted(os.listdir(board.maildir / "new")) == before
    with board.session() as session:
        assert len(list(session.scalars(select(OutboxMail)))) == queued_before
        # ... but the move was played and stored.
        assert session.get(Board, 101).move_count == 1


def test_run_accepts_the_command_as_several_words(board: Pbm):
    out = board.ok("run", "--from", "alice@example.org", "trou", "move", "101", "alice",
                   "secret", "1B2")
    assert "Subject: Trou Board 101 bob" in out


def test_run_errors_are_replies_with_the_password_masked(board: Pbm):
    out = board.ok("run", "--from", "bob@example.org", "trou move 101 bob hunter2 2A1")
    assert "To: bob@example.org" in out
    assert "Subject: Trou Board 101 Error" in out
    assert "not your turn" in out
    assert "hunter2" not in out
    assert "trou move 101 bob ******** 2A1" in out
    with board.session() as session:
        assert session.get(Board, 101).move_count == 0


def test_run_help_from_a_stranger(pbm: Pbm):
    out = pbm.ok("run", "--from", "Stranger@Example.ORG", "help")
    assert out.startswith("To: stranger@example.org\nSubject: ")
    assert "Help For pbm" in out


def test_run_needs_a_sender(pbm: Pbm):
    result = pbm("run", "help")
    assert result.exit_code == 2
    assert "--from" in result.stderr


# ----- outbox and inbox ---------------------------------------------------------------------
def test_outbox_lists_mail_the_relay_did_not_take_and_retries_it(players: Pbm):
    before = len(players.mails())
    players.ok("challenge", "trou", "alice", "bob", env={"PBM_DELIVERY_RELAY": UNREACHABLE_RELAY})
    assert len(players.mails()) == before  # nothing reached the Maildir
    listing = players.ok("outbox")
    lines = listing.splitlines()
    assert len(lines) == 2
    for line, recipient in zip(lines, ["alice@example.org", "bob@example.org"]):
        assert "pending" in line
        # The relay was never reached, so no attempt is charged to either mail; both wait
        # with the reason shown and are due for the next courier.
        assert "tries 0" in line
        assert "due now" in line
        assert recipient in line
        assert "New Trou Board 101 alice" in line
        assert "Connection" in line or "Errno" in line  # the last error is shown
    assert players.ok("outbox", "list") == listing

    # Without the relay the retry lands in the Maildir.
    out = players.ok("outbox", "retry")
    assert "requeued 2; sent 2, failed 0" in out
    assert len(players.mails()) == before + 2
    assert players.ok("outbox").strip() == "outbox empty"
    everything = players.ok("outbox", "list", "--all").splitlines()
    assert sum("sent" in line for line in everything) == len(everything) >= 2


def test_outbox_is_empty_when_everything_went_out(board: Pbm):
    assert board.ok("outbox").strip() == "outbox empty"


def test_outbox_flush_delivers_mail_waiting_for_its_retry_too(players: Pbm):
    players.ok("challenge", "trou", "alice", "bob", env={"PBM_DELIVERY_RELAY": UNREACHABLE_RELAY})
    with players.session() as session, session.begin():
        for mail in session.scalars(select(OutboxMail).where(OutboxMail.status == "pending")):
            mail.next_attempt_at = utcnow() + timedelta(hours=1)  # as after a few 4xx
    listing = players.ok("outbox").splitlines()
    assert len(listing) == 2
    assert all(re.search(r"pending .* next \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", line)
               for line in listing)
    out = players.ok("outbox", "flush")
    assert "sent 2, failed 0" in out
    assert players.ok("outbox").strip() == "outbox empty"


def test_outbox_retry_resends_the_failed_mail_named(players: Pbm):
    players.ok("challenge", "trou", "alice", "bob", env={"PBM_DELIVERY_RELAY": UNREACHABLE_RELAY})
    with players.session() as session, session.begin():
        for mail in session.scalars(select(OutboxMail).where(OutboxMail.status == "pending")):
            mail.status, mail.last_error = "failed", "550 5.1.1 no such user"
    first = players.ok("outbox").splitlines()[0].split()[0]
    assert "requeued 1; sent 1, failed 0" in players.ok("outbox", "retry", first)
    (left,) = players.ok("outbox").splitlines()
    assert "failed" in left and "[550 5.1.1 no such user]" in left


@pytest.mark.sqlite_only("SQLite's write lock; a PostgreSQL reader never waits for a writer")
def test_outbox_list_reads_while_another_process_writes(players: Pbm):
    players.ok("challenge", "trou", "alice", "bob", env={"PBM_DELIVERY_RELAY": UNREACHABLE_RELAY})
    writer = sqlite3.connect(players.database, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # e.g. `pbm serve` storing a mail
    try:
        started = time.monotonic()
        assert len(players.ok("outbox").splitlines()) == 2
        assert time.monotonic() - started < 5  # not held up by the write lock
    finally:
        writer.rollback()
        writer.close()


def test_inbox_lists_failed_mail(players: Pbm):
    assert players.ok("inbox").strip() == "no failed mail"
    with players.session() as session, session.begin():
        session.add(InboundMessage(
            message_key="<broken.1@example.org>",
            envelope_from="alice@example.org",
            raw=b"From: alice@example.org\r\nSubject: trou show 101\r\n\r\nhi\r\n",
            status="failed",
            error="Traceback (most recent call last):\n  ...\nValueError: boom\n",
        ))
    listing = players.ok("inbox")
    lines = listing.splitlines()
    assert len(lines) == 1
    assert "failed" in lines[0]
    assert "alice@example.org" in lines[0]
    assert "<broken.1@example.org>" in lines[0]
    assert "[ValueError: boom]" in lines[0]
    ident = lines[0].split()[0]
    shown = players.ok("inbox", "show", ident)
    assert shown.startswith("status: failed\n")
    assert "ValueError: boom" in shown
    assert "Subject: trou show 101" in shown


def test_inbox_after_pbm_process(board: Pbm):
    raw = (b"From: Bob <bob@example.org>\r\nTo: pbm@games.test\r\n"
           b"Subject: trou show 101\r\nMessage-ID: <show.1@example.org>\r\n\r\nthanks\r\n")
    before = len(board.mails())
    result = board("process", "--sender", "bob@example.org", input=raw)
    assert result.exit_code == 0, result.stderr
    replies = board.mails()[before:]
    assert [(m.to, m.subject) for m in replies] == [("bob@example.org", "Trou Board 101")]
    assert replies[0].message["In-Reply-To"] == "<show.1@example.org>"
    assert board.ok("inbox").strip() == "no failed mail"
    everything = board.ok("inbox", "list", "--all").splitlines()
    assert len(everything) == 1
    assert "done" in everything[0] and "<show.1@example.org>" in everything[0]
    # The same mail again is stored once and answered once.
    again = board("process", "--sender", "bob@example.org", input=raw)
    assert again.exit_code == 0
    assert len(board.mails()) == before + 1
    assert len(board.ok("inbox", "list", "--all").splitlines()) == 1


def test_inbox_show_of_an_unknown_mail(pbm: Pbm):
    result = pbm("inbox", "show", "42")
    assert result.exit_code == 1
    assert "42" in result.stderr


# ----- the group itself --------------------------------------------------------------------
def test_every_subcommand_of_the_issue_exists(pbm: Pbm):
    out = pbm.ok("--help")
    for name in ("serve", "process", "run", "challenge", "show", "games", "users", "help", "db",
                 "outbox", "inbox"):
        assert f"  {name}" in out, name


def test_version(pbm: Pbm):
    assert "version" in pbm.ok("--version")


# ----- pruning ------------------------------------------------------------------------------
def test_prune_drops_old_mail_text_but_keeps_what_matters(board: Pbm):
    """Old delivered replies go; old handled mail loses its text (it holds passwords) but
    keeps its Message-ID; failed and pending mail and recent mail are never touched."""
    raw = (b"From: alice@example.org\r\nSubject: trou move 101 alice secret 1B2\r\n"
           b"Message-ID: <old-move@example.org>\r\n\r\n\r\n")
    board.ok("process", input=raw)
    with stores.sql(board.database) as db:
        db.execute("update inbound_messages set received_at = '2000-01-01 00:00:00'")
        db.execute("update outbox set sent_at = '2000-01-01 00:00:00' where id = 1")
        sent = db.execute("select count(*) from outbox where status = 'sent'").fetchone()[0]
        counters = db.execute("select count(*) from rate_counters").fetchone()[0]
        db.execute("update rate_counters set window_start = '2000-01-01 00:00:00' "
                    "where key like 'mails-from:%'")
        expired = db.execute("select count(*) from rate_counters where key like 'mails-from:%'"
                             ).fetchone()[0]
    assert sent >= 2 and expired >= 1
    out = board.ok("inbox", "prune", "--days", "30")
    assert "pruned the text of 1 handled mail" in out
    assert f"forgot {expired} expired rate counter(s)" in out
    with stores.sql(board.database) as db:  # counters of a running window stay
        assert db.execute("select count(*) from rate_counters").fetchone()[0] \
            == counters - expired
    assert "deleted 1 delivered mail" in board.ok("outbox", "prune", "--days", "30")
    with stores.sql(board.database) as db:
        key, text = db.execute("select message_key, raw from inbound_messages").fetchone()
        left = db.execute("select count(*) from outbox").fetchone()[0]
    assert key == "<old-move@example.org>" and text == b""
    assert left == sent - 1
    # The same mail arriving again is still recognised and not played twice.
    board.ok("process", input=raw)
    with stores.sql(board.database) as db:
        assert db.execute("select move_count from boards").fetchone()[0] == 1


# ----- tick ---------------------------------------------------------------------------------
def test_tick_dry_run_says_what_would_happen_and_does_nothing(board: Pbm):
    later = (datetime.now(UTC) + timedelta(days=8)).strftime("%Y-%m-%dT%H:%M")
    mails = len(board.mails())
    out = board.ok("tick", "--now", later, "--dry-run")
    assert "Would do: 1 nag(s), 0 forfeit(s)" in out and "nagged alice on Trou board 101" in out
    assert len(board.mails()) == mails
    out = board.ok("tick", "--now", later)
    assert "1 nag(s)" in out and "1 mail(s) delivered now" in out
    assert board.mails()[-1].subject == "Nag: Trou Board 101 alice"
    assert "0 nag(s), 0 forfeit(s)" in board.ok("tick", "--now", later)


def test_tick_refuses_a_bad_moment(board: Pbm):
    result = board("tick", "--now", "next tuesday")
    assert result.exit_code == 2
    assert "'next tuesday' is not a date and time; write it like 2027-01-15T12:00" in \
        result.stderr
