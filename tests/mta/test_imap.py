"""pbm with just a mailbox: a real Dovecot holds the server's mail (IMAP over TLS with a
test certificate), pbm reads it with IDLE, and its replies go out over SMTP submission with
implicit TLS and AUTH to a sink that presents the test certificate, DKIM-signed."""

from __future__ import annotations

import imaplib
import os
import re
import ssl
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import dkim
import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from tests.mta import certs
from tests.mta.dovecot import Dovecot, unavailable
from tests.mta.postfix import free_port
from tests.server.harness import PbmServer

SERVER = "pbm@games.test"
PASSWORD = "secret1"
RELAY_USER, RELAY_PASSWORD = "pbm-relay", "relay-secret"
TROU_GAME = ("1B2", "4C2", "2B1", "2B3", "4A2", "3C3", "3A3", "1A1")  # the first player wins


@pytest.fixture(scope="module")
def tls(tmp_path_factory) -> certs.Certificates:
    if unavailable():
        message = unavailable()
        if os.environ.get("CI"):
            pytest.fail(f"{message} (.ci/run installs it)")
        pytest.skip(message)
    return certs.make(tmp_path_factory.mktemp("certs"))


@pytest.fixture
def dovecot(tls, request) -> Iterator[Dovecot]:
    # Not under pytest's private tmp folder: Dovecot's mail processes run as nobody.
    root = Path(tempfile.mkdtemp(prefix="pbm-dovecot-"))
    root.chmod(0o755)
    marker = request.node.get_closest_marker("dovecot_conf")
    server = Dovecot(root, tls, extra_conf=marker.args[0] if marker else "")
    server.start()
    try:
        yield server
    finally:
        server.stop()
        server.remove()


class Sink:
    """A submission server: implicit TLS with the test certificate, AUTH required."""

    def __init__(self, tls: certs.Certificates):
        self.mails: list[tuple[list[str], bytes]] = []
        self.logins: list[str] = []
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(tls.cert, tls.key)
        self.controller = Controller(self, hostname="127.0.0.1", port=free_port(),
                                     ssl_context=context,
                                     authenticator=self._authenticate, auth_required=True,
                                     # Every byte is TLS already (implicit, port 465 style):
                                     # aiosmtpd's check knows only STARTTLS's.
                                     auth_require_tls=False)

    def _authenticate(self, server, session, envelope, mechanism, auth_data):
        if isinstance(auth_data, LoginPassword) and auth_data.login.decode() == RELAY_USER \
                and auth_data.password.decode() == RELAY_PASSWORD:
            self.logins.append(mechanism)
            return AuthResult(success=True)
        return AuthResult(success=False, handled=False)

    async def handle_DATA(self, server, session, envelope):
        self.mails.append((list(envelope.rcpt_tos), envelope.original_content))
        return "250 2.0.0 OK"

    @property
    def port(self) -> int:
        return self.controller.port

    def to(self, address: str) -> list[EmailMessage]:
        found = []
        for rcpts, raw in list(self.mails):
            if address in rcpts:
                message = message_from_bytes(raw, policy=policy.default)
                assert isinstance(message, EmailMessage)
                found.append(message)
        return found


@pytest.fixture
def sink(tls) -> Iterator[Sink]:
    running = Sink(tls)
    running.controller.start()
    try:
        yield running
    finally:
        running.controller.stop()


def dkim_key(folder: Path) -> Path:
    import subprocess

    key = folder / "dkim.key"
    subprocess.run(["openssl", "genrsa", "-out", str(key), "2048"], check=True,
                   capture_output=True)
    return key


