"""A real Dovecot IMAP server with its own configuration folder on loopback ports: IMAP over
implicit TLS (a test certificate), one user, Maildir storage."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.mta.certs import Certificates
from tests.mta.postfix import NOBODY, free_port

DOVECOT = "/usr/sbin/dovecot"

CONF = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <{cert}
ssl_key = <{key}
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:~/Maildir
first_valid_uid = 1
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/users
}}
userdb {{
  driver = static
  args = uid={uid} gid={uid} home={root}/home/%u
}}
service imap-login {{
  inet_listener imap {{
    port = {imap_port}
  }}
  inet_listener imaps {{
    port = {imaps_port}
    ssl = yes
  }}
}}
protocol imap {{
  mail_max_userip_connections = 100
}}
"""


def unavailable() -> str | None:
    """Why Dovecot cannot run here, or None (.ci/run installs dovecot-imapd)."""
    if os.geteuid() != 0:
        return "Dovecot's master runs as root here (it changes to the mail user)"
    if not Path(DOVECOT).exists():
        return "Dovecot is not installed: apt-get install -y dovecot-imapd"
    return None


@dataclass
class Dovecot:
    root: Path
    certificates: Certificates
    user: str = "pbm@games.test"
    password: str = "imap-secret"
    imap_port: int = field(default_factory=free_port)
    imaps_port: int = field(default_factory=free_port)
    extra_conf: str = ""  # more of dovecot.conf (imap_capability without IDLE, say)
    process: subprocess.Popen | None = None

    @property
    def config(self) -> Path:
        return self.root / "dovecot.conf"

    @property
    def maildir(self) -> Path:
        return self.root / "home" / self.user / "Maildir"

    @property
    def log(self) -> Path:
        return self.root / "dovecot.log"

    def start(self) -> None:
        for part in ("run", "state", "home"):
            (self.root / part).mkdir(parents=True, exist_ok=True)
        os.chown(self.root / "home", NOBODY, NOBODY)
        (self.root / "users").write_text(f"{self.user}:{{PLAIN}}{self.password}\n")
        self.config.write_text(CONF.format(
            root=self.root, cert=self.certificates.cert, key=self.certificates.key,
            uid=NOBODY, imap_port=self.imap_port, imaps_port=self.imaps_port)
            + self.extra_conf)
        self.process = subprocess.Popen([DOVECOT, "-F", "-c", str(self.config)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        self._wait_listening()

    def _wait_listening(self) -> None:
        import socket

        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise AssertionError("Dovecot stopped:\n" + self.diagnostics())
            try:
                with socket.create_connection(("127.0.0.1", self.imap_port), timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("Dovecot did not start:\n" + self.diagnostics())

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def restart(self) -> None:
        """Stop and start again, cutting every client off as a server's reboot does (the
        master alone going leaves its mail processes serving their connections)."""
        subprocess.run(["doveadm", "-c", str(self.config), "kick", self.user],
                       capture_output=True, check=False)
        self.stop()
        self.start()

    def diagnostics(self) -> str:
        return "--- dovecot.log\n" + (self.log.read_text(errors="replace")[-4000:]
                                       if self.log.exists() else "(none)")

    def folder_files(self, folder: str) -> list[Path]:
        """The mail files of a folder ("INBOX" or a Maildir++ subfolder)."""
        base = self.maildir if folder == "INBOX" else self.maildir / f".{folder}"
        return [p for part in ("new", "cur") if (base / part).is_dir()
                for p in (base / part).iterdir()]

    def put_backlog(self, mails: list[bytes]) -> None:
        """Write mails straight into the INBOX's Maildir (what years of mail look like),
        faster than APPENDing each; Dovecot finds them at its next look."""
        new = self.maildir / "new"
        for part in ("new", "cur", "tmp"):
            (self.maildir / part).mkdir(parents=True, exist_ok=True)
        stamp = int(time.time()) - 86400 * 30
        for number, raw in enumerate(mails):
            path = new / f"{stamp + number}.M{number}P1.backlog"
            path.write_bytes(raw)
            os.utime(path, (stamp + number, stamp + number))
        for path in [self.maildir.parent, *self.maildir.parent.rglob("*")]:
            os.chown(path, NOBODY, NOBODY)

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
