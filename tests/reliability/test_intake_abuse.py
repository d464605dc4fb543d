"""Round two of the strangers' attacks on the mail intake (issue 21), by real mail to a real
`pbm serve`: a forged bounce, mail that holds the single writer or fills the disk, and a
display name that became a recipient."""

from __future__ import annotations

import re
import smtplib
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.mail.bounce_formats import postfix
from tests.server.harness import SERVER_ADDRESS, PbmServer, Received, by_recipient, mail

pytestmark = [pytest.mark.server, pytest.mark.slow]

ALICE, BOB = "alice@players.test", "bob@players.test"
STRANGER = "mallory@strangers.test"


def pbm(server: PbmServer, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "pbm", "--config", str(server.config_file),
                           *args], capture_output=True, text=True, cwd=server.folder,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def smtp_send(server: PbmServer, sender: str, raw: bytes) -> int:
    """Send over SMTP; the server's answer code to DATA."""
    with smtplib.SMTP("127.0.0.1", server.port, timeout=120) as smtp:
        smtp.ehlo()
        smtp.mail(sender)
        smtp.rcpt(SERVER_ADDRESS)
        return smtp.data(raw)[0]


def bounce_of(server: PbmServer, recipient: str, message_id: str) -> None:
    assert smtp_send(server, "", postfix(recipient, message_id)) == 250


# ----- a forged bounce ----------------------------------------------------------------------
def test_a_bounce_quoting_an_id_from_a_board_mails_text_counts_for_nothing(server: PbmServer):
    """A stranger's challenge put `Message-ID: <forged...>` into bob's board mail, and a DSN
    from <> quoting it counted as a bounce of bob's mail (three stopped his mail). Only the
    stored Message-ID of a mail sent to bob counts, and not one anyone can work out (a
    board's first mail to a player carries an id derived from the board and the address)."""
    server.send(ALICE, "signup alice pw-alice-7q")
    server.send(BOB, "signup bob pw-bob-3z")
    welcome = by_recipient(server.collect(2))
    forged = "<forged.x1@games.test>"
    server.send(STRANGER, "trou challenge alice bob", f"Message-ID: {forged}\n")
    boards = by_recipient(server.collect(3))
    assert f"Message-ID: {forged}" in boards[BOB].body  # the comment is in bob's board mail
    derived = str(boards[BOB].message["Message-ID"])
    assert derived.startswith("<board.trou.101.")

    bounce_of(server, BOB, forged)
    bounce_of(server, BOB, derived)
    server.collect(0, timeout=2)  # never answered
    listing = pbm(server, "users", "list")
    assert "(bouncing" not in listing, listing
    bounces = pbm(server, "inbox", "list", "--bounces")
    assert bounces.count(f"[bounce: {BOB}: quotes no mail we sent there; not counted]") == 2, \
        bounces

    # A real bounce of a mail pbm sent bob still counts.
    bounce_of(server, BOB, str(welcome[BOB].message["Message-ID"]))
    server.collect(0, timeout=2)
    assert re.search(rf"bob\s+{BOB} \(bouncing: 1 bounce, last ", pbm(server, "users", "list"))
    assert f"[bounce: {BOB}: bounce 1 of 3]" in pbm(server, "inbox", "list", "--bounces")


# ----- mail that holds the single writer ----------------------------------------------------
def failure_report(number: int) -> bytes:
    """A mail from <> of 0.9 MB of "address failed" lines, which bounce detectors read line
    by line, pattern after pattern."""
    lines = "".join(f"  address failed: <user{n}.{number}@example.org>\r\n"
                    for n in range(22_000))
    return (f"From: MAILER-DAEMON@mx.example.org\r\nTo: {SERVER_ADDRESS}\r\n"
            f"Subject: failure notice\r\nMessage-ID: <report{number}@mx.example.org>\r\n\r\n"
            "The following address failed:\r\n\r\n" + lines).encode()


def help_reply_seconds(server: PbmServer, sender: str) -> float:
    """How long a `help` from `sender` takes to come back into the Maildir."""
    start = time.monotonic()
    server.send(sender, "help")
    while True:
        if any(reply.to == sender for reply in server._new()):
            return time.monotonic() - start
        assert time.monotonic() - start < 120, "no answer to help"
        time.sleep(0.01)


