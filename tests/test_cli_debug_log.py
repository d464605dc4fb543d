"""`pbm --log-level debug` in a fresh process: debug lines an operator can follow a mail by,
and never a password from the mail in them; at the default level, none."""

from __future__ import annotations

import logging
from pathlib import Path

from pbm import logs
from pbm.config import LoggingSettings
from tests.server.harness import mail
from tests.test_cli_fresh import pbm, write_config

ALICE = "alice@players.test"
PASSWORD = "Pw-debug-9x7"


def _handle_one(folder: Path, *level: str, subject: str) -> str:
    done = pbm(folder, *level, "process", "--sender", ALICE, input=mail(ALICE, subject))
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_debug_lines_follow_a_mail_without_its_password(tmp_path: Path):
    write_config(tmp_path)
    assert pbm(tmp_path, "db", "upgrade").returncode == 0
    err = _handle_one(tmp_path, "--log-level", "debug", subject=f"signup alice {PASSWORD}")
    debug = [line for line in err.splitlines() if " DEBUG " in line]
    text = "\n".join(debug)
    assert f"settings from pbm.toml (./pbm.toml in {tmp_path})" in text, err
    assert f"DEBUG database sqlite:///{tmp_path / 'pbm.sqlite'}" in text, err
    assert f"from {ALICE} (envelope {ALICE}, source -): 1 command line(s)" in text, err
    assert "DEBUG command signup: done, 1 reply" in text, err
    assert f"DEBUG queued outbox mail 1 to {ALICE}: Welcome to pbm" in text, err
    assert "claimed outbox mail(s) 1 to" in text, err
    assert PASSWORD not in err
    # A command that fails is named and its outcome said, its words not.
    err = _handle_one(tmp_path, "--log-level", "debug",
                      subject=f"trou challenge alice {PASSWORD} nobody")
    assert "DEBUG command trou challenge: refused (" in err, err
    assert PASSWORD not in err


def test_no_debug_lines_at_the_default_level(tmp_path: Path):
    write_config(tmp_path)
    assert pbm(tmp_path, "db", "upgrade").returncode == 0
    err = _handle_one(tmp_path, subject=f"signup alice {PASSWORD}")
    assert " INFO inbound mail 1 " in err
    assert " DEBUG " not in err
    assert PASSWORD not in err


def test_quieted_loggers_speak_at_debug_level_only():
    try:
        logs.setup(LoggingSettings(level="debug"), None)
        assert all(logging.getLogger(name).level == logging.DEBUG for name in logs.QUIETED)
        logs.setup(LoggingSettings(level="info"), None)
        assert all(logging.getLogger(name).level == logging.WARNING for name in logs.QUIETED)
        logs.setup(LoggingSettings(level="error"), None)
        assert all(logging.getLogger(name).level == logging.ERROR for name in logs.QUIETED)
    finally:
        logs.setup(LoggingSettings(), None)
