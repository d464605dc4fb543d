"""kill -9 of `pbm serve` as a round of a tournament ends: the mail that decides the last
board of a round is answered 250 and the server killed at once (or a moment later, at a
random point of its work), then started again. The next round is started exactly once: its
pairings and boards exist once, each of its players gets the new board once, and neither
the restart nor the sender mailing the same message again (as an MTA unsure of the 250
would) starts it again or mails anything twice. Then the tournament ends, once."""

from __future__ import annotations

import random
import time
from email.utils import make_msgid

import pytest

from tests import stores
from tests.server.harness import PbmServer, Received
from tests.server.tournaments import TROU_MOVES, address, boards_in_play, password, send, sign_up

pytestmark = pytest.mark.server

PLAYERS = ("p01", "p02", "p03", "p04")  # a round robin of 4: three rounds of two boards


def killed_after(server: PbmServer, userid: str, line: str, delay: float, replies: int,
                 message_id: str) -> list[Received]:
    """`userid` mails `line`; once it is answered 250 the server is killed after `delay`
    seconds and started again: the `replies` the mail causes, each once."""
    server.send(address(userid), line.replace("PW", password(userid)), message_id=message_id)
    time.sleep(delay)
    server.kill()
    server.start()
    got = server.collect(replies)
    assert len({(r.to, r.subject, r.body) for r in got}) == len(got)  # none twice
    for reply in got:
        assert not reply.subject.endswith("Error"), reply.body
    return got


def pairings(server: PbmServer) -> list[tuple[int, int]]:
    """(round, games) of the tournament, and the tournament boards made in all."""
    with stores.sql(server.database) as db:
        return [tuple(row) for row in db.execute(
            "select round, count(*) from tournament_games group by round order by round")]


def tournament_boards(server: PbmServer) -> int:
    with stores.sql(server.database) as db:
        return db.execute("select count(*) from boards where prefix <> ''").fetchall()[0][0]


@pytest.mark.parametrize("seed", [0])  # more seeds, more random moments (30 s each)
def test_a_kill_9_as_a_round_ends_starts_the_next_round_exactly_once(server: PbmServer,
                                                                     seed: int):
    chance = random.Random(seed)
    sign_up(server, PLAYERS)
    send(server, "p01", "trou tournament create spring p01 PW", 1)
    for userid in PLAYERS:
        send(server, userid, f"trou tournament join spring {userid} PW", 1)
    send(server, "p01", "trou tournament start spring p01 PW", 1 + 4)
    for number in (1, 2, 3):
        boards = boards_in_play(server)
        assert len(boards) == 2
        (label, white, black), (last, last_white, last_black) = boards
        # The first board: white wins, by mail as usual.
        send(server, white, f"trou move {label} {white} PW {TROU_MOVES[0]}", 2)
        send(server, black, f"trou move {label} {black} PW {TROU_MOVES[1]}", 2)
        send(server, white, f"trou move {label} {white} PW {TROU_MOVES[2]}", 2)
        send(server, black, f"trou resign {label} {black} PW", 2)
        # The last board: killed after its last two mails, the first time at once after the
        # 250 of the one that ends the round, then at random moments.
        send(server, last_white, f"trou move {last} {last_white} PW {TROU_MOVES[0]}", 2)
        send(server, last_black, f"trou move {last} {last_black} PW {TROU_MOVES[1]}", 2)
        killed_after(server, last_white, f"trou move {last} {last_white} PW {TROU_MOVES[2]}",
                     chance.uniform(0, 0.3), 2, make_msgid(domain="players.test"))
        ending = make_msgid(domain="players.test")
        delay = 0.0 if number == 1 else chance.uniform(0, 0.3)
        more = 2 * 2 if number < 3 else len(PLAYERS)  # the next round's boards, or the end
        got = killed_after(server, last_black, f"trou resign {last} {last_black} PW", delay,
                           2 + more, ending)
        if number < 3:
            new = sorted(r.to for r in got if r.subject.startswith("New Trou Board"))
            assert new == sorted(address(u) for u in PLAYERS)  # each player's new board once
            assert pairings(server) == [(r, 2) for r in range(1, number + 2)]
            assert tournament_boards(server) == 2 * (number + 1)
        else:
            ended = [r.to for r in got if r.subject == "Tournament spring has ended"]
            assert sorted(ended) == sorted(address(u) for u in PLAYERS)
        # Restarted once more, and the deciding mail sent again with its Message-ID: the
        # round is not started again, nothing is mailed again.
        server.restart()
        server.send(address(last_black), f"trou resign {last} {last_black} "
                    f"{password(last_black)}", message_id=ending)
        assert server.collect(0) == []
        assert pairings(server) == [(r, 2) for r in range(1, min(number, 2) + 2)]
    assert boards_in_play(server) == []
    with stores.sql(server.database) as db:
        assert db.execute("select status from tournaments").fetchall() == [("finished",)]
