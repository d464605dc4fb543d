"""Every page type over real HTTP: what it shows, its manners (titles, Open Graph tags,
caching), valid HTML, and that reading it changes nothing."""

from __future__ import annotations

import re

import html5lib
import pytest

from tests.commands.conftest import ALICE, BOB, PW, TROU_GAME, start_trou


def checked(body: bytes) -> str:
    """The page, after a strict HTML5 parse: any parse error fails the test."""
    html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(body)
    return body.decode()


def title(text: str) -> str:
    found = re.search(r"<title>(.*?)</title>", text)
    assert found, text[:200]
    return found.group(1)


def test_a_board_page_shows_the_board_its_players_turn_and_moves(site, players):
    number = start_trou(players, moves=TROU_GAME[:4])
    page = site.get(f"/trou/{number}")
    assert page.status == 200
    text = checked(page.body)
    assert title(text) == f"Trou Board {number}: alice vs bob"
    assert '<meta property="og:title" content="Trou Board 101: alice vs bob">' in text
    assert "It is alice&#39;s turn." in text
    assert '<a href="/players/alice">alice</a>' in text and "1600" in text
    for i, move in enumerate(TROU_GAME[:4], 1):
        assert f'<a href="/trou/{number}?move={i}">{i}</a>' in text
        assert f"<td>{move}</td>" in text
    assert 'class="tq' in text  # the drawn board, as the HTML mails draw it
    assert "R2" in text  # and the text board under it
    assert page.headers["Content-Type"].startswith("text/html")
    assert page.headers["Cache-Control"].startswith("public, max-age=")
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]


def test_a_position_after_a_move_steps_back_and_forth(site, players):
    number = start_trou(players, moves=TROU_GAME[:4])
    page = checked(site.get(f"/trou/{number}?move=2").body)
    assert "after move 2" in title(page)
    assert f'href="/trou/{number}?move=1" id="previous"' in page
    assert f'href="/trou/{number}?move=3" id="next"' in page
    assert '<link rel="next"' in page and '<script src="/static/steps.js">' in page
    # After move 2 only alice's 1 and bob's 4 stand: alice's 2 (move 3) is not yet there.
    board = page[page.index("<pre>"):page.index("</pre>")]
    assert "R1" in board and "B4" in board and "R2" not in board
    start = checked(site.get(f"/trou/{number}?move=0").body)
    assert 'id="previous"' not in start and f'href="/trou/{number}?move=1" id="next"' in start
    assert site.get("/static/steps.js").status == 200


def test_the_page_of_a_board_that_ended_gives_the_result(site, players):
    number = start_trou(players, moves=TROU_GAME)
    page = checked(site.get(f"/trou/{number}").body)
    assert "Game won by alice." in page
    assert "Game ended" in page  # pbmserv's clock block


def test_comments_are_shown_escaped(site, players):
    number = start_trou(players)
    players(ALICE, f"trou move {number} alice {PW['alice']} 1B2",
            comment="Watch this <script>alert(1)</script> & more")
    page = checked(site.get(f"/trou/{number}").body)
    assert "alice writes: Watch this &lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in page
    assert "<script>alert" not in page


def test_an_unchanged_board_answers_304_and_a_move_changes_its_tag(site, players):
    number = start_trou(players, moves=TROU_GAME[:2])
    first = site.get(f"/trou/{number}")
    etag = first.headers["ETag"]
    again = site.get(f"/trou/{number}", {"If-None-Match": etag})
    assert again.status == 304 and again.body == b""
    players(ALICE, f"trou move {number} alice {PW['alice']} {TROU_GAME[2]}")
    moved = site.get(f"/trou/{number}", {"If-None-Match": etag})
    assert moved.status == 200 and moved.headers["ETag"] != etag
    other = site.get(f"/trou/{number}?move=1")
    assert other.headers["ETag"] != moved.headers["ETag"]


def test_the_game_page_has_rules_boards_and_standings(site, players):
    running = start_trou(players, moves=TROU_GAME[:2])
    done = start_trou(players, "alice", "carol", moves=TROU_GAME)
    page = checked(site.get("/trou").body)
    assert title(page) == "Trou"
    assert f'<a href="/trou/{running}">{running}</a>' in page
    assert f'<a href="/trou/{done}">{done}</a>' in page and "won by alice" in page
    assert "Standings" in page and '<a href="/players/carol">carol</a>' in page
    assert "Trou" in page and "TROU" in page.upper()  # its help page
    assert "Running boards (1)" in page and "Finished boards (1)" in page


def test_the_game_page_pages_its_boards(players):
    from tests.web.conftest import LiveSite, site_config

    for _ in range(3):
        start_trou(players, moves=TROU_GAME[:1])
    live = LiveSite(players, site_config(page_size=2))
    try:
        first = checked(live.get("/trou").body)
        assert "Page 1 of 2" in first and 'href="/trou?active=2"' in first
        second = checked(live.get("/trou?active=2").body)
        assert "Page 2 of 2" in second and second.count('<a href="/trou/1') == 1
        assert live.get("/trou?active=3").status == 404
        assert live.get("/trou?active=two").status == 400
    finally:
        live.stop()


