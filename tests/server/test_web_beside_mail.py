"""`pbm serve` with [web] listen: one process takes the mail and serves the pages, and a
move mailed in is on the board's page as soon as its replies are out."""

from __future__ import annotations

import http.client
import re

import pytest

from tests.server.harness import PbmServer, by_recipient

pytestmark = pytest.mark.server

ALICE = "alice@players.test"
BOB = "bob@players.test"
WEB = re.compile(r"pbm serve: web view on http://([\d.]+):(\d+)/")


def fetch(host: str, port: int, path: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection(host, port, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read().decode()
    finally:
        conn.close()


def test_a_move_by_mail_shows_on_the_web_view_of_the_same_process(tmp_path):
    server = PbmServer(tmp_path / "house", extra_config='[web]\nlisten = "127.0.0.1:0"\n'
                       'base_url = "https://games.test/"\n')
    server.start()
    try:
        found = WEB.search(server.log.read_text())
        assert found, server.log.read_text()
        host, port = found.group(1), int(found.group(2))
        status, page = fetch(host, port, "/")
        assert status == 200 and "Trou" in page
        server.send(ALICE, "signup alice secret")
        server.send(BOB, "signup bob hunter2")
        server.collect(2)
        server.send(ALICE, "trou challenge alice bob")
        server.collect(2)
        assert fetch(host, port, "/trou/101")[0] == 200
        server.send(ALICE, "trou move 101 alice secret 1B2")
        for reply in by_recipient(server.collect(2)).values():  # their links lead here
            assert reply.body.rstrip().endswith(
                "This board on the web: https://games.test/trou/101"), reply.body
        status, page = fetch(host, port, "/trou/101")
        assert status == 200 and "<td>1B2</td>" in page and "It is bob&#39;s turn." in page
        assert '<meta property="og:url" content="https://games.test/trou/101">' in page
        assert fetch(host, port, "/trou/102")[0] == 404
    finally:
        server.stop()
    assert "pbm serve: stopped" in server.log.read_text()
