"""fsync and fdatasync calls of a server process, counted by strace, for `pbm bench mail`.

The server is started under `strace -f --seccomp-bpf -e trace=fsync,fdatasync`: every thread
is followed, and the kernel stops the process only at those two calls (the seccomp filter),
so tracing costs a context switch per fsync and nothing per other call. Each call is logged
with its wall-clock time; the bench counts those inside the window it measures.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

TRACED = "fsync,fdatasync"
# "1234  1700000000.123456 fsync(5) = 0", or "... fsync(5 <unfinished ...>" when another
# thread's call is logged before this one returns (its "<... fsync resumed>" is not counted).
CALL = re.compile(r"^(?:\d+\s+)?(\d+\.\d+)\s+(?:fsync|fdatasync)\(", re.M)


def unavailable() -> str | None:
    """Why fsyncs cannot be counted here (no strace, or tracing not allowed); None if they can."""
    strace = shutil.which("strace")
    if strace is None:
        return "strace is not installed (apt-get install strace)"
    try:
        probe = subprocess.run([*prefix(Path("/dev/null")), "true"], capture_output=True,
                               timeout=30)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"strace cannot run: {err}"
    if probe.returncode != 0:
        said = probe.stderr.decode(errors="replace").strip().splitlines()
        return "strace cannot trace here: " + (said[0] if said else f"exit {probe.returncode}")
    return None


def prefix(log: Path) -> list[str]:
    """The words to put before a command to have its fsyncs logged to `log`."""
    return ["strace", "-f", "--seccomp-bpf", "-qq", "-e", "signal=none", "-ttt",
            "-e", f"trace={TRACED}", "-o", str(log)]


def counted(log: Path, since: float, until: float) -> int:
    """fsync and fdatasync calls in `log` begun between the wall-clock times (time.time())
    `since` and `until`."""
    text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
    return sum(1 for found in CALL.finditer(text) if since <= float(found.group(1)) <= until)