def pbm_with_mailbox(folder: Path, dovecot: Dovecot, sink: Sink, ca: Path,
                     extra: str = "", relay_ca: Path | None = None,
                     imap_extra: str = "") -> PbmServer:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "imap.password").write_text(dovecot.password + "\n")
    (folder / "relay.password").write_text(RELAY_PASSWORD + "\n")
    key = dkim_key(folder)
    server = PbmServer(folder, extra_config=(
        f'relay = "smtps://{RELAY_USER}@127.0.0.1:{sink.port}"\n'
        'relay_password_file = "relay.password"\n'
        f'relay_ca_file = "{relay_ca or ca}"\n'
        "retry_seconds = 1\n"
        "[imap]\n"
        'host = "127.0.0.1"\n'
        f"port = {dovecot.imaps_port}\n"
        f'user = "{dovecot.user}"\n'
        'password_file = "imap.password"\n'
        f'ca_file = "{ca}"\n'
        "idle_seconds = 60\n" + imap_extra +
        "[dkim]\n"
        'domain = "games.test"\nselector = "pbm2026"\n'
        f'key_file = "{key}"\n' + extra))
    return server


class Mailbox:
    """A player's mail client: APPENDs to the server's mailbox over IMAP with TLS."""

    def __init__(self, dovecot: Dovecot):
        self.dovecot = dovecot

    def client(self) -> imaplib.IMAP4_SSL:
        context = ssl.create_default_context(cafile=str(self.dovecot.certificates.ca))
        client = imaplib.IMAP4_SSL("127.0.0.1", self.dovecot.imaps_port, ssl_context=context)
        client.login(self.dovecot.user, self.dovecot.password)
        return client

    def append(self, raw: bytes, folder: str = "INBOX") -> None:
        with self.client() as client:
            status, _ = client.append(folder, "", imaplib.Time2Internaldate(time.time()), raw)
            assert status == "OK"
            client.logout()

    def count(self, folder: str) -> int:
        with self.client() as client:
            status, data = client.status(folder, "(MESSAGES)")
            client.logout()
        if status != "OK":
            return 0
        found = re.search(rb"MESSAGES (\d+)", data[0] or b"")
        return int(found.group(1)) if found else 0


def command(sender: str, subject: str, body: str = "Sent by IMAP.\n") -> bytes:
    message = EmailMessage()
    message["Return-Path"] = f"<{sender}>"
    message["From"] = sender
    message["To"] = SERVER
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain="players.test")
    message.set_content(body)
    return message.as_bytes(policy=policy.SMTP)


def wait(what: str, done: Callable[[], bool], server: PbmServer, dovecot: Dovecot,
         seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds} s for {what}\n--- pbm serve\n"
                                 + server.log.read_text(errors="replace")[-4000:]
                                 + dovecot.diagnostics())
        time.sleep(0.1)


def start(server: PbmServer, dovecot: Dovecot) -> None:
    """Start pbm and wait until it reads the mailbox (mail put in before then is the first
    start's backlog)."""
    before = server.log.read_text().count(": reading (IDLE") if server.log.exists() else 0
    server.start()
    wait("pbm to read the mailbox", lambda: server.log.read_text().count(": reading (IDLE")
         > before, server, dovecot)


# Dovecot's list after login, less IDLE: a server pbm must poll.
NO_IDLE = ("imap_capability = IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE SORT LITERAL+ "
           "UIDPLUS MOVE NAMESPACE CHILDREN\n")


def published(name: str, record: str) -> Callable:
    def dns(query: bytes, timeout: int = 5) -> bytes | None:
        return record.encode() if query == (name + ".").encode() else None

    return dns


def dns_record(folder: Path) -> tuple[str, str]:
    from pbm.config import load
    from pbm.mail.signing import dns_record as record

    return record(load(folder / "pbm.toml", env={}))


