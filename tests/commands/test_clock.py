"""The clock: nags after the nag time, a forfeit after the forfeit time, vacations stopping
both, per-board limits, and a housekeeping step that is safe to run again. Days pass by the
injected clock (`now=`), never by sleeping."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import select

from pbm.config import Config, TimeSettings
from pbm.context import Reply
from pbm.db.models import Address, Board, BoardStatus, Rating, Seat, User
from pbm.mail.housekeeping import tick
from tests.commands.conftest import ALICE, BOB, PW, STRANGER, TROU_GAME, Runner, error, one

T0 = datetime(2026, 12, 1, 12, 0)
DAY = timedelta(days=1)


def at(days: float) -> datetime:
    return T0 + days * DAY


def housekeep(run: Runner, days: float) -> list[Reply]:
    report, _ids = tick(run.factory, Config(time=run.time), at(days))
    return report.replies


def challenge(run: Runner, options: str = "") -> int:
    replies = run(STRANGER, f"trou challenge {options} alice bob".replace("  ", " "),
                  now=at(0))
    return int(one(replies, ALICE).subject.split()[3])


def move(run: Runner, userid: str, text: str, days: float) -> list[Reply]:
    address = ALICE if userid == "alice" else BOB
    return run(address, f"trou move 101 {userid} {PW[userid]} {text}", now=at(days))


def nags(replies: list[Reply]) -> list[Reply]:
    return [r for r in replies if r.subject.startswith("Nag:")]


def both_move(run: Runner, days: float = 0) -> None:
    """alice and bob each make their first move: the board is taken up, alice to move."""
    move(run, "alice", TROU_GAME[0], days)
    move(run, "bob", TROU_GAME[1], days)


def ratings(run: Runner) -> list[tuple[str, int]]:
    with run.session() as session:
        return sorted((r.game, r.rating) for r in session.scalars(select(Rating)))


def test_nag_at_day_7_and_14_and_forfeit_at_day_21(players: Runner):
    challenge(players)
    both_move(players)
    assert housekeep(players, 6.99) == []
    first = one(housekeep(players, 7))
    assert first.subject == "Nag: Trou Board 101 alice"
    assert first.to == (ALICE,)
    assert "alice has not moved for 7 days" in first.body
    assert "If no move is made by 2026-12-22 12:00 UTC (in 14 days)" in first.body
    assert "alice forfeits the game on time." in first.body
    assert "It is alice's turn." in first.body  # the board follows
    assert housekeep(players, 7) == []  # once only
    assert housekeep(players, 13.9) == []
    second = one(housekeep(players, 14))
    assert "has not moved for 14 days" in second.body and "(in 7 days)" in second.body
    assert housekeep(players, 20.9) == []
    final = housekeep(players, 21)
    assert {r.to for r in final} == {(ALICE,), (BOB,)}
    for reply in final:
        assert reply.subject == "Trou Board 101"
        assert "Game won by bob." in reply.body
        assert "alice forfeited: no move in 21 days." in reply.body
        # A forfeit is rated as a loss.
        assert "alice's rating is 1424 (provisional)." in reply.body
        assert "bob's rating is 1824 (provisional)." in reply.body
    board = players.board(101)
    assert board.status == BoardStatus.FINISHED and board.winners == [1]
    assert housekeep(players, 21) == [] and housekeep(players, 40) == []
    refused = error(move(players, "alice", TROU_GAME[2], 22))
    assert "over" in refused.body


def test_a_player_who_never_moved_declines_on_time_and_loses_nothing(players: Runner):
    """A stranger challenged alice and bob; alice never takes the board up. Her time
    running out declines it (removed, unrated, both told), as resigning would have."""
    challenge(players)
    nag = one(housekeep(players, 7))
    assert nag.subject == "Nag: Trou Board 101 alice"
    assert "If no move is made by 2026-12-22 12:00 UTC (in 14 days)," in nag.body
    assert "the board is declined and removed (not rated)," in nag.body
    assert "as alice has not made a move on it yet." in nag.body
    assert "forfeits" not in nag.body
    assert "Please start the game alice." in nag.body
    one(housekeep(players, 14))
    final = housekeep(players, 21)
    assert {r.to for r in final} == {(ALICE,), (BOB,)}
    for reply in final:
        assert reply.subject == "Trou Board 101"
        assert " ".join(reply.body.split()) == (
            "alice made no move on Trou board 101 in 21 days, so the board is declined and "
            "has been removed. It is not rated.")
    board = players.board(101)
    assert board.status == BoardStatus.DECLINED and board.winners is None
    assert ratings(players) == []  # nobody rated: not alice's loss, not bob's win
    assert housekeep(players, 21) == [] and housekeep(players, 40) == []
    assert "no" in error(move(players, "alice", TROU_GAME[0], 22)).body.lower()


def test_the_second_player_declines_on_time_too_before_their_first_move(players: Runner):
    challenge(players)
    move(players, "alice", TROU_GAME[0], 0)
    assert nags(housekeep(players, 7)) != []  # bob's
    housekeep(players, 14)
    final = housekeep(players, 21)
    assert len(final) == 2 and all(r.body.startswith("bob made no move on Trou board 101")
                                   for r in final)
    assert players.board(101).status == BoardStatus.DECLINED and ratings(players) == []


def test_a_move_starts_the_other_players_clock(players: Runner):
    challenge(players)
    move(players, "alice", TROU_GAME[0], 5)
    assert housekeep(players, 7) == []  # alice is not to move; bob has waited 2 days
    nag = one(housekeep(players, 12))
    assert nag.subject == "Nag: Trou Board 101 bob" and nag.to == (BOB,)
    move(players, "bob", TROU_GAME[1], 13)  # answering the nag stops it
    assert nags(housekeep(players, 19.9)) == []
    assert one(housekeep(players, 20)).subject == "Nag: Trou Board 101 alice"


def test_nobody_forfeits_without_a_nag_after_a_long_outage(players: Runner):
    challenge(players)
    first = one(housekeep(players, 60))  # nothing ran for 60 days
    assert first.subject.startswith("Nag:")
    assert "has not moved for 60 days" in first.body and "(in 14 days)" in first.body
    assert one(housekeep(players, 67)).subject.startswith("Nag:")
    assert housekeep(players, 73.9) == []
    final = housekeep(players, 74)
    assert len(final) == 2 and all("alice made no move on Trou board 101 in 74 days" in r.body
                                   for r in final)


def test_vacation_stops_the_clock(players: Runner):
    challenge(players)
    reply = one(players(ALICE, f"vacation alice {PW['alice']} 10", now=at(1)))
    assert "alice is on vacation until 2026-12-12 12:00 UTC (10 days)" in reply.body
    assert "Days of vacation left for 2026: 32 of 42." in reply.body
    shown = one(players(BOB, "trou show 101", now=at(2)))
    assert "alice is on vacation until 2026-12-12." in shown.body
    assert housekeep(players, 7) == [] and housekeep(players, 16.9) == []
    nag = one(housekeep(players, 17))  # 1 day before the vacation, 6 after
    assert "has not moved for 7 days" in nag.body
    shown = one(players(BOB, "trou show 101", now=at(17)))
    assert "on vacation" not in shown.body
    assert housekeep(players, 23.9) == []
    assert "has not moved for 14 days" in one(housekeep(players, 24)).body
    assert housekeep(players, 30.9) == []  # forfeits at 21 days waited: day 31
    assert len(housekeep(players, 31)) == 2


def test_coming_back_early_restarts_the_clock_at_once(players: Runner):
    challenge(players)
    players(ALICE, f"vacation alice {PW['alice']} 20", now=at(1))
    assert housekeep(players, 2) == []  # looked at: scheduled for after the vacation
    reply = one(players(ALICE, f"vacation alice {PW['alice']} off", now=at(3)))
    assert "Welcome back, alice" in reply.body
    assert housekeep(players, 8.9) == []
    assert one(housekeep(players, 9)).subject.startswith("Nag:")  # 1 + 6 days waited


def test_vacation_allowance_and_bad_words(players: Runner):
    before = players.snapshot()
    too_long = error(players(ALICE, f"vacation alice {PW['alice']} 43", now=at(0)))
    assert "from 1 to 42 days" in too_long.body
    for word, message in (("abc", "The last word must be a number of days"),
                          ("0", "from 1 to 42 days"),
                          ("off", "alice is not on vacation")):
        assert message in error(players(ALICE, f"vacation alice {PW['alice']} {word}",
                                        now=at(0))).body
    assert "password" in error(players(ALICE, "vacation alice wrong 5", now=at(0))).body.lower()
    assert players.snapshot() == before
    players(ALICE, f"vacation alice {PW['alice']} 30", now=at(-60))  # Oct-Nov 2026
    refused = error(players(ALICE, f"vacation alice {PW['alice']} 13", now=at(0)))
    assert "43 days of vacation in 2026" in refused.body and "12 are left" in refused.body
    assert players.user("alice").vacation_until == at(-30)
    ok = one(players(ALICE, f"vacation alice {PW['alice']} 12", now=at(0)))
    assert "Days of vacation left for 2026: 0 of 42." in ok.body
    # A vacation running into the new year counts each part in its own year.
    one(players(BOB, f"vacation bob {PW['bob']} 40", now=datetime(2026, 12, 20)))


def test_per_board_time_limits(players: Runner):
    number = challenge(players, "-nagtime=2 -forfeittime=5")
    board = players.board(number)
    assert (board.nag_days, board.forfeit_days) == (2, 5)
    shown = one(players(BOB, "trou show 101", now=at(0)))
    assert "Time limits: a reminder after 2 days without a move, forfeit after 5 days." \
        in shown.body
    assert "Limits shorter than the server's apply once every player has moved." in shown.body
    both_move(players, 0.5)
    assert housekeep(players, 2.4) == []
    assert one(housekeep(players, 2.5)).subject.startswith("Nag:")
    assert one(housekeep(players, 4.5)).subject.startswith("Nag:")
    final = housekeep(players, 5.5)
    assert len(final) == 2 and all("alice forfeited: no move in 5 days." in r.body
                                   for r in final)


def test_short_limits_apply_only_once_both_players_have_moved(players: Runner):
    """`-nagtime=1 -forfeittime=2` from a stranger: until alice and bob have both moved
    the server's 7 and 21 days apply, and running out of them declines the board."""
    challenge(players, "-nagtime=1 -forfeittime=2")
    assert housekeep(players, 1) == [] and housekeep(players, 2) == []  # not 1 and 2 days
    assert housekeep(players, 6.9) == []
    assert "(in 14 days)" in one(housekeep(players, 7)).body
    move(players, "alice", TROU_GAME[0], 8)  # bob, still to make his first move, waits
    assert housekeep(players, 9) == [] and housekeep(players, 10) == []
    assert one(housekeep(players, 15)).subject == "Nag: Trou Board 101 bob"
    move(players, "bob", TROU_GAME[1], 16)  # both have moved: 1 and 2 days from now on
    assert housekeep(players, 16.9) == []
    assert "(in 1 day)" in one(housekeep(players, 17)).body
    final = housekeep(players, 18)
    assert len(final) == 2 and all("alice forfeited: no move in 2 days." in r.body
                                   for r in final)
    assert players.board(101).status == BoardStatus.FINISHED


