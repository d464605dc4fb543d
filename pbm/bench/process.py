"""`pbm process` benchmark: wall time per mail piped in, next to the import floor.

`pbm process` starts once per mail, so its cost is mostly Python starting and importing what
the mail path needs. The floor is `python -c "import sqlalchemy.orm"` timed the same way in
the same run: the figure to watch is the ratio.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pbm.bench.mail import PLAYERS, player_mail, workload


def _timed(argv: list[str], stdin: bytes = b"", cwd: Path | None = None) -> float:
    started = time.perf_counter()
    subprocess.run(argv, input=stdin, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - started


def run(mails: int = 20) -> dict[str, float]:
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
        for sender, raw in workload(1, mails, seed=1)[0]:
            # Taken in turns, so that whatever else the machine does weighs on both alike.
            process.append(_timed([*pbm, "process", "--sender", sender], raw, folder))
            floor.append(_timed([python, "-c", "import sqlalchemy.orm"]))
    # The median: a run or two disturbed by the machine should not move the figure.
    per_mail = sorted(process)[len(process) // 2]
    per_import = sorted(floor)[len(floor) // 2]
    return {
        "mails": len(process),
        "pbm_process_ms_per_mail": round(per_mail * 1000, 1),
        "import_sqlalchemy_orm_ms": round(per_import * 1000, 1),
        "ratio_to_import_floor": round(per_mail / per_import, 2),
    }
