"""The systemd units in contrib/systemd: what they promise, and that systemd accepts them."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

UNITS = Path(__file__).resolve().parents[1] / "contrib" / "systemd"
INSTALLED = "/opt/pbm/.venv/bin/pbm"  # where the units (and the README) expect pbm


def unit(name: str) -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=True, empty_lines_in_values=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    parser.read(UNITS / name, encoding="utf-8")
    return parser


@pytest.mark.parametrize("name", ["pbm.service", "pbm-tick.service"])
def test_services_run_as_pbm_with_owner_only_files_and_a_read_only_system(name: str):
    service = unit(name)["Service"]
    assert service["User"] == "pbm"
    assert service["UMask"] == "0077"
    assert service["NoNewPrivileges"] == "yes"
    assert service["ProtectSystem"] == "strict"
    assert service["ReadWritePaths"] == service["WorkingDirectory"] == "/var/lib/pbm"
    assert service["ExecStart"].startswith(f"{INSTALLED} --config /etc/pbm.toml ")


def test_the_server_restarts_on_failure_and_the_timer_ticks():
    server = unit("pbm.service")
    assert server["Service"]["ExecStart"].endswith(" serve")
    assert server["Service"]["Restart"] == "on-failure"
    assert server["Install"]["WantedBy"] == "multi-user.target"
    tick = unit("pbm-tick.service")["Service"]
    assert tick["ExecStart"].endswith(" tick") and tick["Type"] == "oneshot"
    timer = unit("pbm-tick.timer")
    assert timer["Timer"]["OnUnitActiveSec"] == "5min"
    assert timer["Install"]["WantedBy"] == "timers.target"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed")
def test_systemd_accepts_the_units(tmp_path: Path):
    pbm = Path(sys.executable).parent / "pbm"
    if not pbm.exists():
        pytest.skip(f"no pbm script beside {sys.executable} to stand for {INSTALLED}")
    for source in UNITS.iterdir():
        # verify checks that ExecStart's program exists: this checkout's stands in for it.
        text = source.read_text(encoding="utf-8").replace(INSTALLED, str(pbm))
        (tmp_path / source.name).write_text(text, encoding="utf-8")
    names = sorted(str(path) for path in tmp_path.iterdir())
    done = subprocess.run(["systemd-analyze", "verify", *names], capture_output=True,
                          text=True, timeout=60)
    # Unknown keys are only warned about: any word from it is a fault of the units.
    assert done.returncode == 0 and not done.stderr.strip() and not done.stdout.strip(), \
        done.stderr + done.stdout
