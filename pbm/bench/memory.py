"""Memory benchmark: `pbm serve`'s resident memory after 1,000 handled mails and after many.

The mails are Loophole moves on as many boards as it takes (each board stops short of its
game's end), over one SMTP connection; memory is read from /proc once every mail of a stage
was answered and its board mails delivered. A server that keeps something per mail, per
board or per player in memory grows here.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from pbm.bench.mail import (
    PLAYERS,
    _send_all,
    _start_server,
    _wait_for,
    player_mail,
    workload,
)
from pbm.bench.progress import Progress, quiet

MOVES_PER_BOARD = 230  # random Loophole games here last 236 moves or more


def resident_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc (Linux only)")


def run(mails: int = 100_000, first: int = 1_000, progress: Progress = quiet
        ) -> dict[str, float]:
    boards = -(-mails // MOVES_PER_BOARD)
    moves = workload(boards, MOVES_PER_BOARD, seed=5)[0][:mails]
    with tempfile.TemporaryDirectory(prefix="pbm-bench-") as tmp:
        folder = Path(tmp)
        process, port = _start_server(folder)
        try:
            challenger = PLAYERS[0][2]
            setup = [(a, player_mail(a, f"signup {u} {p}")) for u, p, a in PLAYERS]
            setup += [(challenger, player_mail(challenger, "loophole challenge alice bob"))
                      for _ in range(boards)]
            progress(f"memory: setup: {len(PLAYERS)} sign-ups and {boards} challenges")
            _send_all(port, setup)
            delivered = 2 + 2 * boards
            readings = {}
            for stage, upto in (("first", first), ("all", len(moves))):
                done = first if stage == "all" else 0
                _send_all(port, moves[done:upto])
                _wait_for(folder / "maildir", delivered + 2 * upto)
                readings[stage] = resident_kib(process.pid)
                progress(f"memory: after {upto:,} mails: {readings[stage]:,} KiB resident")
        finally:
            process.terminate()
            process.wait(timeout=60)
    return {
        "mails": len(moves),
        "rss_after_first_kib": readings["first"],
        "first_mails": first,
        "rss_after_all_kib": readings["all"],
        "ratio_all_to_first": round(readings["all"] / readings["first"], 2),
    }
