"""`pbm bench web` runs end to end on small stores and reports every figure it promises
(its speed is read from the command, never asserted here)."""

from __future__ import annotations

import json
import subprocess
import sys


def test_bench_web_reports_its_figures(tmp_path):
    done = subprocess.run([sys.executable, "-m", "pbm", "bench", "web", "--small", "60",
                           "--big", "120", "--pages", "60", "--json"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    # Its steps as it goes, on standard error.
    assert "web: building the small store (60 boards, 10,000 players)" in done.stderr
    assert "web: big store built in " in done.stderr
    assert "asking a real pbm web for 40 board pages" in done.stderr
    assert figures["pages_asked"] == 40
    for store in ("small", "big"):
        for kind in ("board_page", "static", "board_page_again", "board_304"):
            assert figures[f"{store}_{kind}_per_second"] > 0
            assert 0 < figures[f"{store}_{kind}_p50_ms"] <= figures[f"{store}_{kind}_p95_ms"]
    assert figures["big_board_page_to_static"] > 0
    assert figures["big_to_small_board_page_cost"] > 0
