"""A Postfix bounce mailed to a real `pbm serve`: never answered, shown to the operator."""

from __future__ import annotations

import re
import smtplib
import subprocess
import sys

import pytest

from tests.mail.bounce_formats import postfix
from tests.server.harness import PbmServer

pytestmark = [pytest.mark.server, pytest.mark.slow]

ALICE = "alice@players.test"


def pbm(server: PbmServer, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "pbm", "--config", str(server.config_file),
                           *args], capture_output=True, text=True, cwd=server.folder,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_bounce_by_mail_marks_the_address_for_the_operator(server: PbmServer):
    server.send(ALICE, "signup alice secret")
    (welcome,) = server.collect(1)
    message_id = str(welcome.message["Message-ID"])
    with smtplib.SMTP("127.0.0.1", server.port, timeout=30) as smtp:
        smtp.sendmail("", ["pbm@games.test"], postfix(ALICE, message_id))
    server.collect(0, timeout=2)  # never answered
    listing = pbm(server, "users", "list")
    assert re.search(rf"alice\s+{ALICE} \(bouncing: 1 bounce, last \d{{4}}-\d\d-\d\d\)",
                     listing), listing
    bounces = pbm(server, "inbox", "list", "--bounces")
    assert "bounce   " in bounces and f"[bounce: {ALICE}: bounce 1 of 3]" in bounces
    assert pbm(server, "users", "resume", ALICE) == f"{ALICE} gets mail again\n"
    assert "(bouncing" not in pbm(server, "users", "list")
