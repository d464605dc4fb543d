"""A knockout of four played to its end by mail against a real `pbm serve`: sign-ups, the
tournament opened, joined and started, every move and resignation a mail over SMTP, the
final round started by the last game of the first, and the final table mailed to all."""

from __future__ import annotations

import pytest

from tests.server.harness import PbmServer, by_recipient
from tests.server.tournaments import address, boards_in_play, password, send

pytestmark = pytest.mark.server

FIELD = ("ann", "ben", "cal", "dee")  # seeded by userid (all rated 1600): 1 v 4, 2 v 3


def test_a_knockout_of_four_by_mail(server: PbmServer):
    for userid in FIELD:
        server.send(address(userid), f"signup {userid} {password(userid)}")
    assert len(server.collect(4)) == 4
    send(server, "ann", "trou tournament create cup ann PW -format=knockout", 1)
    for userid in FIELD:
        joined = send(server, userid, f"trou tournament join cup {userid} PW", 1)
        assert f"{userid} has joined the tournament cup" in joined[0].body
    started = send(server, "ann", "trou tournament start cup ann PW", 1 + 4)
    new = [r for r in started if r.subject.startswith("New Trou Board a10")]
    assert {r.to for r in new} == {address(u) for u in FIELD}
    assert boards_in_play(server) == [("a101", "ann", "dee"), ("a102", "ben", "cal")]

    # Round 1: the first-named seat wins each board; the final is started by the last.
    for label, white, black in boards_in_play(server):
        send(server, white, f"trou move {label} {white} PW 1B2", 2)
        send(server, black, f"trou move {label} {black} PW 4C2", 2)
        send(server, white, f"trou move {label} {white} PW 2B1", 2)
        last_of_round = label == "a102"
        ended = send(server, black, f"trou resign {label} {black} PW",
                     2 + (2 if last_of_round else 0))
        finals = [r for r in ended if r.subject == f"Trou Board {label}"]
        assert {r.to for r in finals} == {address(white), address(black)}
        assert all(f"{black} resigned." in r.body for r in finals)
    final = boards_in_play(server)
    assert final == [("a103", "ann", "ben")]

    send(server, "ann", "trou move a103 ann PW 1B2", 2)
    send(server, "ben", "trou move a103 ben PW 4C2", 2)
    send(server, "ann", "trou move a103 ann PW 2B1", 2)
    ended = send(server, "ben", "trou resign a103 ben PW", 2 + 4)
    tables = by_recipient([r for r in ended if r.subject == "Tournament cup has ended"])
    assert set(tables) == {address(u) for u in FIELD}
    for reply in tables.values():
        assert "Winner: ann" in reply.body
        assert "  a103   ann              - ben              ann won" in reply.body
    shown = send(server, "dee", "trou tournament show cup", 1)[0]
    assert shown.body.startswith("Trou tournament cup (knockout, boards a101...): finished")
