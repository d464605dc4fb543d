"""A throwaway PostgreSQL cluster for the tests: initdb in a temporary folder, a server on a
loopback port, trust authentication, removed again at the end.

    python -m tests.pgcluster start FOLDER    # prints the server's URL
    python -m tests.pgcluster stop FOLDER

Debian's postgresql package puts its programs in /usr/lib/postgresql/<version>/bin. The
server refuses to run as root, so as root it runs as the `postgres` user the package made.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

URL_FILE = "url"


def programs() -> Path | None:
    """The folder of initdb and pg_ctl, the newest version installed; None without one."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parent.parent.name))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _as_owner(command: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(folder: Path) -> str:
    """Make and start a cluster in `folder`; the URL of its `postgres` database."""
    bin_dir = programs()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL is not installed: apt-get install -y postgresql")
    folder.mkdir(parents=True, exist_ok=True)
    data = folder / "data"
    if os.geteuid() == 0:
        owner = pwd.getpwnam("postgres")
        os.chown(folder, owner.pw_uid, owner.pw_gid)
    subprocess.run(_as_owner([str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres",
                              "--auth=trust", "-E", "UTF8", "--no-sync"]),
                   check=True, stdout=subprocess.DEVNULL)
    port = _free_port()
    # Tests want speed, not durability: a lost cluster is rebuilt by the next run.
    options = (f"-c listen_addresses=127.0.0.1 -c port={port} -k {folder} "
               "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
               "-c max_connections=200")
    subprocess.run(_as_owner([str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options,
                              "-l", str(folder / "log"), "-w", "start"]),
                   check=True, stdout=subprocess.DEVNULL)
    url = f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    (folder / URL_FILE).write_text(url)
    return url


def stop(folder: Path) -> None:
    """Stop the cluster in `folder` and remove it."""
    bin_dir = programs()
    data = folder / "data"
    if bin_dir is not None and data.exists():
        subprocess.run(_as_owner([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast",
                                  "-w", "stop"]), check=False, stdout=subprocess.DEVNULL)
    shutil.rmtree(folder, ignore_errors=True)


def wait_ready(url: str, seconds: float = 10) -> None:
    """Wait until the server takes connections."""
    import psycopg

    plain = url.replace("postgresql+psycopg://", "postgresql://")
    deadline = time.monotonic() + seconds
    while True:
        try:
            psycopg.connect(plain).close()
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@contextmanager
def running(prefix: str) -> Iterator[str]:
    """A cluster in a new folder under /tmp (the server's user must reach it), ready to
    take connections; its URL. It is stopped and removed at the end."""
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    try:
        url = start(folder)
        wait_ready(url)
        yield url
    finally:
        stop(folder)


if __name__ == "__main__":
    verb, where = sys.argv[1], Path(sys.argv[2])
    if verb == "start":
        print(start(where))
    elif verb == "stop":
        stop(where)
    else:
        sys.exit(f"usage: python -m tests.pgcluster start|stop FOLDER (not {verb!r})")
