"""Ladders through the command layer: joining in order, challenges within reach, a win by
the lower player moving them up in the transaction that ends the board, a loss or a draw
moving nobody, a challenged player who never moves losing by the clock, the ladder mail,
and the refusals that change nothing."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select, text

from pbm.config import Config
from pbm.context import Reply
from pbm.db.models import Address, Board, BoardStatus, LadderGame, LadderRung, User
from pbm.mail.housekeeping import tick
from pbm.views.ladder_page import TOP
from pbm.width import WIDTH
from tests.commands import test_tournaments as tournaments
from tests.commands.conftest import ALICE, BOB, PW, TROU_GAME, Runner, error, flat, one
from tests.commands.test_tournaments import FIELD, PASSWORD, address, play_board, send
from tests.games.pictures import assert_document_safe

# The twelve signed-up players of the tournament tests (p01 .. p12, password PASSWORD).
field_rows = tournaments.field_rows
field = tournaments.field

T0 = datetime(2026, 12, 1, 12, 0)
DAY = timedelta(days=1)


def join_all(run: Runner, userids: list[str]) -> None:
    for userid in userids:
        joined = one(send(run, userid, f"trou ladder join {userid} PW"))
        assert joined.subject == "Trou ladder", joined.body


def ranks(run: Runner) -> list[str]:
    """The ladder's userids, top first."""
    with run.session() as session:
        return [userid for userid, in session.execute(
            select(User.userid).join(LadderRung, LadderRung.user_id == User.id)
            .where(LadderRung.game == "trou").order_by(LadderRung.rank))]


def records(run: Runner) -> dict[str, tuple[int, int]]:
    """userid -> (ladder wins, ladder losses)."""
    with run.session() as session:
        return {userid: (wins, losses) for userid, wins, losses in session.execute(
            select(User.userid, LadderRung.wins, LadderRung.losses)
            .join(LadderRung, LadderRung.user_id == User.id))}


def outcomes(run: Runner) -> list[str | None]:
    with run.session() as session:
        return list(session.scalars(select(LadderGame.outcome).order_by(LadderGame.id)))


def everything(run: Runner) -> dict[str, Any]:
    """run.snapshot() with the ladder tables too."""
    found: dict[str, Any] = dict(run.snapshot())
    with run.engine.connect() as conn:
        for table in ("ladder_rungs", "ladder_games"):
            found[table] = sorted(map(tuple, conn.execute(text(f"SELECT * FROM {table}"))),
                                  key=repr)
    return found


def challenge(run: Runner, userid: str, other: str, now: datetime | None = None
              ) -> list[Reply]:
    return run(address(userid), f"trou ladder challenge {userid} {PASSWORD} {other}", now=now)


def ladder_mail(run: Runner, userid: str) -> str:
    reply = one(send(run, userid, "trou ladder"))
    assert reply.subject == "Trou ladder"
    assert all(len(line) <= WIDTH for line in reply.body.splitlines()), reply.body
    return reply.body


# ----- joining ----------------------------------------------------------------------------
def test_players_join_at_the_bottom_in_the_order_they_join(field: Runner):
    reply = one(send(field, "p03", "trou ladder join p03 PW"))
    assert "p03 has joined the Trou ladder at rank 1" in flat(reply.body)
    join_all(field, ["p01", "p02"])
    assert ranks(field) == ["p03", "p01", "p02"]
    body = ladder_mail(field, "p01")
    assert "The Trou ladder: 3 players. A player may challenge someone up to 3 places " \
        "above." in flat(body)
    rows = [line.split() for line in body.splitlines() if line[:4].strip().isdigit()]
    assert rows == [["1", "p03", "1600", "0", "0"], ["2", "p01", "1600", "0", "0"],
                    ["3", "p02", "1600", "0", "0"]]


def test_leaving_closes_the_gap(field: Runner):
    join_all(field, FIELD[:4])
    reply = one(send(field, "p02", "trou ladder leave p02 PW"))
    assert "p02 has left the Trou ladder." in reply.body
    assert ranks(field) == ["p01", "p03", "p04"]
    join_all(field, ["p02"])  # back, at the bottom
    assert ranks(field) == ["p01", "p03", "p04", "p02"]


# ----- challenges and their ends --------------------------------------------------------------
def test_a_challenge_within_reach_starts_a_board_the_challenger_moving_first(field: Runner):
    join_all(field, FIELD[:5])
    replies = challenge(field, "p05", "p02")  # 3 places up: the reach
    assert {r.to for r in replies} == {(address("p05"),), (address("p02"),)}
    for reply in replies:
        assert reply.subject.startswith("New Trou Board 101"), reply.subject
        assert "p05 (rank 5) challenges p02 (rank 2)" in flat(reply.body)
    board = field.board(101)
    assert [s.user.userid for s in board.seats] == ["p05", "p02"]
    assert outcomes(field) == [None]
    body = ladder_mail(field, "p01")
    assert "p02 1600 0 0 from p05 on 101" in flat(body)
    assert "p05 1600 0 0 to p02 on 101" in flat(body)


