"""Round two of the strangers' attacks on the mail intake (issue 21), by real mail to a real
`pbm serve`: a forged bounce, mail that holds the single writer or fills the disk, and a
display name that became a recipient."""

from __future__ import annotations

import re
import smtplib
import subprocess
import sys

import pytest

from tests.mail.bounce_formats import postfix
from tests.server.harness import SERVER_ADDRESS, PbmServer, Received, by_recipient

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
    b"From: <\"eve x\"@evil.example>",
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