def test_heavy_mail_on_other_connections_does_not_hold_up_a_players_answer(server: PbmServer):
    """8 bounce-like mails of 0.9 MB (on 4 connections) and a `multiple` of 150,000 `help`
    lines once held the writer for seconds: a player's `help` waited 12 s. Reading them now
    happens before the writer, bounded; the answer comes about as fast as on a quiet server.
    (The target is 2x; the bound here leaves room for a loaded machine.)"""
    help_reply_seconds(server, ALICE)  # warm up
    baseline = statistics.median(help_reply_seconds(server, ALICE) for _ in range(3))
    reports = [failure_report(n) for n in range(8)]
    heavy = mail(STRANGER, "multiple", "help\n" * 150_000)
    codes: list[int] = []

    def connection(share: list[bytes]) -> None:
        codes.extend(smtp_send(server, "", raw) for raw in share)

    senders = [threading.Thread(target=connection, args=(reports[k::4],)) for k in range(4)]
    senders.append(threading.Thread(target=lambda: codes.append(smtp_send(server, STRANGER,
                                                                          heavy))))
    for sender in senders:
        sender.start()
    time.sleep(0.2)  # the heavy mails are on the wire
    during = [help_reply_seconds(server, ALICE)]
    while any(sender.is_alive() for sender in senders):
        during.append(help_reply_seconds(server, ALICE))
    for sender in senders:
        sender.join()
    assert codes == [250] * 9
    assert max(during) < 5 * baseline + 1, (baseline, during)


# ----- mail never answered fills the disk ---------------------------------------------------
def database_bytes(server: PbmServer) -> int:
    return sum(path.stat().st_size for path in server.folder.glob("pbm.sqlite*"))


def test_mail_never_answered_is_rate_limited_and_kept_short(tmp_path: Path):
    """Bulk and robot mail skipped the sender's hourly limit and was kept whole: one
    connection stored 100 mails of 0.9 MB (+95 MB). It now counts like any other mail (451
    once over), and of mail that is never answered only the headers and an excerpt stay."""
    server = PbmServer(tmp_path, extra_config="[limits]\nmails_per_sender_per_hour = 5\n")
    server.start()
    try:
        before = database_bytes(server)
        filler = "".join(f"line {n} of a bulk mail nobody answers\r\n" for n in range(24_000))
        codes = [smtp_send(server, "bulk@spam.example",
                           mail("bulk@spam.example", "news", filler,
                                headers={"Precedence": "bulk"})) for _ in range(12)]
        growth = database_bytes(server) - before
        server.send(ALICE, "help")  # others are answered as usual
        (reply,) = server.collect(1)
        stored = pbm(server, "inbox", "list", "--all")
    finally:
        server.stop()
    assert codes == [250] * 6 + [451] * 6
    assert reply.subject == "Help: general"
    assert stored.count("ignored") == 5 and stored.count("throttled") == 1, stored
    assert growth < 2_000_000, growth  # 6 x 0.9 MB kept whole would be 5.4 MB


# ----- a display name becomes a recipient ---------------------------------------------------
def replies_with_raw(server: PbmServer, count: int) -> list[tuple[Received, bytes]]:
    replies = server.collect(count)
    return [(reply, reply.message.as_bytes()) for reply in replies]


def test_a_display_name_never_becomes_a_recipient(server: PbmServer):
    """`From: =?utf-8?q?Eve=0D=0ABcc:_x@evil.example?= <eve@example.org>` was read as two
    addresses and the reply went to `_x@evil.example?=`. Only the address part counts."""
    raw = (b"From: =?utf-8?q?Eve=0D=0ABcc:_x@evil.example?= <eve@example.org>\r\n"
           b"To: " + SERVER_ADDRESS.encode() + b"\r\n"
           b"Subject: help\r\nMessage-ID: <eve.1@example.org>\r\n\r\nhelp\r\n")
    assert smtp_send(server, "eve@example.org", raw) == 250
    server.send("sane@players.test", "help")
    sent = replies_with_raw(server, 2)
    assert sorted(reply.to for reply, _ in sent) == ["eve@example.org", "sane@players.test"]
    assert all(b"evil.example" not in whole for _, whole in sent)
    assert all(reply.subject == "Help: general" for reply, _ in sent)
    outbox = pbm(server, "outbox", "list", "--all")
    assert "evil.example" not in outbox, outbox


@pytest.mark.parametrize("header", [
    b"From: Eve <eve@evil.example?=>",
    b"From: <eve@evil.example/x>",
    b"Reply-To: <eve@[192.0.2.1]>\r\nFrom: Eve <eve@evil.example?=>",
])
def test_an_address_that_is_not_plain_gets_no_reply(server: PbmServer, header: bytes):
    """Only a plain local@domain is answered: here the envelope sender, as none of the
    headers names one."""
    raw = (header + b"\r\nTo: " + SERVER_ADDRESS.encode() + b"\r\n"
           b"Subject: help\r\nMessage-ID: <eve.2@example.org>\r\n\r\nhelp\r\n")
    assert smtp_send(server, "envelope@example.org", raw) == 250
    (reply,) = server.collect(1)
    assert reply.to == "envelope@example.org"
    assert b"evil.example" not in reply.message.as_bytes()
