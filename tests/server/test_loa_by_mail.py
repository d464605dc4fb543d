"""A whole game of Lines of Action by mail against a real `pbm serve`, every mail checked."""

from __future__ import annotations

import pytest

from pbm.games import registry
from pbm.games.loa.game import GAME as LOA
from pbm.games.loa.game import SHORT_GAME
from tests.server.harness import PbmServer
from tests.server.players import ALICE, BOARD, PLAYERS, MailGame, signup_both

pytestmark = pytest.mark.server

# The help page's short game, some moves written as players might: lower case, spaces, no
# sign, a hyphen for a capture (the list records each canonically: A3xC1, H3xF1).
AS_MAILED = ("G8-A8", "a3-c1", "A8 - B7", "a4c4", "B1-D3", "h2 h8", "D1-D4", "H6-F4",
             "b8-b6", "H5-F5", "G1-C5", "H3-F1", "e1 - e3")


def flat(text: str) -> str:
    return " ".join(text.split())


def test_loa_by_mail(server: PbmServer):
    assert registry.canonical("lines-of-action") == "loa"
    signup_both(server)
    table = MailGame(server, LOA)
    table.ask_help()
    table.ask_help("lines-of-action")
    table.challenge()

    # Black's D1 would have to move two squares up its column, not four: refused, and why.
    alice = PLAYERS[0]
    server.send(ALICE, f"loa move {BOARD} {alice.userid} {alice.password} D1-D5")
    (refused,) = server.collect(1)
    assert refused.to == ALICE and refused.subject == f"Lines of Action Board {BOARD} Error"
    assert ("The column through D1 holds 2 pieces (of both colours, this one included), so"
            " the piece moves exactly 2 squares along it, not 4: that way it would reach D3."
            " The piece on D1 can move D1-D3, D1-F3 or D1-B3.") in flat(refused.body)
    assert alice.password not in refused.body

    for number, text in enumerate(AS_MAILED):
        assert not table.over
        replies = table.play(number % 2, text)
        for reply in replies.values():
            assert f"Last move: {LOA.info.seats[number % 2]} {SHORT_GAME[number]}" in reply.body
    assert [played.notation for played in table.log] == list(SHORT_GAME)
    last = table.check_over("form one connected group")
    for reply in last.values():
        assert "Game won by alice." in reply.body.splitlines()
        assert "Black's 10 pieces form one connected group." in flat(reply.body)
        assert "Black (x): 10 pieces in 1 group; has captured 0." in reply.body
    table.move_after_end_is_refused(1, "A2-A4")
