"""Automatic pairing (issue 26): `seek` pairs two seekers of a game at once, nearest rating
first, never the same pair twice in a row, seats by lot; limits hold; housekeeping pairs those
left waiting and, with bots on, gives a bot to a seeker who has waited long enough."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest
from sqlalchemy import select

from pbm.config import BotSettings, Config, LimitSettings
from pbm.context import Reply
from pbm.db.models import ChallengePolicy, Rating, User
from pbm.mail.housekeeping import tick
from tests.commands.conftest import (
    ACCOUNTS,
    ALICE,
    BOB,
    CAROL,
    PW,
    STRANGER,
    Runner,
    assert_never_echoed,
    error,
    flat,
    one,
    to,
)
from tests.commands.social import snapshot

T0 = datetime(2027, 1, 10, 12, 0)
HOUR = timedelta(hours=1)


def seek(run: Runner, userid: str, n: str = "", hours: float = 0,
         password: str | None = None) -> list[Reply]:
    line = f"trou seek {userid} {password or PW[userid]} {n}".rstrip()
    return run(ACCOUNTS[userid][1], line, now=T0 + hours * HOUR)


def answer(replies: list[Reply], address: str) -> str:
    """The seek's answer to its sender, its words on one line."""
    (reply,) = [r for r in to(replies, address) if r.kind == "answer"]
    return flat(reply.body)


def new_boards(replies: list[Reply]) -> list[Reply]:
    """The new boards' mails (to a bot too: a Reply to nobody, which the outbox drops)."""
    return [r for r in replies if r.subject.startswith("New ") and r.to]


def start_trou(run: Runner, first: str, second: str) -> int:
    """A board between them, challenged at T0 (so that housekeeping has no nag to send)."""
    replies = run(STRANGER, f"trou challenge {first} {second}", now=T0)
    return int(one(replies, ACCOUNTS[first][1]).subject.split()[3])


def housekeep(run: Runner, hours: float, bots: BotSettings = BotSettings()) -> list[Reply]:  # noqa: B008
    report, _ids = tick(run.factory, Config(time=run.time, bots=bots), T0 + hours * HOUR)
    return report.replies


def players_of(run: Runner, number: int) -> list[str]:
    board = run.board(number)
    assert board is not None
    return [seat.user.userid for seat in board.seats]


def rate(run: Runner, **ratings: int) -> None:
    """Give players a rating in Trou (as if they had finished games)."""
    with run.session() as session:
        for userid, rating in ratings.items():
            user = session.scalar(select(User).where(User.userid == userid))
            assert user is not None
            session.add(Rating(game="trou", user_id=user.id, rating=rating, won=5, lost=5,
                               tied=0))


def seeking(run: Runner) -> dict[str, tuple[int, datetime | None]]:
    with run.session() as session:
        return {user.userid: (policy.seeking, policy.seeking_since) for policy, user in
                session.execute(select(ChallengePolicy, User)
                                .join(User, User.id == ChallengePolicy.user_id))}


# ----- two seekers --------------------------------------------------------------------
def test_two_seekers_are_paired_at_once_and_both_get_the_new_board(players):
    first = seek(players, "alice")
    assert new_boards(first) == []
    assert ("You are the only seeker of Trou; you will be paired when someone else seeks "
            "(or, after 24 hours, with a bot).") in answer(first, ALICE)
    assert seeking(players) == {"alice": (1, T0)}
    replies = seek(players, "bob", hours=1)
    assert "Paired with alice: Trou board 101 has started" in answer(replies, BOB)
    boards = new_boards(replies)
    assert sorted(address for r in boards for address in r.to) == [ALICE, BOB]
    assert all(r.subject.startswith("New Trou Board 101 ") for r in boards)
    assert "alice and bob both sought Trou games, so pbm paired them" in flat(boards[0].body) \
        or "bob and alice both sought Trou games, so pbm paired them" in flat(boards[0].body)
    # Seats by lot, from the board's id: reproducible.
    order = ["bob", "alice"]
    random.Random(101).shuffle(order)
    assert players_of(players, 101) == order
    assert players.board(101).challenger == "seek"
    assert seeking(players) == {}  # each sought one: both done


def test_a_seeker_of_more_keeps_waiting_and_the_rest_is_said(players):
    seek(players, "alice", "3")
    replies = seek(players, "bob", "2", hours=2)
    said = answer(replies, BOB)
    assert "Paired with alice: Trou board 101 has started" in said
    assert "No other Trou seeker can be paired with you now" in said  # alice: just played
    assert "Seeking 1 more game" in said
    assert seeking(players) == {"alice": (2, T0 + 2 * HOUR), "bob": (1, T0 + 2 * HOUR)}


# ----- nearest rating, no pair twice in a row -------------------------------------------
@pytest.mark.parametrize("carol, paired_with", [(1900, "bob"), (1720, "carol")])
def test_the_nearest_rating_is_paired_first(players, carol, paired_with):
    start_trou(players, "bob", "carol")  # their last board: they do not pair with each other
    rate(players, alice=1700, bob=1750, carol=carol)
    seek(players, "bob")
    assert new_boards(seek(players, "carol", hours=1)) == []
    replies = seek(players, "alice", hours=2)
    assert f"Paired with {paired_with}: Trou board 102 has started" in answer(replies, ALICE)
    assert sorted(players_of(players, 102)) == sorted(["alice", paired_with])


def test_a_player_without_a_rating_counts_as_the_start_rating(players):
    start_trou(players, "bob", "carol")
    rate(players, bob=1400, carol=1650)  # alice has none: 1600, nearer carol
    seek(players, "bob")
    seek(players, "carol")
    assert "Paired with carol" in answer(seek(players, "alice"), ALICE)


