"""Queued replies by mail against a real `pbm serve`: bob queues, alice moves, and both get
one board mail showing bob's reply played (Auto)."""

from __future__ import annotations

import pytest

from tests.server.harness import PbmServer, by_recipient
from tests.server.players import ALICE, BOB, signup_both

pytestmark = pytest.mark.server


def test_a_queued_reply_is_played_when_alice_moves(server: PbmServer):
    signup_both(server)
    server.send(ALICE, "trou challenge alice bob")
    server.collect(2)

    server.send(BOB, "trou queue 101 bob pw-bob-3z 4c2 if 1B2, 4A2 if 2B1")
    (answer,) = server.collect(1)
    assert (answer.to, answer.subject) == (BOB, "Trou Board 101")
    assert "Queued on Trou board 101: 4C2 if 1B2, 4A2 if 2B1." in answer.body
    assert "pw-bob-3z" not in answer.body

    server.send(ALICE, "trou move 101 alice pw-alice-7q 1B2")
    mails = by_recipient(server.collect(2))  # one board mail each, nothing more
    assert set(mails) == {ALICE, BOB}
    for mail in mails.values():
        assert mail.subject == "Trou Board 101 alice"
        assert "  1. 1B2" in mail.body and "  2. 4C2 (Auto)" in mail.body
        assert "It is alice's turn." in mail.body
        assert "queued" not in mail.body.lower()

    # An unconditional move that no longer fits: dropped, and only bob is told why.
    server.send(BOB, "trou queue 101 bob pw-bob-3z 3B2")
    server.collect(1)
    server.send(ALICE, "trou move 101 alice pw-alice-7q 2B1")
    replies = server.collect(3)
    notice = [r for r in replies if "queued move dropped" in r.subject]
    assert [(r.to, r.subject) for r in notice] == [(BOB, "Trou Board 101: queued move dropped")]
    assert "it is not legal now. B2 is already occupied" in " ".join(notice[0].body.split())
    boards = by_recipient([r for r in replies if r not in notice])
    assert set(boards) == {ALICE, BOB}
    assert all(mail.subject == "Trou Board 101 bob" for mail in boards.values())
