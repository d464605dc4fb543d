"""Votes by mail against a real `pbm serve` (issue 10): a draw offered and accepted, an undo
agreed, and a preview; each mail brings one board mail per player (or one answer)."""

from __future__ import annotations

import pytest

from tests import stores
from tests.server.harness import PbmServer, by_recipient
from tests.server.test_trou_by_mail import ALICE, BOB, a_game, challenge, play, signup_both

pytestmark = pytest.mark.server


def start(server: PbmServer, moves: int) -> list[tuple[int, str]]:
    signup_both(server)
    challenge(server)
    log = a_game()
    play(server, log[:moves], 1)
    return log


def test_a_draw_by_mail(server: PbmServer):
    start(server, 3)
    server.send(ALICE, "trou move 101 alice secret propose", "A draw?")
    offer = by_recipient(server.collect(2))
    assert offer[ALICE].subject == offer[BOB].subject == "Trou Board 101 bob **"
    for reply in offer.values():
        assert "alice proposes a draw; bob has not answered." in reply.body.splitlines()
        assert "alice writes:" in reply.body and "secret" not in reply.body
    assert "Answer: trou move 101 bob PASSWORD accept (or reject)." in offer[BOB].body
    # An answer by mail, as a reply to the board mail: the Subject is the command.
    server.send(BOB, "Re: trou move 101 bob hunter2 accept")
    final = by_recipient(server.collect(2))
    for reply in final.values():
        assert reply.subject == "Trou Board 101"
        lines = reply.body.splitlines()
        assert "Game was a tie." in lines and "The players agreed to a draw." in lines
        assert "alice's rating is 1624 (provisional)." in lines
        assert "hunter2" not in reply.body
    with stores.sql(server.database) as db:
        status, winners = db.execute(
            "select status, cast(winners as text) from boards where id = 101").fetchone()
        assert (status, winners) == ("finished", "[]")
        assert db.execute("select tied from ratings order by user_id").fetchall() == [(1,), (1,)]


def test_an_undo_and_a_preview_by_mail(server: PbmServer):
    log = start(server, 3)
    server.send(BOB, "trou move 101 bob hunter2 undo")
    asked = by_recipient(server.collect(2))
    assert all("bob proposes to take back move 3; alice has not answered." in r.body
               for r in asked.values())
    server.send(ALICE, "trou move 101 alice secret accept")
    done = by_recipient(server.collect(2))
    for reply in done.values():
        assert reply.subject == "Trou Board 101 alice"  # alice moves again
        assert "  4. (move 3 taken back)" in reply.body
        assert "The players agreed to take back move 3." in reply.body
    # The takeback counts in the log: the move made again is move 5.
    play(server, log[2:3], 5)
    server.send(BOB, f"trou preview 101 bob hunter2 {log[3][1]} {log[4][1]}")
    (preview,) = server.collect(1)
    assert preview.to == BOB and preview.subject == "Trou Board 101 Preview"
    assert f"   6. {log[3][1]} (bob)" in preview.body and "hunter2" not in preview.body
    with stores.sql(server.database) as db:
        rows = db.execute("select number, kind, notation from moves order by number").fetchall()
        assert [r[:2] for r in rows] == [(1, "move"), (2, "move"), (3, "move"),
                                         (4, "takeback"), (5, "move")]
        assert rows[3][2] == "undo 3"