def test_a_win_by_the_lower_player_takes_the_higher_ones_place(field: Runner):
    join_all(field, FIELD[:5])
    challenge(field, "p05", "p02")
    last = play_board(field, "101", "p05", "p02", "p05")
    assert any(r.subject.startswith("Trou Board 101") for r in last)
    # Settled in the transaction of the resignation: no housekeeping step in between.
    assert ranks(field) == ["p01", "p05", "p02", "p03", "p04"]
    assert records(field)["p05"] == (1, 0) and records(field)["p02"] == (0, 1)
    assert outcomes(field) == ["won"]
    assert "to p02" not in ladder_mail(field, "p05")  # the challenge is over
    challenge(field, "p02", "p05")  # one open challenge each, and a new one may start
    assert outcomes(field) == ["won", None]


def test_a_win_next_door_swaps_the_two(players: Runner):
    for userid, sender in (("alice", ALICE), ("bob", BOB)):
        players(sender, f"trou ladder join {userid} {PW[userid]}")
    players(BOB, f"trou ladder challenge bob {PW['bob']} alice")
    for userid, sender, move in (("bob", BOB, TROU_GAME[0]), ("alice", ALICE, TROU_GAME[1]),
                                 ("bob", BOB, TROU_GAME[2])):
        players(sender, f"trou move 101 {userid} {PW[userid]} {move}")
    players(ALICE, f"trou resign 101 alice {PW['alice']}")
    assert ranks(players) == ["bob", "alice"]


@pytest.mark.parametrize("winner", ["p02", None])
def test_a_loss_or_a_draw_by_the_challenger_moves_nobody(field: Runner, winner: str | None):
    join_all(field, FIELD[:5])
    challenge(field, "p04", "p02")
    play_board(field, "101", "p04", "p02", winner)
    assert ranks(field) == FIELD[:5]
    assert outcomes(field) == ["lost" if winner else "draw"]
    assert records(field)["p02"] == ((1, 0) if winner else (0, 0))
    assert records(field)["p04"] == ((0, 1) if winner else (0, 0))


def test_a_challenged_player_who_never_moves_loses_by_the_clock(field: Runner):
    join_all(field, FIELD[:4])
    challenge(field, "p04", "p01", now=T0)
    field(address("p04"), f"trou move 101 p04 {PASSWORD} {TROU_GAME[0]}", now=T0)
    for days in (7, 14):
        tick(field.factory, Config(time=field.time), T0 + days * DAY)
        assert ranks(field) == FIELD[:4]
    report, _ = tick(field.factory, Config(time=field.time), T0 + 21 * DAY)
    assert any("p01 made no move on Trou board 101 in 21 days" in flat(r.body)
               for r in report.replies)
    assert field.board(101).status == BoardStatus.DECLINED
    assert ranks(field) == ["p04", "p01", "p02", "p03"]
    assert outcomes(field) == ["forfeit"]
    assert records(field)["p04"] == (1, 0) and records(field)["p01"] == (0, 1)


def test_a_challenger_who_never_makes_the_first_move_loses_the_challenge(field: Runner):
    join_all(field, FIELD[:3])
    challenge(field, "p03", "p01", now=T0)
    for days in (7, 14, 21):
        tick(field.factory, Config(time=field.time), T0 + days * DAY)
    assert ranks(field) == FIELD[:3]
    assert outcomes(field) == ["declined"]
    assert records(field)["p03"] == (0, 1)


# ----- the ladder mail --------------------------------------------------------------------------
def test_the_ladder_mail_shows_the_top_and_the_askers_place_within_76_columns(field: Runner):
    join_all(field, ["p01", "p02"])
    with field.session() as session:
        for n in range(TOP + 60):  # 16 letters: the longest a userid has
            user = User(userid=f"longname{n:08}", password_hash="-")
            session.add(user)
            session.flush()
            session.add(LadderRung(game="trou", user_id=user.id, rank=3 + n, joined_at=T0))
        asker = session.scalar(select(User).where(User.userid == f"longname{TOP + 40:08}"))
        asker.addresses = [Address(position=0, address="asker@example.org")]
        second = session.scalar(select(User).where(User.userid == f"longname{TOP + 41:08}"))
        session.add(Board(id=999999, number=999999, game="trou", rules_version=1,
                          state={}, challenger="ladder challenge"))
        session.flush()
        session.add(LadderGame(game="trou", board_id=999999, challenger_id=second.id,
                               challenged_id=asker.id, created_at=T0))
    reply = one(field("asker@example.org", "trou ladder"))
    lines = reply.body.splitlines()
    assert all(len(line) <= WIDTH for line in lines), max(lines, key=len)
    shown = [int(line.split()[0]) for line in lines if line[:4].strip().isdigit()]
    mine = TOP + 40 + 3
    assert shown == [*range(1, TOP + 1), *range(mine - 10, mine + 11)]
    assert sum(line.strip() == "..." for line in lines) == 2  # a gap, and the rest below
    assert f"longname{TOP + 40:08} 1600 0 0 from longname{TOP + 41:08} on 999999" \
        in flat(reply.body)