def test_the_same_pair_is_not_paired_twice_in_a_row(players):
    start_trou(players, "alice", "bob")
    seek(players, "alice")
    replies = seek(players, "bob", hours=1)
    assert new_boards(replies) == []
    assert "No other Trou seeker can be paired with you now" in answer(replies, BOB)
    assert housekeep(players, 2) == []  # nor by housekeeping
    # Someone else: paired with the one who has waited longest (equal ratings).
    replies = seek(players, "carol", hours=3)
    assert "Paired with alice: Trou board 102" in answer(replies, CAROL)
    # alice's last board is now carol's; bob's was alice's: still not paired with alice.
    seek(players, "alice", hours=4)
    assert housekeep(players, 5) == []
    assert seeking(players) == {"alice": (1, T0 + 4 * HOUR), "bob": (1, T0 + HOUR)}


# ----- limits --------------------------------------------------------------------------
def test_a_seeker_at_their_limit_is_not_paired_until_a_board_ends(players):
    number = start_trou(players, "bob", "carol")
    players(BOB, f"trou limit bob {PW['bob']} 1")
    replies = seek(players, "bob")
    assert "You play 1 active Trou boards, your limit" in answer(replies, BOB)
    replies = seek(players, "alice", hours=1)
    assert new_boards(replies) == []
    assert "No other Trou seeker can be paired with you now" in answer(replies, ALICE)
    assert housekeep(players, 2) == []
    players(BOB, f"trou resign {number} bob {PW['bob']}", now=T0 + 3 * HOUR)
    replies = housekeep(players, 4)  # bob may take a board again: housekeeping pairs them
    assert sorted(address for r in new_boards(replies) for address in r.to) == [ALICE, BOB]
    assert seeking(players) == {"bob": (0, None)}  # the row keeps bob's limit


def test_a_seeker_who_rejects_challenges_is_not_paired(players):
    players(CAROL, f"trou reject carol {PW['carol']}")
    replies = seek(players, "carol")
    assert "You refuse Trou challenges, so you are not paired either" in answer(replies, CAROL)
    assert new_boards(seek(players, "alice")) == []


def test_a_seeker_on_vacation_is_not_paired(players):
    players(BOB, f"vacation bob {PW['bob']} 3", now=T0)
    assert "You are on vacation until" in answer(seek(players, "bob"), BOB)
    assert new_boards(seek(players, "alice", hours=1)) == []


def test_one_mail_pairs_at_most_as_many_boards_as_it_may_start(players):
    players.limits = LimitSettings(challenges_per_mail=1)
    start_trou(players, "bob", "carol")
    seek(players, "bob")
    seek(players, "carol")
    replies = seek(players, "alice", "2", hours=1)
    assert len({r.subject for r in new_boards(replies)}) == 1
    assert "One mail starts only so many boards" in answer(replies, ALICE)
    replies = housekeep(players, 2)  # the rest is paired by the next housekeeping
    assert len({r.subject for r in new_boards(replies)}) == 1
    assert seeking(players) == {}


# ----- bots ----------------------------------------------------------------------------
@pytest.mark.parametrize("rating, bot", [(None, "goodbot"), (1400, "easybot"),
                                         (1850, "bestbot")])
def test_a_lone_seeker_gets_a_bot_near_their_rating_after_the_wait(players, rating, bot):
    if rating is not None:
        rate(players, alice=rating)
    seek(players, "alice")
    assert housekeep(players, 23.9) == []
    replies = housekeep(players, 24)
    (board,) = new_boards(replies)
    assert board.to == (ALICE,)  # a bot gets no mail
    assert sorted(players_of(players, 101)) == sorted(["alice", bot])
    said = flat(board.body)
    assert "nobody else was paired with them in 24 hours, so pbm paired them with " \
           f"{bot}, the bot nearest their rating" in said
    assert seeking(players) == {}
    assert housekeep(players, 24) == []  # idempotent: once only


def test_a_seeker_of_more_gets_one_bot_per_wait(players):
    seek(players, "alice", "2")
    assert len(new_boards(housekeep(players, 24))) == 1
    assert housekeep(players, 30) == []
    assert len(new_boards(housekeep(players, 48))) == 1
    assert seeking(players) == {}


def test_with_bots_off_a_lone_seeker_waits_for_a_person(players):
    off = BotSettings(games=())
    players.bots = off
    replies = seek(players, "alice")
    assert answer(replies, ALICE).count("bot") == 0
    assert housekeep(players, 100, off) == []
    never = BotSettings(seek_wait_hours=0)
    assert housekeep(players, 200, never) == []
    assert seeking(players) == {"alice": (1, T0)}


# ----- stopping, bad input ---------------------------------------------------------------
def test_seek_0_stops_waiting(players):
    seek(players, "alice", "2")
    assert "You no longer seek Trou games" in answer(seek(players, "alice", "0", 1), ALICE)
    assert seeking(players) == {}
    assert new_boards(seek(players, "bob", hours=2)) == []
    assert housekeep(players, 20) == []  # bob waits alone
    (board,) = new_boards(housekeep(players, 26))  # ... for a bot, not for alice
    assert board.to == (BOB,)


def test_a_seek_with_a_wrong_password_changes_nothing(players):
    seek(players, "alice")
    before = snapshot(players), seeking(players)
    replies = seek(players, "bob", hours=1, password="Wrong-pass-9")
    assert "password" in flat(error(replies).body)
    assert (snapshot(players), seeking(players)) == before
    assert_never_echoed(replies, "Wrong-pass-9")


def test_seeking_again_keeps_ones_place(players):
    seek(players, "alice")
    one(seek(players, "alice", "2", hours=5))
    assert seeking(players) == {"alice": (2, T0)}
