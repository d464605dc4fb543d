"""Helpers of the tournament tests by mail: players who sign up, mail commands with their
password and play a board to its result, and the tournament boards read from the store."""

from __future__ import annotations

from collections.abc import Callable

from tests import stores
from tests.server.harness import PbmServer, Received

TROU_MOVES = ("1B2", "4C2", "2B1")  # white, black, white: legal from the start

# The replies of a mail come out of one transaction together: a short wait for any more.
GRACE = 0.05

# Who wins a board: a userid, or None for a draw.
Rule = Callable[[str, str], str | None]


def address(userid: str) -> str:
    return f"{userid}@players.test"


def password(userid: str) -> str:
    return f"pw-{userid}-9x"


def send(server: PbmServer, userid: str, line: str, replies: int) -> list[Received]:
    """`userid` mails `line` (PW stands for their password); exactly `replies` come back,
    none an error and none showing the password."""
    server.send(address(userid), line.replace("PW", password(userid)))
    got = server.collect(replies, grace=GRACE)
    for reply in got:
        assert password(userid) not in reply.body
        assert not reply.subject.endswith("Error"), reply.body
    return got


def sign_up(server: PbmServer, players: tuple[str, ...] | list[str]) -> None:
    for userid in players:
        server.send(address(userid), f"signup {userid} {password(userid)}")
    assert len(server.collect(len(players))) == len(players)


def boards_in_play(server: PbmServer) -> list[tuple[str, str, str]]:
    """The tournament boards in play: (label, seat-0 userid, seat-1 userid)."""
    with stores.sql(server.database) as db:
        rows = db.execute(
            "select b.prefix || b.number, u0.userid, u1.userid from boards b "
            "join seats s0 on s0.board_id = b.id and s0.position = 0 "
            "join users u0 on u0.id = s0.user_id "
            "join seats s1 on s1.board_id = b.id and s1.position = 1 "
            "join users u1 on u1.id = s1.user_id "
            "where b.prefix <> '' and b.status = 'active' order by b.number").fetchall()
    return [tuple(row) for row in rows]


def play_board(server: PbmServer, label: str, white: str, black: str, winner: str | None,
               last_replies: int) -> list[Received]:
    """Both players move once (so both took the board up), then the loser resigns on their
    turn (a resignation out of turn is queued), or white proposes a draw and black accepts.
    Each mail brings the board to both players; the last one `last_replies` more."""
    send(server, white, f"trou move {label} {white} PW {TROU_MOVES[0]}", 2)
    send(server, black, f"trou move {label} {black} PW {TROU_MOVES[1]}", 2)
    if winner is None:
        send(server, white, f"trou move {label} {white} PW propose", 2)
        return send(server, black, f"trou move {label} {black} PW accept", 2 + last_replies)
    assert winner in (white, black)
    if winner == white:
        send(server, white, f"trou move {label} {white} PW {TROU_MOVES[2]}", 2)
    loser = black if winner == white else white
    return send(server, loser, f"trou resign {label} {loser} PW", 2 + last_replies)