def test_default_limits_are_not_shown(players: Runner):
    challenge(players)
    assert "Time limits" not in one(players(BOB, "trou show 101", now=at(0))).body


@pytest.mark.parametrize(("options", "message"), [
    ("-nagtime=0", "-nagtime takes a number of days from 1"),
    ("-forfeittime=abc", "-forfeittime takes a number of days from 1"),
    ("-nagtime=5 -forfeittime=5", "must be longer than the nag time"),
    ("-nagtime=30", "forfeit time (21 days) must be longer than the nag time (30 days)"),
])
def test_bad_time_options_start_no_board(players: Runner, options: str, message: str):
    replies = players(STRANGER, f"trou challenge {options} alice bob", now=at(0))
    assert message in error(replies).body
    with players.session() as session:
        assert session.scalar(select(Board.id)) is None


def test_server_defaults_come_from_the_time_settings(tmp_path, account_rows):
    run = Runner(tmp_path / "pbm.sqlite", time=TimeSettings(nag_days=3, forfeit_days=4))
    try:
        with run.session() as session:
            for userid, password_hash, addresses in account_rows:
                user = User(userid=userid, password_hash=password_hash)
                user.addresses = [Address(position=i, address=a)
                                  for i, a in enumerate(addresses)]
                session.add(user)
        challenge(run)
        assert housekeep(run, 2.9) == []
        assert one(housekeep(run, 3)).subject.startswith("Nag:")
        assert len(housekeep(run, 4)) == 2
    finally:
        run.engine.dispose()


