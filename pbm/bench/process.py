"""`pbm process` benchmark: CPU time per mail piped in, next to the import floor.

`pbm process` starts once per mail, so its cost is mostly Python starting and importing what
the mail path needs. The floor is `python -c "import sqlalchemy.orm"` measured the same way
in the same run, one after the other: the figure to watch is the ratio. CPU time (user and
system, of the child process, from the kernel's accounting) rather than wall time: the
machine may be shared, and another program's work then lengthens both alike only in wall
time. Wall time is given too.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from pbm.bench.mail import PLAYERS, player_mail, workload


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


# As an installed pbm runs: its bytecode cached (pip compiles it when it installs), where a
# PYTHONDONTWRITEBYTECODE in the bench's own environment would make every run compile
# every module it imports again. The first runs (the players' signups) write the caches.
_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def _timed(argv: list[str], stdin: bytes = b"", cwd: Path | None = None
           ) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of `argv` to its end."""
    cpu, started = _children_cpu(), time.perf_counter()
    subprocess.run(argv, input=stdin, cwd=cwd, check=True, capture_output=True, env=_ENV)
    return _children_cpu() - cpu, time.perf_counter() - started


def _median(values: list[float]) -> float:
    # The median: a run or two disturbed by the machine should not move the figure.
    return sorted(values)[len(values) // 2]


def run(mails: int = 20, progress: Callable[[str], None] | None = None
        ) -> dict[str, float]:
    """`mails` Loophole moves, each piped to a new `pbm process`, in turns with the floor;
    `progress` is told a line per mail."""
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="pbm-bench-") as tmp:
        folder = Path(tmp)
        config = folder / "pbm.toml"
        config.write_text('[server]\naddress = "pbm@bench.test"\n'
                          "[limits]\nmails_per_sender_per_hour = 0\n", encoding="utf-8")
        pbm = [python, "-m", "pbm", "--config", str(config)]
        subprocess.run([*pbm, "db", "upgrade"], check=True, capture_output=True)
        for userid, password, address in PLAYERS:
            _timed([*pbm, "process", "--sender", address],
                   player_mail(address, f"signup {userid} {password}"), folder)
        alice = PLAYERS[0][2]
        _timed([*pbm, "process", "--sender", alice],
               player_mail(alice, "loophole challenge alice bob"), folder)
        process, floor = [], []
        for number, (sender, raw) in enumerate(workload(1, mails, seed=1)[0], start=1):
            # Taken in turns, so that whatever else the machine does weighs on both alike.
            process.append(_timed([*pbm, "process", "--sender", sender], raw, folder))
            floor.append(_timed([python, "-c", "import sqlalchemy.orm"]))
            if progress is not None:
                progress(f"process: mail {number}/{mails}: pbm process "
                         f"{process[-1][0] * 1000:.1f} ms CPU "
                         f"({process[-1][1] * 1000:.1f} ms wall), import sqlalchemy.orm "
                         f"{floor[-1][0] * 1000:.1f} ms CPU")
    cpu, import_cpu = _median([p[0] for p in process]), _median([f[0] for f in floor])
    return {
        "mails": len(process),
        "pbm_process_cpu_ms_per_mail": round(cpu * 1000, 1),
        "import_sqlalchemy_orm_cpu_ms": round(import_cpu * 1000, 1),
        "ratio_to_import_floor": round(cpu / import_cpu, 2),
        "pbm_process_wall_ms_per_mail": round(_median([p[1] for p in process]) * 1000, 1),
        "import_sqlalchemy_orm_wall_ms": round(_median([f[1] for f in floor]) * 1000, 1),
    }