def test_a_whole_game_through_a_mailbox(tmp_path: Path, dovecot: Dovecot, sink: Sink):
    server = pbm_with_mailbox(tmp_path / "pbm", dovecot, sink, dovecot.certificates.ca)
    start(server, dovecot)
    try:
        box = Mailbox(dovecot)
        for player in ("alice", "bob"):
            box.append(command(f"{player}@players.test", f"signup {player} {PASSWORD}"))
            wait(f"{player}'s welcome", lambda p=player: sink.to(f"{p}@players.test"),
                 server, dovecot)
        box.append(command("alice@players.test", "trou challenge alice bob"))
        wait("the new board", lambda: len(sink.to("bob@players.test")) >= 2, server, dovecot)
        for number, move in enumerate(TROU_GAME, start=1):
            mover = "alice" if number % 2 else "bob"
            box.append(command(f"{mover}@players.test",
                               f"trou move 101 {mover} {PASSWORD} {move}"))
            wait(f"board mail {number}", lambda n=number: all(
                len([m for m in sink.to(f"{p}@players.test")
                     if str(m["Subject"]).startswith("Trou Board 101")]) >= n
                for p in ("alice", "bob")), server, dovecot)
        last = [m for m in sink.to("bob@players.test")
                if str(m["Subject"]).startswith("Trou Board 101")][-1]
        body = last.get_body(preferencelist=("plain",))
        assert body is not None and "Game won by alice." in body.get_content()
        # Every mail read was moved once it was stored: none is left, none read twice.
        sent = 2 + 1 + len(TROU_GAME)
        wait("the folders to settle", lambda: box.count("pbm-processed") == sent, server,
             dovecot)
        assert box.count("INBOX") == 0 and box.count("pbm-failed") == 0
        log = server.log.read_text()
        assert log.count("received before, not handled again") == 0
        assert "first start: 0 mail(s) already in the folder" in log
    finally:
        server.stop()
    # Each reply went over TLS with AUTH (never without: the sink requires both) ...
    assert sink.logins and set(sink.logins) <= {"PLAIN", "LOGIN"}
    # ... and carries a DKIM signature that verifies against the key pbm says to publish.
    name, record = dns_record(tmp_path / "pbm")
    assert name == "pbm2026._domainkey.games.test"
    for _rcpts, raw in sink.mails:
        assert raw.startswith(b"DKIM-Signature:")
        assert dkim.verify(raw, dnsfunc=published(name, record)), raw[:400]
    tampered = sink.mails[-1][1].replace(b"Game won by alice.", b"Game won by bob!!")
    assert not dkim.verify(tampered, dnsfunc=published(name, record))


def test_a_wrong_certificate_is_refused(tmp_path: Path, dovecot: Dovecot, sink: Sink):
    """Trusting another CA, pbm reads nothing from the mailbox and sends nothing, says why,
    and keeps trying (no crash loop)."""
    box = Mailbox(dovecot)
    box.append(command("alice@players.test", "help"))
    server = pbm_with_mailbox(tmp_path / "pbm", dovecot, sink, dovecot.certificates.stranger_ca)
    server.start()
    try:
        wait("the certificate complaint", lambda: server.log.read_text().count(
            "certificate does not check out") >= 2, server, dovecot, seconds=30)
        assert server.process is not None and server.process.poll() is None
        assert box.count("INBOX") == 1 and not sink.mails
    finally:
        server.stop()


def test_the_relay_certificate_is_checked(tmp_path: Path, dovecot: Dovecot, sink: Sink):
    server = pbm_with_mailbox(tmp_path / "pbm", dovecot, sink, dovecot.certificates.ca,
                              relay_ca=dovecot.certificates.stranger_ca)
    start(server, dovecot)
    try:
        Mailbox(dovecot).append(command("alice@players.test", "help"))
        wait("the relay's certificate refused", lambda: "presented a certificate that does "
             "not check out" in server.log.read_text(), server, dovecot)
        assert not sink.mails  # the reply waits in the outbox, nothing went in the clear
    finally:
        server.stop()