def test_the_player_page_lists_boards_and_finished_games(site, players):
    running = start_trou(players, moves=TROU_GAME[:2])
    done = start_trou(players, "alice", "carol", moves=TROU_GAME)
    page = checked(site.get("/players/alice").body)
    assert title(page) == "alice on pbm"
    assert f'<a href="/trou/{running}">{running}</a>' in page
    assert f'<a href="/trou/{done}">{done}</a>' in page
    assert "Ratings" in page and "Won 1, lost 0" in page
    assert 'type="application/atom+xml"' in page
    assert site.get("/players/ALICE").status == 200  # userids are written in any case


def test_the_front_page_offers_games_recent_ends_and_seekers(site, players):
    done = start_trou(players, moves=TROU_GAME)
    players(BOB, f"loophole seek bob {PW['bob']}")
    page = checked(site.get("/").body)
    for game in ("Trou", "Loophole", "Pipeline", "Outguess", "Synapse-Ice"):
        assert game in page
    assert f'<a href="/trou/{done}">{done}</a>' in page
    assert '<a href="/players/bob">bob</a> seeks 1 Loophole game' in page
    assert '<meta property="og:description"' in page


def test_reading_pages_changes_nothing(site, players):
    number = start_trou(players, moves=TROU_GAME[:3])
    before = players.snapshot()
    for path in ("/", "/trou", f"/trou/{number}", f"/trou/{number}?move=1",
                 f"/trou/{number}.json", f"/trou/{number}.txt", f"/trou/{number}.atom",
                 "/players/alice", "/players/alice.atom", "/trou/ladder"):
        assert site.get(path).status == 200, path
    assert players.snapshot() == before


@pytest.mark.parametrize("path", ["/chess", "/trou/999", "/trou/b101", "/trou/1x1",
                                  "/trou/101.exe", "/trou/101?move=9", "/players/nobody",
                                  "/players/alice.rss", "/trou/tournaments/none",
                                  "/favicon.ico", "/static/none.css", "/a/b/c/d"])
def test_what_names_nothing_is_a_short_404_that_helps(site, players, path):
    start_trou(players, moves=TROU_GAME[:2])
    page = site.get(path)
    assert page.status == 404, (path, page.status)
    text = page.text
    assert len(page.body) < 4000 and "Traceback" not in text
    assert '<a href="/">the front page' in text or page.headers["Content-Type"] \
        .startswith("text/plain")
    assert page.headers["Cache-Control"] == "no-store" or "/static/" in path


@pytest.mark.parametrize("path", ["/trou/101?move=x", "/trou/101?move=-1",
                                  "/trou/101?move=%C2%B2", "/trou?active=0",
                                  "/trou?finished=" + "9" * 30,
                                  "/trou/101?move=1&" + "x" * 3000])
def test_a_question_we_cannot_answer_is_a_short_400(site, players, path):
    start_trou(players, moves=TROU_GAME[:2])
    page = site.get(path)
    assert page.status == 400, (path, page.status)
    assert len(page.body) < 4000 and "Traceback" not in page.text


@pytest.mark.parametrize("path", ["/../pbm.sqlite", "/trou/../../etc/passwd",
                                  "/%2e%2e/%2e%2e/etc/passwd", "/static/../app.py",
                                  "/static/%2e%2e/app.py", "/static/..%2fapp.py",
                                  "/static/%2e%2e%2f%2e%2e%2fpyproject.toml",
                                  "/trou/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
                                  "/static//etc/passwd", "/players/..%2f..%2fetc"])
def test_path_tricks_reach_no_file(site, players, path):
    start_trou(players, moves=TROU_GAME[:2])
    page = site.get(path)
    assert page.status in (400, 403, 404), (path, page.status)
    text = page.body.decode(errors="replace")
    assert "Traceback" not in text and "root:" not in text and "import" not in text
    assert "SQLite format" not in text


def test_only_reading_is_allowed(site, players):
    number = start_trou(players)
    page = site.get(f"/trou/{number}", method="POST")
    assert page.status == 405 and "Traceback" not in page.text
    assert site.get(f"/trou/{number}", method="HEAD").status == 200


def test_a_game_alias_or_capital_redirects_to_the_one_address(site, players):
    number = start_trou(players)
    page = site.get(f"/TROU/{number}?move=0")
    assert page.status == 301 and page.headers["Location"] == f"/trou/{number}?move=0"


def test_the_player_page_pages_finished_games(players):
    from tests.web.conftest import LiveSite, site_config

    for _ in range(3):
        start_trou(players, moves=TROU_GAME)
    live = LiveSite(players, site_config(page_size=2))
    try:
        first = live.get("/players/alice").text
        assert "Page 1 of 2" in first and 'href="/players/alice?finished=2"' in first
        second = live.get("/players/alice?finished=2").text
        assert "Page 2 of 2" in second and 'href="/players/alice">' in second
    finally:
        live.stop()