def test_a_finished_board_stops_every_clock(players: Runner):
    challenge(players)
    for i, text in enumerate(TROU_GAME):
        move(players, ("alice", "bob")[i % 2], text, i)
    with players.session() as session:
        seats = session.scalars(select(Seat).where(Seat.board_id == 101)).all()
        assert [s.waiting_since for s in seats] == [None, None]
    assert housekeep(players, 60) == []


def test_a_forfeit_found_late_gets_a_last_call_instead(players: Runner):
    """Nagged on day 7, then nothing ran until day 40 (the server was down): the player's
    answer may still sit in a mail queue, so they get a day to move rather than losing."""
    challenge(players)
    assert one(housekeep(players, 7)).subject.startswith("Nag:")
    last = one(housekeep(players, 40))
    assert last.subject == "Nag: Trou Board 101 alice"
    assert "the server could not look at the clocks" in last.body.lower()
    assert "alice has until 2027-01-11 12:00 UTC (in 1 day) to move" in last.body
    assert housekeep(players, 40.9) == []
    move(players, "alice", TROU_GAME[0], 40.5)  # the move that was waiting in a queue
    assert players.board(101).status == BoardStatus.ACTIVE
    assert nags(housekeep(players, 41)) == []


def test_a_last_call_unanswered_forfeits(players: Runner):
    challenge(players)
    housekeep(players, 7)
    housekeep(players, 40)
    final = housekeep(players, 41)
    assert len(final) == 2 and all("alice made no move on Trou board 101 in 41 days" in r.body
                                   for r in final)


def test_no_forfeit_while_away_even_when_overdue(players: Runner):
    challenge(players)
    housekeep(players, 7)
    housekeep(players, 14)
    players(ALICE, f"vacation alice {PW['alice']} 5", now=at(20.5))
    assert housekeep(players, 21) == [] and housekeep(players, 25.5) == []
    assert housekeep(players, 25.9) == []  # back at 25.5 with half a day left
    assert len(housekeep(players, 26)) == 2
