"""pbm behind a real Postfix, configured as README.md says: mail in by LMTP (`pbm serve --lmtp`)
and by pipe (`pbm process`), replies relayed back out through the same Postfix into the
players' Maildirs, and Postfix's own bounces handed to pbm as from <> and never answered."""

from __future__ import annotations

import mailbox
import os
import re
import shutil
import smtplib
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid
from pathlib import Path

import pytest

from tests.mta.postfix import NOBODY, Postfix, pbm_command_for, unavailable
from tests.server.harness import PbmServer

README = Path(__file__).parents[2] / "README.md"
PLAYERS = "players.test"
PASSWORD = "secret1"
TROU_GAME = ("1B2", "4C2", "2B1", "2B3", "4A2", "3C3", "3A3", "1A1")  # the first player wins

# The README's recipe, with its example names as placeholders (checked against README.md).
MAIN_CF = ("relay_domains = {domains}\n"
           "transport_maps = hash:{etc}/transport\n"
           "relay_recipient_maps = hash:{etc}/pbm_recipients")
LMTP_TRANSPORT = "{domain}   lmtp:inet:127.0.0.1:{port}"
PIPE_TRANSPORT = "{domain}   pbm:"
RECIPIENT = "pbm@{domain}   OK"
PIPE_SERVICE = ("pbm  unix  -  n  n  -  -  pipe\n"
                "  flags=Rq user={user} null_sender= argv={pbm} --config {config} "
                "process --sender ${{sender}} --client-address ${{client_address}}")
RELAY = 'relay = "smtp://127.0.0.1:{port}"'


def test_the_readme_gives_this_recipe():
    # The recipe's lines as an operator copies them: code blocks without their indentation.
    readme = "\n".join(line.removeprefix("    ")
                       for line in README.read_text(encoding="utf-8").splitlines())
    example = "games.example.org"
    for line in (MAIN_CF.format(domains=example, etc="/etc/postfix"),
                 LMTP_TRANSPORT.format(domain=example, port=2525),
                 PIPE_TRANSPORT.format(domain=example),
                 RECIPIENT.format(domain=example),
                 PIPE_SERVICE.format(user="pbm", pbm="/opt/pbm/.venv/bin/pbm",
                                     config="/etc/pbm.toml"),
                 RELAY.format(port=25),
                 "postmap /etc/postfix/transport",
                 "postmap /etc/postfix/pbm_recipients"):
        assert line in readme, line


