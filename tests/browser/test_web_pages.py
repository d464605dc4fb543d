"""Every page type of the web view in a real headless Chromium, at a phone's width: it
loads without a console error (no script error, no refusal of the pages' own Content
Security Policy), has its title, does not overflow sideways, and the arrow keys step
through a board's moves. Screenshots are kept under artefacts/screenshots/."""

from __future__ import annotations

import time

import pytest

from tests.browser.harness import PHONE_WIDTH
from tests.commands.conftest import (  # noqa: F401  (the Runner's fixtures)
    ALICE,
    BOB,
    PW,
    TROU_GAME,
    account_rows,
    players,
    run,
    start_trou,
)
from tests.web.conftest import LiveSite, site_config


@pytest.fixture
def house(players):  # noqa: F811
    start_trou(players, "alice", "carol", moves=TROU_GAME)  # finished: a rated game
    running = start_trou(players, moves=TROU_GAME[:4])
    players(ALICE, "loophole challenge alice bob")
    players(ALICE, f"loophole move 101 alice {PW['alice']} K10")
    players(ALICE, "pipeline challenge alice bob")
    players(BOB, f"trou ladder join bob {PW['bob']}")
    live = LiveSite(players, site_config())
    yield live, running
    live.stop()


PAGES = [
    ("front", "/", "pbm"),
    ("game", "/trou", "Trou"),
    ("board", "/trou/{running}", "Trou Board {running}: alice vs bob"),
    ("position", "/trou/{running}?move=2", "Trou Board {running}: alice vs bob, after move 2"),
    ("loophole", "/loophole/101", "Loophole Board 101: alice vs bob"),
    ("pipeline", "/pipeline/101", "Pipeline Board 101: alice vs bob"),
    ("player", "/players/alice", "alice on pbm"),
    ("ladder", "/trou/ladder", "The Trou ladder on pbm"),
    ("missing", "/trou/999", "Not found"),
]


def severe(entries: list[dict], expected_404: bool) -> list[dict]:
    found = [e for e in entries if e.get("level") == "SEVERE"]
    if expected_404:  # the page's own status, which Chromium reports as a failed load
        found = [e for e in found if "status of 404" not in e.get("message", "")]
    return found


@pytest.mark.parametrize(("name", "path", "title"), PAGES, ids=[p[0] for p in PAGES])
def test_each_page_loads_clean_and_fits_a_phone(browser, house, name, path, title):
    live, running = house
    browser.console()  # what earlier pages left
    shot = browser.visit(live.origin + path.format(running=running))
    browser.keep(shot, f"web-{name}")
    assert browser.driver.title == title.format(running=running)
    assert severe(browser.console(), name == "missing") == []
    assert shot.page_width <= PHONE_WIDTH, f"{name} overflows: {shot.page_width}px"


def test_the_arrow_keys_step_through_the_moves(browser, house):
    from selenium.webdriver.common.keys import Keys

    live, running = house
    browser.visit(f"{live.origin}/trou/{running}?move=2")
    body = browser.driver.find_element("tag name", "body")
    body.send_keys(Keys.ARROW_RIGHT)
    wait_for(browser, f"/trou/{running}?move=3")
    browser.driver.find_element("tag name", "body").send_keys(Keys.ARROW_LEFT)
    wait_for(browser, f"/trou/{running}?move=2")
    assert severe(browser.console(), False) == []


def wait_for(browser, ending: str) -> None:
    deadline = time.monotonic() + 10
    while not browser.driver.current_url.endswith(ending):
        assert time.monotonic() < deadline, browser.driver.current_url
        time.sleep(0.05)
