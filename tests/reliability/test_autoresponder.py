"""A naive auto-responder as a peer: it answers every mail pbm sends it, without saying it is
a robot (no Auto-Submitted). Once that ping-pong produced 776 mails in 30 s with no end; now
it ends after one exchange, or at the sender rate limit when the robot hides even that it is
answering."""

from __future__ import annotations

import smtplib
import socket
import threading
import time
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from tests.server.harness import SERVER_ADDRESS, PbmServer

pytestmark = pytest.mark.server

ROBOT = "away@peer.test"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class AutoResponder:
    """The relay pbm delivers to; every mail for ROBOT gets an 'I am away' back."""

    def __init__(self, pbm: PbmServer, threads: bool):
        self.pbm = pbm
        self.threads = threads  # answer In-Reply-To (as most do), or not (the worst kind)
        self.received: list[float] = []

    async def handle_DATA(self, server, session, envelope):
        if ROBOT in envelope.rcpt_tos:
            self.received.append(time.monotonic())
            original = BytesParser(policy=policy.default).parsebytes(envelope.original_content)
            threading.Thread(target=self.answer, args=(original,), daemon=True).start()
        return "250 OK"

    def answer(self, original) -> None:
        reply = EmailMessage()
        reply["From"] = ROBOT
        reply["To"] = SERVER_ADDRESS
        reply["Subject"] = f"Re: {original['Subject']}"
        reply["Message-ID"] = make_msgid(domain="peer.test")
        if self.threads:
            reply["In-Reply-To"] = original["Message-ID"]
        # Naive: the original pasted back unquoted under its own text.
        reply.set_content("I am away until Monday.\n\n" + original.get_body().get_content())
        try:
            with smtplib.SMTP("127.0.0.1", self.pbm.port, timeout=30) as smtp:
                smtp.sendmail(ROBOT, [SERVER_ADDRESS],
                              reply.as_bytes(policy=reply.policy.clone(linesep="\r\n")))
        except (OSError, smtplib.SMTPException):
            pass  # the server is stopping at the end of the test


def exchange(tmp_path: Path, threads: bool, per_hour: int) -> list[float]:
    """Start the ping-pong and watch until it has been quiet for 4 s (60 s at most)."""
    pbm = PbmServer(tmp_path, extra_config=f"[limits]\nmails_per_sender_per_hour = {per_hour}\n")
    robot = AutoResponder(pbm, threads)
    relay = Controller(robot, hostname="127.0.0.1", port=free_port())
    relay.start()
    pbm.write_config()
    pbm.config_file.write_text(pbm.config_file.read_text().replace(
        'maildir = "maildir"\n',
        f'maildir = "maildir"\nrelay = "smtp://127.0.0.1:{relay.port}"\nretry_seconds = 1\n'))
    pbm.start()
    try:
        pbm.send(ROBOT, "Hello", "Is this the games server?")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            time.sleep(0.5)
            last = robot.received[-1] if robot.received else 0
            if robot.received and time.monotonic() - last > 4:
                break
        return list(robot.received)
    finally:
        pbm.stop()
        relay.stop()


def test_a_robot_that_threads_its_answers_gets_one_mail(tmp_path: Path):
    received = exchange(tmp_path, threads=True, per_hour=60)
    assert len(received) == 1  # our "no command found"; its reply to that is not answered


def test_a_robot_that_hides_everything_is_stopped_by_the_sender_limit(tmp_path: Path):
    received = exchange(tmp_path, threads=False, per_hour=8)
    assert len(received) == 8 + 1  # answers up to the limit, then the one notice; then quiet