class Site:
    """Postfix in front of two pbm servers: lmtp.test (pbm serve) and pipe.test (process)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.postfix = Postfix(root / "postfix", PLAYERS,
                               mailboxes=("alice", "bob", "carol", "dave"))
        self.serve = PbmServer(root / "lmtp")
        self.pipe_folder = root / "pipe"

    def start(self) -> None:
        relay = RELAY.format(port=self.postfix.port)
        self.serve.folder.mkdir(parents=True)
        self.serve.config_file.write_text(
            '[server]\naddress = "pbm@lmtp.test"\nhostname = "lmtp.test"\n'
            '[smtpd]\nhost = "127.0.0.1"\nport = 0\nprotocol = "lmtp"\n'
            f"[delivery]\n{relay}\nretry_seconds = 1\n")
        self.serve.start()
        # The pipe runs pbm as an unprivileged user (Postfix refuses root): its folder is its.
        self.pipe_folder.mkdir()
        (self.pipe_folder / "pbm.toml").write_text(
            '[server]\naddress = "pbm@pipe.test"\nhostname = "pipe.test"\n'
            f"[delivery]\n{relay}\n")
        os.chown(self.pipe_folder, NOBODY, NOBODY)
        pbm = pbm_command_for(NOBODY, self.root)
        etc = self.postfix.etc
        self.postfix.main_cf.append(MAIN_CF.format(domains="lmtp.test, pipe.test", etc=etc))
        self.postfix.master_cf.append(PIPE_SERVICE.format(
            user="nobody", pbm=pbm, config=self.pipe_folder / "pbm.toml"))
        self.postfix.maps["transport"] = (
            LMTP_TRANSPORT.format(domain="lmtp.test", port=self.serve.port) + "\n"
            + PIPE_TRANSPORT.format(domain="pipe.test") + "\n")
        self.postfix.maps["pbm_recipients"] = "".join(
            RECIPIENT.format(domain=domain) + "\n" for domain in ("lmtp.test", "pipe.test"))
        self.postfix.start()

    def stop(self) -> None:
        try:
            self.postfix.stop()
        finally:
            self.serve.stop()

    def diagnostics(self) -> str:
        parts = [self.postfix.diagnostics()]
        if self.serve.log.exists():
            parts.append("--- pbm serve\n" + self.serve.log.read_text(errors="replace")[-4000:])
        return "\n".join(parts)

    def send(self, sender: str, to: str, subject: str, body: str = "") -> None:
        message = EmailMessage()
        message["From"] = sender
        message["To"] = to
        message["Subject"] = subject
        message["Message-ID"] = make_msgid(domain=PLAYERS)
        message.set_content(body or "Sent through Postfix.\n")
        with smtplib.SMTP("127.0.0.1", self.postfix.port, timeout=30) as smtp:
            smtp.send_message(message)

    def mails(self, player: str) -> list[EmailMessage]:
        """What the player's Maildir holds, in the order Postfix delivered it."""
        folder = self.postfix.mailbox(player)
        # virtual(8) makes the Maildir's folder, then its tmp, new and cur one by one: a
        # look in between would find a Maildir that is not one yet.
        if not all((folder / part).is_dir() for part in ("tmp", "new", "cur")):
            return []
        box = mailbox.Maildir(folder, create=False)
        found = []
        for key in sorted(box.keys(), key=_delivered_at):
            message = BytesParser(policy=policy.default).parsebytes(box.get_bytes(key))
            assert isinstance(message, EmailMessage)
            found.append(message)
        return found

    def wait(self, what: str, done: Callable[[], bool], seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while not done():
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {seconds} s for {what}\n{self.diagnostics()}")
            time.sleep(0.1)


def _delivered_at(key: str) -> tuple[int, int]:
    """virtual(8) names a Maildir file <seconds>.V<device>I<inode>M<microseconds>.<host>."""
    found = re.match(r"(\d+)\.V\w+?M(\d+)\.", key)
    assert found, key
    return int(found.group(1)), int(found.group(2))


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    reason = unavailable()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (.ci/run installs it)")
        pytest.skip(reason)
    # Not under pytest's private tmp folder: virtual(8) and the pipe run as nobody.
    root = Path(tempfile.mkdtemp(prefix="pbm-postfix-"))
    root.chmod(0o755)
    running = Site(root)
    try:
        running.start()
        yield running
    finally:
        running.stop()
        shutil.rmtree(root, ignore_errors=True)


def board_mails(site: Site, player: str) -> list[EmailMessage]:
    return [m for m in site.mails(player) if str(m["Subject"]).startswith("Trou Board 101")]


def play(site: Site, server: str, red: str, black: str) -> None:
    """Sign both up, challenge, and play a whole Trou game, waiting for each board mail."""
    for player in (red, black):
        site.send(f"{player}@{PLAYERS}", server, f"signup {player} {PASSWORD}")
        site.wait(f"{player}'s welcome", lambda p=player: len(site.mails(p)) >= 1)
    site.send(f"{red}@{PLAYERS}", server, f"trou challenge {red} {black}")
    for player in (red, black):
        site.wait(f"the new board for {player}", lambda p=player: any(
            str(m["Subject"]).startswith("New Trou Board 101") for m in site.mails(p)))
    for number, move in enumerate(TROU_GAME, start=1):
        mover = red if number % 2 else black
        site.send(f"{mover}@{PLAYERS}", server, f"trou move 101 {mover} {PASSWORD} {move}")
        for player in (red, black):
            site.wait(f"board mail {number} for {player}",
                      lambda p=player, n=number: len(board_mails(site, p)) >= n)
    for player in (red, black):
        mails = board_mails(site, player)
        assert len(mails) == len(TROU_GAME)
        last = mails[-1].get_body(preferencelist=("plain",))
        assert last is not None and f"Game won by {red}." in last.get_content()
        for mail in site.mails(player):
            # Every reply went out through the relay, Postfix, and virtual(8) to the Maildir.
            assert "(Postfix)" in str(mail["Received"]), mail["Received"]
            assert str(mail["From"]).endswith(server + ">") or str(mail["From"]) == server
            assert mail["Return-Path"] == f"<{server}>"


def stored(database: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        return connection.execute(sql).fetchall()


def bounce_is_stored_and_not_answered(site: Site, server: str, database: Path) -> None:
    """pbm answers a stranger whose mailbox does not exist; Postfix bounces the answer back
    to pbm from <>; pbm keeps the bounce and sends nothing for it."""
    site.send(f"ghost@{PLAYERS}", server, "help")
    site.wait("the bounce stored by pbm", lambda: database.exists() and bool(stored(
        database, "SELECT id FROM inbound_messages WHERE envelope_from = '<>'")))
    site.wait("Postfix's queue to empty", site.postfix.queue_is_empty)
    site.wait("pbm's outbox to empty", lambda: not stored(
        database, "SELECT id FROM outbox WHERE status NOT IN ('sent', 'failed')"))
    (raw,), = stored(database, "SELECT raw FROM inbound_messages WHERE envelope_from = '<>'")
    assert b"multipart/report" in raw and b"ghost@players.test" in raw  # a real Postfix DSN
    recipients = [r for (r,) in stored(database, "SELECT recipient FROM outbox")]
    assert recipients.count(f"ghost@{PLAYERS}") == 1  # the one answer to the stranger's help
    assert not [r for r in recipients if "MAILER-DAEMON" in r.upper() or r in ("", "<>")]


def test_a_game_by_lmtp_with_replies_through_postfix(site: Site):
    play(site, "pbm@lmtp.test", "alice", "bob")
    bounce_is_stored_and_not_answered(site, "pbm@lmtp.test", site.serve.database)


def test_a_game_by_pipe_with_replies_through_postfix(site: Site):
    play(site, "pbm@pipe.test", "carol", "dave")
    bounce_is_stored_and_not_answered(site, "pbm@pipe.test", site.pipe_folder / "pbm.sqlite")
    log = site.postfix.log.read_text()
    assert "relay=pbm" in log and "status=sent (delivered via pbm service" in log
    # pbm's outcome line, then its own log lines, go to standard error, which Postfix's pipe
    # writes into its log beside its queue ID, cut short: the outcome comes first, so it is
    # kept whole, and the operator sees both records in one line.
    assert re.search(r"relay=pbm, .*status=sent \(delivered via pbm service \(pbm: stored "
                     r"inbound mail \d+ \(done\): \d+ repl(y|ies) queued \S+ \S+ INFO inbound "
                     r"mail \d+", log)
