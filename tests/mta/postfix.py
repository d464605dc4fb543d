"""A real Postfix with its own configuration folder, on loopback ports, delivering locally."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import site
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

POSTFIX = "/usr/sbin/postfix"
NOBODY = 65534  # the virtual mailboxes and the pipe run as this user: Postfix refuses root

# master.cf: every service Postfix needs to receive by SMTP and deliver by LMTP, pipe and
# virtual(8), none chrooted (the queue is in a temporary folder) and no local(8) at all.
MASTER_CF = """\
127.0.0.1:{port} inet  n  -  n  -  -  smtpd
pickup    unix  n  -  n  60  1  pickup
cleanup   unix  n  -  n  -   0  cleanup
qmgr      unix  n  -  n  300 1  qmgr
rewrite   unix  -  -  n  -   -  trivial-rewrite
bounce    unix  -  -  n  -   0  bounce
defer     unix  -  -  n  -   0  bounce
trace     unix  -  -  n  -   0  bounce
verify    unix  -  -  n  -   1  verify
flush     unix  n  -  n  1000? 0  flush
proxymap  unix  -  -  n  -   -  proxymap
smtp      unix  -  -  n  -   -  smtp
relay     unix  -  -  n  -   -  smtp
showq     unix  n  -  n  -   -  showq
error     unix  -  -  n  -   -  error
retry     unix  -  -  n  -   -  error
discard   unix  -  -  n  -   -  discard
virtual   unix  -  n  n  -   -  virtual
lmtp      unix  -  -  n  -   -  lmtp
anvil     unix  -  -  n  -   1  anvil
scache    unix  -  -  n  -   1  scache
postlog   unix-dgram n  -  n  -  1  postlogd
"""

MAIN_CF = """\
compatibility_level = 3.6
queue_directory = {root}/queue
data_directory = {root}/data
maillog_file = {root}/maillog
maillog_file_prefixes = {root}
myhostname = mx.test
mydomain = test
myorigin = mx.test
mydestination =
alias_maps =
alias_database =
inet_interfaces = loopback-only
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
# No DNS at all: every next hop is a literal address.
smtp_dns_support_level = disabled
smtp_host_lookup = native
lmtp_host_lookup = native
# The players' mailboxes: Maildirs under {root}/mail, owned by nobody.
virtual_mailbox_domains = {players}
virtual_mailbox_base = {root}/mail
virtual_mailbox_maps = hash:{root}/etc/mailboxes
virtual_uid_maps = static:{nobody}
virtual_gid_maps = static:{nobody}
# Accept mail for unknown players too, so that it bounces after delivery (a real DSN).
smtpd_reject_unlisted_recipient = no
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def unavailable() -> str | None:
    """Why Postfix cannot run here, or None (no test installs system packages)."""
    if os.geteuid() != 0:
        return "Postfix runs as root (its master and its delivery agents change users)"
    if not Path(POSTFIX).exists():
        return "Postfix is not installed: apt-get install -y postfix (.ci/run installs it)"
    return None


