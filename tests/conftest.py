"""Shared test options: `--regen-golden` rewrites golden files instead of comparing them;
`--postgresql` runs the tests that touch the database against a real PostgreSQL server."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import pgcluster, stores

GOLDEN_DIR = Path(__file__).parent / "games" / "golden"


# Folders whose every test starts real servers (`pbm serve`, relays, Postfix-like peers):
# the everyday `pytest -m "not slow"` leaves them to CI and to the full run.
SLOW_FOLDERS = {"server", "reliability", "mta"}
# Modules that play hundreds of whole games to prove a property.
SLOW_MODULES = {"test_secrets.py"}

# What the `--postgresql` run leaves out. Tests that touch no database: pure rules, pictures
# in Chromium, text layout, settings, packaging. Postfix's side of the MTA tests. The
# hundreds of whole games that prove no mail leaks a secret: they read the database like any
# command test, so the command tests cover the engine; the property is the renderers'. And
# tests/reliability: kill -9, relays and fuzzing of one SQLite node, whose PostgreSQL
# counterparts are the several-nodes tests; they would take CI past its time. The sizes of
# board mails of whole games (test_mail_size.py): the property is the pictures' and the
# composer's, not the engine's. And of tests/server, whose every test starts a real
# `pbm serve`, all but the several-nodes tests: the rest drive the same engine through the
# mail path, whose SQL the command tests run on PostgreSQL; the several-nodes tests are
# what only PostgreSQL can do (and they run a real `pbm serve` on it). Both runs together
# must stay inside CI's time.
# The six classics' differential games against OpenSpiel touch no database at all; and of
# the command tests run once per game, the five first games cover what the engine stores
# for any game (open, hidden, simultaneous, one line a move): a classic's moves are the
# same rows and JSON, so on PostgreSQL its runs would only repeat them.
LEFT_OUT_ON_POSTGRESQL = {"games", "openspiel", "browser", "mta", "ratings", "reliability"}
CLASSICS = {"hex", "reversi", "breakthrough", "amazons", "loa", "battleship"}
SERVER_TESTS_ON_POSTGRESQL = {"test_nodes.py"}
LEFT_OUT_MODULES = {"test_packaging.py", "test_readme.py", "test_service_files.py",
                    "test_width.py", "test_config.py", "test_config_lists.py", "test_screen.py",
                    "test_compose.py", "test_secrets.py", "test_spectator_secrets.py",
                    "test_undo_secrets.py", "test_layers.py", "test_mail_size.py",
                    # The web view's secrets (the renderers' property, as above), and its
                    # command and bench, which run on a SQLite file of their own.
                    "test_web_secrets.py", "test_cli_web.py", "test_bench_web.py"}


def _left_out_on_postgresql(item: pytest.Item) -> bool:
    folder = item.path.parent.name
    callspec = getattr(item, "callspec", None)
    per_game = callspec is not None and any(
        isinstance(value, str) and value in CLASSICS for value in callspec.params.values())
    return (folder in LEFT_OUT_ON_POSTGRESQL or item.path.name in LEFT_OUT_MODULES or per_game
            or folder == "server" and item.path.name not in SERVER_TESTS_ON_POSTGRESQL)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sqlite_only(reason): tests SQLite itself (files, WAL, PRAGMA); skipped "
        "on PostgreSQL with the reason")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    postgresql = config.getoption("--postgresql")
    kept, left_out = [], []
    for item in items:
        if item.path.parent.name in SLOW_FOLDERS or item.path.name in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
        if postgresql and _left_out_on_postgresql(item):
            left_out.append(item)
            continue
        marker = item.get_closest_marker("sqlite_only")
        if postgresql and marker is not None:
            item.add_marker(pytest.mark.skip(reason=f"SQLite only: {marker.args[0]}"))
        kept.append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--regen-golden",
        action="store_true",
        help="rewrite golden playthrough files from the current code instead of comparing",
    )
    parser.addoption(
        "--postgresql",
        action="store_true",
        help="give each test a database on a throwaway PostgreSQL server instead of a SQLite "
        "file (tests that touch no database are left out)",
    )


@pytest.fixture(scope="session", autouse=True)
def database_server(request: pytest.FixtureRequest) -> Iterator[None]:
    """With --postgresql: a PostgreSQL cluster for this worker, stopped at the end."""
    if not request.config.getoption("--postgresql"):
        yield
        return
    if pgcluster.programs() is None:
        pytest.skip("--postgresql needs PostgreSQL's server programs (initdb, pg_ctl): "
                    "apt-get install -y postgresql")
    # Under /tmp, not pytest's tmp_path: as root the server runs as `postgres`, which may
    # not enter root's private temporary folders.
    folder = Path(tempfile.mkdtemp(prefix="pbm-pg-"))
    try:
        url = pgcluster.start(folder)
        pgcluster.wait_ready(url)
        server = stores.PostgresServer(url)
        stores.use(server)
        yield
        stores.use(None)
        server.close()
    finally:
        pgcluster.stop(folder)


@pytest.fixture(autouse=True)
def _drop_test_databases() -> Iterator[None]:
    """Each test's PostgreSQL databases go with it (a SQLite file goes with tmp_path)."""
    yield
    stores.drop_all()


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
