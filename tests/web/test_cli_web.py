"""`pbm web` in a fresh process: it serves the pages of an existing database, refuses a
bad address or a missing database clearly, and stops on SIGTERM."""

from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

SERVING = re.compile(r"pbm web: web view on http://([\d.]+):(\d+)/ \(read only\)")


def pbm(folder: Path, *args: str, **how) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pbm", *args], cwd=folder, text=True,
                          capture_output=True, env=clean_env(), timeout=60, **how)


def clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("PBM_")}


def test_pbm_web_serves_a_database_and_stops(tmp_path):
    assert pbm(tmp_path, "db", "upgrade").returncode == 0
    log = tmp_path / "web.log"
    with open(log, "w") as out:
        process = subprocess.Popen([sys.executable, "-m", "pbm", "web", "--listen",
                                    "127.0.0.1:0"], cwd=tmp_path, stdout=out,
                                   stderr=subprocess.STDOUT, env=clean_env())
    try:
        deadline = time.monotonic() + 30
        while not (found := SERVING.search(log.read_text())) and process.poll() is None \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        assert found, log.read_text()
        conn = http.client.HTTPConnection(found.group(1), int(found.group(2)), timeout=10)
        conn.request("GET", "/trou")
        response = conn.getresponse()
        assert response.status == 200 and b"Running boards (0)" in response.read()
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(20)
    assert process.returncode == 0
    assert "pbm web: stopped" in log.read_text()


def test_pbm_web_refuses_a_bad_address_and_a_missing_database(tmp_path):
    missing = pbm(tmp_path, "web", "--listen", "127.0.0.1:0")
    assert missing.returncode != 0 and "no database at" in missing.stderr
    assert pbm(tmp_path, "db", "upgrade").returncode == 0
    bad = pbm(tmp_path, "web", "--listen", "8080")
    assert bad.returncode == 2
    assert "--listen must be HOST:PORT like 127.0.0.1:8080, not '8080'" in bad.stderr
