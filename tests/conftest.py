"""Shared test options: `--regen-golden` rewrites golden files instead of comparing them."""

from __future__ import annotations

from pathlib import Path

import pytest

GOLDEN_DIR = Path(__file__).parent / "games" / "golden"


# Folders whose every test starts real servers (`pbm serve`, relays, Postfix-like peers):
# the everyday `pytest -m "not slow"` leaves them to CI and to the full run.
SLOW_FOLDERS = {"server", "reliability", "mta"}
# Modules that play hundreds of whole games to prove a property.
SLOW_MODULES = {"test_secrets.py"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.parent.name in SLOW_FOLDERS or item.path.name in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--regen-golden",
        action="store_true",
        help="rewrite golden playthrough files from the current code instead of comparing",
    )


@pytest.fixture
def golden(request: pytest.FixtureRequest):
    """check(name, text, suffix=".txt"): compare text with tests/games/golden/<name><suffix>
    (or rewrite it); an HTML golden takes suffix=".html" so a browser can open it."""
    regen = request.config.getoption("--regen-golden")

    def check(name: str, text: str, suffix: str = ".txt") -> None:
        path = GOLDEN_DIR / f"{name}{suffix}"
        if regen:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return
        assert path.exists(), f"{path} is missing: run pytest --regen-golden once and review it"
        expected = path.read_text(encoding="utf-8")
        assert text == expected, f"{path.name} differs; review and rerun with --regen-golden"

    return check