@dataclass
class Postfix:
    """One Postfix instance whose every file lives under `root`."""

    root: Path
    players: str
    port: int = field(default_factory=free_port)
    main_cf: list[str] = field(default_factory=list)
    master_cf: list[str] = field(default_factory=list)
    maps: dict[str, str] = field(default_factory=dict)
    mailboxes: tuple[str, ...] = ()
    process: subprocess.Popen | None = None

    @property
    def etc(self) -> Path:
        return self.root / "etc"

    @property
    def log(self) -> Path:
        return self.root / "maillog"

    def mailbox(self, local_part: str) -> Path:
        return self.root / "mail" / local_part

    def configure(self) -> None:
        for folder in ("etc", "queue", "data", "mail"):
            (self.root / folder).mkdir(parents=True, exist_ok=True)
        shutil.chown(self.root / "data", "postfix")
        os.chown(self.root / "mail", NOBODY, NOBODY)
        main = MAIN_CF.format(root=self.root, players=self.players, nobody=NOBODY)
        (self.etc / "main.cf").write_text(main + "\n".join(self.main_cf) + "\n")
        master = MASTER_CF.format(port=self.port)
        (self.etc / "master.cf").write_text(master + "\n".join(self.master_cf) + "\n")
        self.maps["mailboxes"] = "".join(f"{name}@{self.players} {name}/\n"
                                         for name in self.mailboxes)
        for name, text in self.maps.items():
            (self.etc / name).write_text(text)
            self.postfix_command("postmap", f"hash:{self.etc / name}")

    def postfix_command(self, *argv: str) -> str:
        """postmap, postqueue, postfix ... on this instance; fails with their output."""
        done = subprocess.run([argv[0], "-c", str(self.etc), *argv[1:]], capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0, f"{' '.join(argv)}: {done.stdout}{done.stderr}"
        return done.stdout

    def start(self) -> None:
        self.configure()
        # start-fg keeps the master daemon our child: it is waited for, and so are its own.
        with open(self.root / "start.log", "ab") as out:
            self.process = subprocess.Popen([POSTFIX, "-c", str(self.etc), "start-fg"],
                                            stdout=out, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise AssertionError(f"Postfix did not start:\n{self.diagnostics()}")

    def stop(self) -> None:
        if self.process is None:
            return
        subprocess.run([POSTFIX, "-c", str(self.etc), "stop"], capture_output=True, timeout=60)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            # Our child's group (start_new_session), and the master by its pid file.
            os.killpg(self.process.pid, signal.SIGKILL)
            pid_file = self.root / "queue" / "pid" / "master.pid"
            if pid_file.exists():
                with contextlib.suppress(ValueError, ProcessLookupError):
                    os.kill(int(pid_file.read_text().split()[0]), signal.SIGKILL)
            self.process.wait()
        self.process = None

    def queue_is_empty(self) -> bool:
        return "Mail queue is empty" in self.postfix_command("postqueue", "-p")

    def diagnostics(self) -> str:
        parts = []
        for name in ("start.log", "maillog"):
            path = self.root / name
            if path.exists():
                parts.append(f"--- {name}\n" + path.read_text(errors="replace")[-6000:])
        return "\n".join(parts)


def pbm_command_for(uid: int, root: Path) -> str:
    """A `pbm` command line the pipe's user can run, on this checkout and its packages.

    This test's own interpreter will do when that user may run it. A Python installed in a
    private folder (pyenv under /root) cannot be run by anyone else, so then a virtual
    environment of the system's Python of the same version is made that reads this one's
    packages (same version: same ABI for the compiled ones)."""
    own = Path(sys.executable).parent / "pbm"
    if _runs_as(uid, [str(own), "--version"]):
        return str(own)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for system in (Path("/usr/bin") / version, Path("/usr/local/bin") / version):
        if not system.exists():
            continue
        venv = root / "venv"
        subprocess.run([str(system), "-m", "venv", "--without-pip", str(venv)], check=True)
        packages = venv / "lib" / version / "site-packages"
        # addsitedir, not a plain path: the editable install of pbm is itself a .pth file.
        lines = "".join(f"import site; site.addsitedir({path!r})\n"
                        for path in site.getsitepackages())
        (packages / "pbm-test-packages.pth").write_text(lines)
        command = f"{venv / 'bin' / 'python'} -m pbm"
        if _runs_as(uid, [*command.split(), "--version"]):
            return command
    raise AssertionError(f"user {uid} can run neither {own} nor a system {version} with this "
                         "checkout's packages: Postfix's pipe cannot run pbm as it")


def _runs_as(uid: int, argv: list[str]) -> bool:
    try:
        done = subprocess.run(argv, user=uid, group=uid, extra_groups=[], capture_output=True,
                              cwd="/", timeout=60)
    except PermissionError:
        return False
    return done.returncode == 0
