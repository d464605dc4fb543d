"""A real `pbm serve` as an operator runs it: its log file, its files' modes, SIGTERM."""

from __future__ import annotations

import signal
import stat
from pathlib import Path

from tests import stores
from tests.server.harness import PbmServer
from tests.server.players import ALICE, PLAYERS, signup_both

LOGGING = '[logging]\nfile = "pbm.log"\n'


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_serve_logs_each_mail_and_delivery_without_passwords_and_stops_on_sigterm(
        tmp_path: Path):
    server = PbmServer(tmp_path, extra_config=LOGGING)
    server.start()
    try:
        signup_both(server)
        server.send(ALICE, "trou challenge alice bob")
        server.collect(2)
        alice = PLAYERS[0]
        moves = [
            "trou move 101 alice Wrong5pw 1B2",  # a wrong password
            f"trou move 101 alice 1B2 {alice.password}",  # the password one word late
            f"{alice.password} trou move 101",  # the password first: no command
        ]
        ids = [server.send(ALICE, subject) for subject in moves]
        server.collect(3)
        process = server.process
        assert process is not None
        # Idle now: systemd's stop is a SIGTERM, and the unit wants a clean exit.
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
        server.process = None
    finally:
        server.stop()
    output = server.log.read_text()
    assert "pbm serve: stopped" in output and "Traceback" not in output
    log = (tmp_path / "pbm.log").read_text()
    for message_id in ids:
        (line,) = [line for line in log.splitlines() if f"message-id {message_id} " in line]
        assert f"from {ALICE}:" in line and "-> done, 1 reply queued" in line
    assert "trou move -> done" in log and ": ? -> done" in log
    assert "signup -> done" in log and "trou challenge -> done" in log
    assert log.count(f"to {ALICE}: sent into the Maildir") >= 5
    for secret in ("Wrong5pw", *(p.password for p in PLAYERS)):
        assert secret not in log and secret not in output
    assert "Peer" not in log and "Peer" not in output  # aiosmtpd's per-connection chatter
    assert mode(tmp_path / "pbm.log") == 0o600
    if not stores.postgresql():  # PostgreSQL keeps its files in its own cluster
        assert mode(server.database) == 0o600
    assert mode(server.maildir) == 0o700
    assert all(mode(mail) == 0o600 for mail in server.maildir.rglob("*") if mail.is_file())