def test_wrong_credentials_are_logged_and_retried(tmp_path: Path, dovecot: Dovecot,
                                                  sink: Sink):
    server = pbm_with_mailbox(tmp_path / "pbm", dovecot, sink, dovecot.certificates.ca)
    (tmp_path / "pbm").mkdir(parents=True, exist_ok=True)
    server.start()
    server.stop()
    (tmp_path / "pbm" / "imap.password").write_text("not-the-password\n")
    server.start()
    try:
        wait("two refused logins", lambda: server.log.read_text().count(
            "refused: NO") >= 2, server, dovecot, seconds=30)
        log = server.log.read_text()
        assert f"login as '{dovecot.user}' refused" in log
        assert "not-the-password" not in log
        waits = [int(s) for s in re.findall(r"trying again in (\d+) s", log)]
        assert waits[:3] == [1, 2, 4][:len(waits[:3])]  # backoff, not a loop
        assert server.process is not None and server.process.poll() is None
    finally:
        server.stop()


def test_a_backlog_is_left_unanswered_on_first_start(tmp_path: Path, dovecot: Dovecot,
                                                     sink: Sink):
    dovecot.put_backlog([command(f"old{n}@players.test", "help") for n in range(10_000)])
    box = Mailbox(dovecot)
    assert box.count("INBOX") == 10_000
    server = pbm_with_mailbox(tmp_path / "pbm", dovecot, sink, dovecot.certificates.ca)
    start(server, dovecot)
    try:
        wait("the first start", lambda: "first start:" in server.log.read_text(), server,
             dovecot)
        assert "first start: 10000 mail(s) already in the folder are left unanswered" \
            in server.log.read_text()
        box.append(command("new@players.test", "help"))
        wait("the new mail's answer", lambda: sink.to("new@players.test"), server, dovecot)
        time.sleep(1)
        assert [rcpts for rcpts, _ in sink.mails] == [["new@players.test"]]
        assert box.count("INBOX") == 10_000 and box.count("pbm-processed") == 1
        # A restart is not a first start: the backlog is still left alone.
        server.stop()
        start(server, dovecot)
        box.append(command("newer@players.test", "help"))
        wait("the next answer", lambda: sink.to("newer@players.test"), server, dovecot)
        assert len(sink.mails) == 2
    finally:
        server.stop()


def test_dovecot_restarted_mid_idle(tmp_path: Path, dovecot: Dovecot, sink: Sink):
    server = pbm_with_mailbox(tmp_path / "pbm", dovecot, sink, dovecot.certificates.ca)
    start(server, dovecot)
    try:
        box = Mailbox(dovecot)
        box.append(command("alice@players.test", "help"))
        wait("the first answer", lambda: sink.to("alice@players.test"), server, dovecot)
        dovecot.restart()
        box.append(command("bob@players.test", "help"))
        wait("the answer after the restart", lambda: sink.to("bob@players.test"), server,
             dovecot)
        assert len(sink.mails) == 2 and box.count("pbm-processed") == 2
        assert "trying again in" in server.log.read_text()
    finally:
        server.stop()


def test_mail_outside_the_limits_goes_to_failed(tmp_path: Path, dovecot: Dovecot, sink: Sink):
    server = pbm_with_mailbox(tmp_path / "pbm", dovecot, sink, dovecot.certificates.ca,
                              extra="[limits]\nmax_headers = 20\n")
    server.config_file.parent.mkdir(parents=True, exist_ok=True)
    server.write_config()
    text = server.config_file.read_text().replace("max_message_bytes = 1048576",
                                                  "max_message_bytes = 4096")
    server.config_file.write_text(text)
    start(server, dovecot)
    try:
        box = Mailbox(dovecot)
        box.append(command("big@players.test", "help", "x" * 70 + "\n" * 1 + ("y" * 70 + "\n")
                           * 100))
        many = command("many@players.test", "help").replace(
            b"Subject:", b"".join(b"X-Hop-%d: x\r\n" % n for n in range(40)) + b"Subject:")
        box.append(many)
        box.append(command("fine@players.test", "help"))
        wait("the fine mail's answer", lambda: sink.to("fine@players.test"), server, dovecot)
        wait("both refused mails moved", lambda: box.count("pbm-failed") == 2, server,
             dovecot)
        server.stop()
        start(server, dovecot)
        box.append(command("later@players.test", "help"))
        wait("a later answer", lambda: sink.to("later@players.test"), server, dovecot)
        assert sorted(r[0] for r, _ in sink.mails) == ["fine@players.test",
                                                       "later@players.test"]
        assert box.count("pbm-failed") == 2 and box.count("INBOX") == 0
    finally:
        server.stop()


