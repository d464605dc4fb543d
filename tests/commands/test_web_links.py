"""With [web] base_url set, every board mail ends with its board's link, in the text and
in the HTML part; without it, no mail says a word of the web."""

from __future__ import annotations

import html5lib
import pytest

from pbm.width import WIDTH
from tests.commands.conftest import ALICE, BOB, CAROL, PW, STRANGER, TROU_GAME, start_trou

BASE = "https://games.example.org"


@pytest.fixture
def linked(players):
    players.web_base_url = BASE + "/"  # the closing slash gives no second one
    return players


def assert_ends_with_link(reply, url):
    assert reply.body.rstrip("\n").endswith(f"This board on the web: {url}"), reply.body
    if reply.html is not None:
        assert f'<a href="{url}">{url}</a>' in reply.html
        html5lib.HTMLParser(strict=True).parse(reply.html)
    assert all(len(line) <= WIDTH for line in reply.body.splitlines())


def test_every_board_mail_of_a_game_ends_with_the_link(linked):
    replies = linked(STRANGER, "trou challenge alice bob")
    number = 101
    url = f"{BASE}/trou/{number}"
    boards = [r for r in replies if r.kind == "board"]
    assert len(boards) == 3  # both players, and the stranger who challenged them
    for reply in boards:
        assert_ends_with_link(reply, url)
    for i, move in enumerate(TROU_GAME):
        userid = ("alice", "bob")[i % 2]
        address = (ALICE, BOB)[i % 2]
        for reply in linked(address, f"trou move {number} {userid} {PW[userid]} {move}"):
            assert_ends_with_link(reply, url)
    assert "Game won by alice." in reply.body  # the last mail too


def test_show_and_subscribe_link_to_the_position_they_show(linked):
    number = start_trou(linked, moves=TROU_GAME[:3])
    shown, = linked(CAROL, f"trou show {number}")
    assert_ends_with_link(shown, f"{BASE}/trou/{number}")
    earlier, = linked(CAROL, f"trou show {number}#2")
    assert_ends_with_link(earlier, f"{BASE}/trou/{number}?move=2")
    watched, = linked(CAROL, f"trou subscribe {number} carol {PW['carol']}")
    assert_ends_with_link(watched, f"{BASE}/trou/{number}")
    moved = linked(BOB, f"trou move {number} bob {PW['bob']} {TROU_GAME[3]}")
    assert len(moved) == 3  # alice, bob and carol the spectator
    for reply in moved:
        assert_ends_with_link(reply, f"{BASE}/trou/{number}")


def test_a_long_address_stays_whole_on_a_line_of_its_own(players):
    players.web_base_url = "https://" + "very-long-name." * 5 + "example.org/pbm"
    replies = players(STRANGER, "trou challenge alice bob")
    url = players.web_base_url + "/trou/101"
    for reply in replies:
        lines = reply.body.rstrip("\n").splitlines()
        assert lines[-2:] == ["This board on the web:", url]


def test_without_a_base_url_no_mail_mentions_the_web(players):
    number = start_trou(players)
    replies = [*players(ALICE, f"trou move {number} alice {PW['alice']} 1B2"),
               *players(CAROL, f"trou show {number}")]
    for reply in replies:
        assert "on the web" not in reply.body
        assert "<a href" not in (reply.html or "")