def test_the_ladder_is_drawn_for_a_reader_who_takes_html(field: Runner):
    join_all(field, FIELD[:5])
    challenge(field, "p05", "p02")
    reply = one(send(field, "p01", "trou ladder"))
    assert reply.html is not None
    assert_document_safe(reply.html)
    assert "<table" in reply.html and "<th class=\"mc mn mh\">Rank</th>" in reply.html
    # The same figures as the text part: every player's row is in both.
    for userid in FIELD[:5]:
        assert userid in reply.body and f">{userid}</td>" in reply.html
    assert ">from p05 on 101</td>" in reply.html and ">to p02 on 101</td>" in reply.html
    send(field, "p01", "set p01 PW html off")
    assert one(send(field, "p01", "trou ladder")).html is None


def test_a_gap_in_the_ladder_is_a_row_of_the_drawn_table(field: Runner):
    join_all(field, ["p01"])
    with field.session() as session:
        for n in range(TOP + 40):
            user = User(userid=f"climber{n:04}", password_hash="-")
            session.add(user)
            session.flush()
            session.add(LadderRung(game="trou", user_id=user.id, rank=2 + n, joined_at=T0))
        asker = session.scalar(select(User).where(User.userid == f"climber{TOP + 20:04}"))
        asker.addresses = [Address(position=0, address="asker@example.org")]
    reply = one(field("asker@example.org", "trou ladder"))
    assert reply.html is not None
    assert_document_safe(reply.html)
    shown = [word for line in reply.body.splitlines() for word in line.split()[1:2]
             if word.startswith(("climber", "p0"))]
    assert len(shown) == TOP + 21
    for userid in shown:
        assert f">{userid}</td>" in reply.html
    assert reply.html.count(">...</td>") == 2  # the gap, and the ranks below


def test_an_empty_ladder_says_how_to_join(players: Runner):
    reply = one(players(ALICE, "trou ladder"))
    assert "Nobody yet. Join: trou ladder join userid password" in reply.body
    assert reply.html is None  # no table to draw


# ----- refusals -------------------------------------------------------------------------------
REFUSALS = [
    ("p01", "trou ladder join p01 PW", "p01 is on the Trou ladder already"),
    ("p06", "trou ladder challenge p06 PW p02", "is 4 places above p06 (rank 6); a "
     "challenge reaches at most 3 places up"),
    ("p02", "trou ladder challenge p02 PW p05", "p05 (rank 5) stands below p02 (rank 2)"),
    ("p03", "trou ladder challenge p03 PW p03", "cannot challenge themself"),
    ("p07", "trou ladder challenge p07 PW p01", "p07 is not on the Trou ladder: join it first"),
    ("p03", "trou ladder challenge p03 PW p07", "p07 is not on the Trou ladder."),
    ("p04", "trou ladder challenge p04 PW p03", "p04 has a Trou ladder challenge in play "
     "already"),
    ("p06", "trou ladder challenge p06 PW p04", "p04 has a Trou ladder challenge in play "
     "already"),
    ("p04", "trou ladder leave p04 PW", "p04 has a Trou ladder challenge in play: finish"),
    ("p07", "trou ladder leave p07 PW", "p07 is not on the Trou ladder."),
    ("p03", "trou ladder challenge p03 Wrong9999 p01", "password"),
    ("p03", "trou ladder join p03", "Write: trou ladder join userid password"),
    ("p03", "trou ladder climb p03 PW", "'climb' is not a ladder command"),
]


@pytest.mark.parametrize(("userid", "line", "message"), REFUSALS,
                         ids=[line for _, line, _ in REFUSALS])
def test_refusals_answer_clearly_and_change_nothing(field: Runner, userid: str, line: str,
                                                    message: str):
    join_all(field, FIELD[:6])
    challenge(field, "p05", "p02")  # p05, p02, p04 and p01 are busy
    challenge(field, "p04", "p01")
    before = everything(field)
    reply = error(send(field, userid, line))
    assert message.lower() in flat(reply.body).lower(), reply.body
    assert PASSWORD not in reply.body
    assert everything(field) == before
