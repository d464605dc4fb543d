"""A real `pbm serve` in a subprocess, real SMTP in, the real Maildir out."""

from __future__ import annotations

import mailbox
import os
import re
import signal
import smtplib
import subprocess
import sys
import time
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid
from pathlib import Path

from tests import stores

SERVER_ADDRESS = "pbm@games.test"
LISTENING = re.compile(r"listening on ([\d.]+):(\d+)")


def mail(sender: str, subject: str, body: str = "", *, message_id: str | None = None,
         headers: dict[str, str] | None = None) -> bytes:
    """A player's mail to the server, as an MTA sends it: CRLF line endings (smtplib sends
    bytes as they are, and a server counts line lengths between CRLFs)."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = SERVER_ADDRESS
    message["Subject"] = subject
    message["Message-ID"] = message_id or make_msgid(domain="players.test")
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(body or "\n")
    return message.as_bytes(policy=message.policy.clone(linesep="\r\n"))


@dataclass
class Received:
    """A reply the server delivered, parsed."""

    to: str
    subject: str
    body: str
    message: EmailMessage


@dataclass
class PbmServer:
    folder: Path
    extra_config: str = ""
    process: subprocess.Popen | None = None
    port: int = 0
    seen: set[str] = field(default_factory=set)
    # Another database than the folder's SQLite file (a PostgreSQL URL: several nodes).
    database_url: str | None = None
    # Another Maildir than the folder's own (nodes of one server deliver into one).
    shared_maildir: Path | None = None
    serve_args: tuple[str, ...] = ()  # more options for `pbm serve` (`--since DATE`)

    @property
    def log(self) -> Path:
        return self.folder / "serve.log"

    @property
    def config_file(self) -> Path:
        return self.folder / "pbm.toml"

    @property
    def maildir(self) -> Path:
        return self.shared_maildir or self.folder / "maildir"

    @property
    def database(self) -> Path:
        return self.folder / "pbm.sqlite"

    def write_config(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.config_file.write_text(
            "[server]\n"
            f'address = "{SERVER_ADDRESS}"\n'
            'hostname = "games.test"\n'
            "[smtpd]\n"
            'host = "127.0.0.1"\n'
            "port = 0\n"
            "max_message_bytes = 1048576\n"
            "[delivery]\n"
            f'maildir = "{self.shared_maildir or "maildir"}"\n'
            + self._database() + self.extra_config,
            encoding="utf-8",
        )

    def _database(self) -> str:
        """The [database] section: none on SQLite (pbm.sqlite beside pbm.toml is the
        default), else the test's database from tests/stores.py, or the one named."""
        if self.database_url:
            return f'[database]\nurl = "{self.database_url}"\n'
        if not stores.postgresql():
            return ""
        return f'[database]\nurl = "{stores.url(self.database)}"\n'

    def start(self) -> None:
        if not self.config_file.exists():
            self.write_config()
        env = {k: v for k, v in os.environ.items() if not k.startswith("PBM_")}
        # Output goes to a file, not a pipe: a pipe nobody reads would fill up and block.
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as log:
            offset = log.tell()
            self.process = subprocess.Popen(
                [sys.executable, "-m", "pbm", "--config", str(self.config_file), "serve",
                 *self.serve_args],
                cwd=self.folder,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.process.poll() is None:
            text = self.log.read_text(encoding="utf-8", errors="replace")[offset:]
            found = LISTENING.search(text)
            if found:
                self.port = int(found.group(2))
                return
            time.sleep(0.05)
        self.stop()
        raise AssertionError("pbm serve did not start:\n" + self.log.read_text())

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def kill(self) -> None:
        """kill -9: no shutdown at all, as a power cut or the OOM killer would stop it."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    # ----- sending --------------------------------------------------------------------
    def send(self, sender: str, subject: str, body: str = "", *, message_id: str | None = None,
             headers: dict[str, str] | None = None) -> str:
        """Mail a command; returns the Message-ID used."""
        message_id = message_id or make_msgid(domain="players.test")
        self.send_raw(sender, mail(sender, subject, body, message_id=message_id,
                                   headers=headers))
        return message_id

    def send_raw(self, sender: str, raw: bytes) -> None:
        with smtplib.SMTP("127.0.0.1", self.port, timeout=30) as smtp:
            smtp.sendmail(sender, [SERVER_ADDRESS], raw)

    # ----- receiving ------------------------------------------------------------------
    def collect(self, count: int, timeout: float = 20.0, grace: float = 0.2) -> list[Received]:
        """Wait for `count` new replies (and fail if more arrive within a short grace: the
        replies of one mail are written in one transaction, so a long run of mails, each
        checked by count, may take a shorter one)."""
        deadline = time.monotonic() + timeout
        found: list[Received] = []
        while time.monotonic() < deadline:
            found += self._new()
            if len(found) >= count:
                break
            time.sleep(0.05)
        time.sleep(grace)
        found += self._new()
        assert len(found) == count, (
            f"expected {count} replies, got {len(found)}: "
            + "; ".join(f"{r.to}: {r.subject}" for r in found)
        )
        return found

    def _new(self) -> list[Received]:
        if not (self.maildir / "cur").exists():
            return []  # not yet created (the server makes tmp, new, then cur)
        box = mailbox.Maildir(self.maildir, create=False)
        new = []
        for key in sorted(box.keys(), key=lambda k: (os.path.getmtime(self._path(box, k)), k)):
            if key in self.seen:
                continue
            self.seen.add(key)
            with open(self._path(box, key), "rb") as handle:
                message = BytesParser(policy=policy.default).parse(handle)
            body = message.get_body(preferencelist=("plain",)).get_content()
            new.append(Received(str(message["To"]), str(message["Subject"]), body, message))
        return new

    @staticmethod
    def _path(box: mailbox.Maildir, key: str) -> str:
        return os.path.join(box._path, box._lookup(key))  # type: ignore[attr-defined]


def by_recipient(replies: list[Received]) -> dict[str, Received]:
    table = {}
    for reply in replies:
        assert reply.to not in table, f"two replies to {reply.to}"
        table[reply.to] = reply
    return table
