"""Logging set-up for every command: the level and destination of `[logging]`."""

from __future__ import annotations

import logging
import os
import re
import sys
from pathlib import Path
from typing import TextIO

from pbm.config import LoggingSettings
from pbm.files import owner_only

FORMAT = "%(asctime)s %(levelname)s %(message)s"
# Per-connection chatter at INFO (every connect, every SMTP verb): the operator's log is for
# mails and deliveries. aiosmtpd logs to "mail.log". At debug level they speak too: whoever
# asked for debug lines is looking for a problem, and it may be in the SMTP dialogue.
QUIETED = ("mail.log", "aiosmtpd", "alembic")
UNSAFE = re.compile(r"[^\x21-\x7e]")  # controls, spaces, non-ASCII: nothing that forges a line
MAX_FIELD = 200


class _Stderr(logging.StreamHandler):
    """Standard error as it is when a record is written (a test runner swaps it)."""

    @property  # type: ignore[override]
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, _value: TextIO) -> None:
        pass


_installed: list[logging.Handler] = []  # ours on the root logger: a second set-up replaces it


def setup(settings: LoggingSettings, file: Path | None) -> None:
    """Send pbm's log to standard error or `file` at the configured level."""
    root = logging.getLogger()
    while _installed:
        old = _installed.pop()
        root.removeHandler(old)
        old.close()
    handler: logging.Handler
    if file is not None:
        file.parent.mkdir(parents=True, exist_ok=True)
        # It names players and their addresses: created for its owner only.
        os.close(os.open(file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
        owner_only(file)
        handler = logging.FileHandler(file, encoding="utf-8")
    else:
        handler = _Stderr()
    _installed.append(handler)
    handler.setFormatter(logging.Formatter(FORMAT))
    root.addHandler(handler)
    root.setLevel(settings.level.upper())
    quiet = root.level if root.level <= logging.DEBUG else max(logging.WARNING, root.level)
    for name in QUIETED:
        logging.getLogger(name).setLevel(quiet)


def clean(text: str | None) -> str:
    """A value from a mail, fit for one log line: no spaces or controls, bounded."""
    if not text:
        return "-"
    safe = UNSAFE.sub("?", text)
    return safe if len(safe) <= MAX_FIELD else safe[:MAX_FIELD] + "..."