def test_a_mail_deleted_elsewhere_while_pbm_reads(tmp_path: Path, dovecot: Dovecot,
                                                  sink: Sink):
    """Another client deletes mails as they come: pbm neither stops nor answers twice."""
    server = pbm_with_mailbox(tmp_path / "pbm", dovecot, sink, dovecot.certificates.ca)
    start(server, dovecot)
    try:
        box = Mailbox(dovecot)
        stop = threading.Event()

        def delete_some() -> None:
            with box.client() as client:
                client.select("INBOX")
                while not stop.is_set():
                    client.search(None, 'SUBJECT "doomed"')
                    typ, data = client.search(None, 'SUBJECT "doomed"')
                    for number in (data[0] or b"").split():
                        client.store(number, "+FLAGS", r"(\Deleted)")
                    client.expunge()
                    time.sleep(0.01)

        deleter = threading.Thread(target=delete_some)
        deleter.start()
        try:
            for n in range(20):
                box.append(command(f"p{n}@players.test", "help doomed" if n % 2 else "help"))
        finally:
            time.sleep(2)
            stop.set()
            deleter.join()
        kept = [f"p{n}@players.test" for n in range(0, 20, 2)]
        wait("every kept mail answered", lambda: all(sink.to(a) for a in kept), server,
             dovecot)
        time.sleep(1)
        recipients = [r[0] for r, _ in sink.mails]
        assert len(recipients) == len(set(recipients))  # never answered twice
        assert set(kept) <= set(recipients)
        assert server.process is not None and server.process.poll() is None
        assert box.count("INBOX") == 0
    finally:
        server.stop()


@pytest.mark.dovecot_conf(NO_IDLE)
def test_a_server_without_idle_is_polled(tmp_path: Path, dovecot: Dovecot, sink: Sink):
    server = pbm_with_mailbox(tmp_path / "pbm", dovecot, sink, dovecot.certificates.ca,
                              imap_extra="poll_seconds = 1\n")
    start(server, dovecot)
    try:
        assert "reading (IDLE no: polling)" in server.log.read_text()
        box = Mailbox(dovecot)
        for name in ("alice", "bob"):
            box.append(command(f"{name}@players.test", "help"))
        wait("both answers", lambda: sink.to("alice@players.test")
             and sink.to("bob@players.test"), server, dovecot, seconds=30)
        assert len(sink.mails) == 2 and box.count("pbm-processed") == 2
    finally:
        server.stop()


def test_since_answers_the_first_start_backlog_from_that_day(tmp_path: Path,
                                                             dovecot: Dovecot, sink: Sink):
    from datetime import date, timedelta

    dovecot.put_backlog([command(f"old{n}@players.test", "help") for n in range(3)])
    box = Mailbox(dovecot)
    for name in ("recent1", "recent2"):
        box.append(command(f"{name}@players.test", "help"))
    server = pbm_with_mailbox(tmp_path / "pbm", dovecot, sink, dovecot.certificates.ca)
    server.serve_args = ("--since", (date.today() - timedelta(days=1)).isoformat())
    start(server, dovecot)
    try:
        wait("the recent backlog answered", lambda: sink.to("recent1@players.test")
             and sink.to("recent2@players.test"), server, dovecot)
        time.sleep(1)
        assert sorted(r[0] for r, _ in sink.mails) == ["recent1@players.test",
                                                       "recent2@players.test"]
        assert "first start: 5 mail(s) already in the folder are left unanswered, but " \
            "those since" in server.log.read_text()
        assert box.count("INBOX") == 3 and box.count("pbm-processed") == 2
    finally:
        server.stop()
