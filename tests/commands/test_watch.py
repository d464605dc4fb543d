"""Watching: spectators of a board (subscribe/unsubscribe) and notices when games end."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import event

from pbm.commands.dispatch import run_lines
from pbm.config import Config, LimitSettings
from pbm.context import Context
from pbm.games import registry
from pbm.mail.housekeeping import tick
from pbm.views.watcher_lines import watcher_lines
from pbm.width import WIDTH
from tests.commands.conftest import (
    ALICE,
    BOB,
    CAROL,
    PW,
    STRANGER,
    TROU_GAME,
    assert_never_echoed,
    error,
    flat,
    one,
    start_trou,
    to,
)
from tests.commands.social import first_move, rows, snapshot

DAVE = "dave@example.com"


def subscribe(run, board: int = 101, word: str = "trou"):
    return run(CAROL, f"{word} subscribe {board} carol {PW['carol']}")


def play(run, moves, first: int = 0, board: int = 101):
    """Play `moves` on a Trou board, alice and bob in turn from seat `first`."""
    replies = []
    for i, text in enumerate(moves, start=first):
        userid = ("alice", "bob")[i % 2]
        address = (ALICE, BOB)[i % 2]
        replies = run(address, f"trou move {board} {userid} {PW[userid]} {text}")
    return replies


# ----- subscribe --------------------------------------------------------------------------
@pytest.mark.parametrize("word", registry.names())
def test_a_spectator_gets_every_board_mail_as_the_public_sees_it(players, word):
    run = players
    run(STRANGER, f"{word} challenge alice bob")
    answer = one(subscribe(run, word=word))
    title = registry.get(word).info.title
    assert answer.subject == f"{title} Board 101 subscribed"
    assert "carol now watches" in answer.body and f"Summary of {title} Board 101" in answer.body
    seat, text = first_move(word)
    mover, other = (("alice", ALICE), ("bob", BOB))[seat], (ALICE, BOB)[1 - seat]
    replies = run(mover[1], f"{word} move 101 {mover[0]} {PW[mover[0]]} {text}")
    mail = one(replies, CAROL)
    players_mail = one(replies, other)
    assert mail.kind == "board" and mail.subject == players_mail.subject
    public = one(run(STRANGER, f"{word} showas carol {PW['carol']} 101")).body
    # The spectator's mail is the public view: the board and turn line of `show`.
    assert mail.body.split("\n")[:3] == public.split("\n")[:3]
    assert mail.body.rstrip().endswith(public.rstrip().split("\n")[-1])
    assert len(replies) == 3
    assert_never_echoed(replies, PW["alice"], PW["carol"])


def test_a_spectator_added_by_the_mail_that_moves_gets_that_move(players):
    """One mail: the board is read unwatched, a spectator added, then a move made."""
    run = players
    start_trou(run)
    with run.session() as session:
        ctx = Context(session, ALICE, limits=run.limits)
        run_lines(ctx, ["trou show 101", f"trou subscribe 101 carol {PW['carol']}",
                        f"trou move 101 alice {PW['alice']} 1B2"])
    assert [reply.kind for reply in to(ctx.replies, CAROL)] == ["board"]


def test_the_challenger_who_watches_is_mailed_once(players):
    run = players
    run(CAROL, "trou challenge alice bob")
    subscribe(run)
    replies = play(run, ["1B2"])
    assert len(to(replies, CAROL)) == 1


def test_unsubscribe_stops_the_mails(players):
    run = players
    start_trou(run)
    subscribe(run)
    assert to(play(run, ["1B2"]), CAROL)
    answer = one(run(CAROL, f"trou unsubscribe 101 carol {PW['carol']}"))
    assert "carol no longer watches Trou Board 101" in answer.body
    assert rows(run, "subscriptions") == []
    assert not to(play(run, ["4C2"], first=1), CAROL)


def test_a_signed_off_spectator_gets_nothing(players):
    run = players
    start_trou(run)
    subscribe(run)
    run(CAROL, f"signoff carol {PW['carol']}")
    assert not to(play(run, ["1B2"]), CAROL)


def test_subscribing_twice_is_said_and_stores_one_row(players):
    run = players
    start_trou(run)
    subscribe(run)
    assert "carol already watches Trou Board 101" in one(subscribe(run)).body
    assert len(rows(run, "subscriptions")) == 1


@pytest.mark.parametrize("sender, line, message", [
    (ALICE, "trou subscribe 101 alice {alice}", "alice plays on board 101"),
    (CAROL, "trou subscribe 102 carol {carol}", "There is no Trou board 102"),
    (CAROL, "trou subscribe 101 carol Wrong-pass-9", "password"),
    (CAROL, "trou subscribe 101 carol", "Too few words"),
    (CAROL, "trou unsubscribe 101 carol {carol}", "carol does not watch Trou Board 101"),
    (ALICE, "trou notify alice {alice} 101", "alice plays on board 101"),
    (CAROL, "trou notify carol {carol} 101 999", "There is no Trou board 999"),
    (CAROL, "trou notify carol {carol} off", "carol is not told when Trou games end"),
    (CAROL, "trou notify carol {carol} off 101", "carol is not told when those boards end"),
    (CAROL, "trou notify carol Wrong-pass-9", "password"),
    (CAROL, "trou notify carol {carol} x", "'x' is not a board number"),
])
def test_bad_subscriptions_and_notices_change_nothing(players, sender, line, message):
    run = players
    start_trou(run)
    before = snapshot(run)
    replies = run(sender, line.format(**PW))
    assert message in error(replies).body
    assert snapshot(run) == before
    assert_never_echoed(replies, *PW.values(), "Wrong-pass-9")


def test_a_finished_board_cannot_be_watched(players):
    run = players
    start_trou(run, moves=TROU_GAME)
    before = snapshot(run)
    assert "Board 101 is over" in error(subscribe(run)).body
    assert snapshot(run) == before


def test_spectators_of_a_board_are_bounded(players):
    run = players
    run.limits = LimitSettings(watchers_per_board=1)
    run(DAVE, "signup dave Dave4444")
    start_trou(run)
    subscribe(run)
    before = snapshot(run)
    refused = error(run(DAVE, "trou subscribe 101 dave Dave4444"))
    assert "Trou Board 101 has 1 spectators, the most one board may have" in refused.body
    assert snapshot(run) == before


# ----- notify -----------------------------------------------------------------------------
def ended(replies, address):
    return [r for r in to(replies, address) if r.subject.endswith("has ended")]


def test_notify_of_any_board_of_a_game_stays_after_it_fires(players):
    run = players
    answer = one(run(CAROL, f"trou notify carol {PW['carol']}"))
    assert "carol is mailed when any Trou board ends" in answer.body
    start_trou(run)
    final = play(run, TROU_GAME)
    (notice,) = ended(final, CAROL)
    assert notice.subject == "Trou Board 101 has ended"
    assert notice.kind == "notice"
    assert notice.body.startswith("Trou Board 101 has ended: Game won by alice.\n\n"
                                  "Summary of Trou Board 101\n")
    assert not ended(final, ALICE) and not ended(final, BOB)  # they have the final board
    assert len(rows(run, "end_notices")) == 1
    # A second board: told again. A resignation is an ending too.
    run(STRANGER, "trou challenge bob alice")
    play(run, ["1B2", "4C2"], board=102, first=1)  # bob (seat 0), then alice
    (again,) = ended(run(BOB, f"trou resign 102 bob {PW['bob']}"), CAROL)
    assert again.body.startswith("Trou Board 102 has ended: Game won by alice.")
    assert "bob resigned." in again.body


def test_notify_of_named_boards_fires_once_and_goes(players):
    run = players
    start_trou(run)
    start_trou(run)
    answer = one(run(CAROL, f"trou notify carol {PW['carol']} 102 101 101"))
    assert "carol is mailed when Trou boards 101, 102 end." in answer.body
    final = play(run, TROU_GAME)
    assert [r.subject for r in ended(final, CAROL)] == ["Trou Board 101 has ended"]
    assert len(rows(run, "end_notices")) == 1  # 102's stays
    answer = one(run(CAROL, f"trou notify carol {PW['carol']} off 102"))
    assert "carol is told of no Trou game's end" in answer.body
    assert rows(run, "end_notices") == []


def test_notify_off_without_boards_stops_every_notice_of_the_game(players):
    run = players
    start_trou(run)
    run(CAROL, f"trou notify carol {PW['carol']}")
    run(CAROL, f"trou notify carol {PW['carol']} 101")
    assert len(rows(run, "end_notices")) == 2
    run(CAROL, f"trou notify carol {PW['carol']} OFF")
    assert rows(run, "end_notices") == []
    assert not ended(play(run, TROU_GAME), CAROL)


def test_notify_again_for_the_game_switches_it_off(players):
    """pbmserv's notify is a toggle; the notices of boards named by number stay."""
    run = players
    start_trou(run)
    line = f"trou notify carol {PW['carol']}"
    assert one(run(CAROL, line)).body.startswith(
        "You will be told when any Trou board ends.\n\n")
    assert "carol is mailed when any Trou board or Trou board 101 ends." in \
        flat(one(run(CAROL, f"{line} 101")).body)
    replies = run(CAROL, line)
    answer = one(replies)
    assert answer.subject == "Trou notify"
    assert answer.body.startswith("You will no longer be told when Trou boards end.\n\n"
                                  "carol is mailed when Trou board 101 ends.")
    assert_never_echoed(replies, PW["carol"])
    assert len(rows(run, "end_notices")) == 1
    run(CAROL, f"{line} 101")  # 101's notice off too
    assert rows(run, "end_notices") == []
    assert not ended(play(run, TROU_GAME), CAROL)
    # ... and on once more.
    assert one(run(CAROL, line)).body.startswith("You will be told when any Trou board ends.")
    assert len(rows(run, "end_notices")) == 1


def test_notify_again_for_a_board_switches_that_board_off(players):
    run = players
    start_trou(run)
    start_trou(run)
    start_trou(run)
    line = f"trou notify carol {PW['carol']}"
    assert one(run(CAROL, f"{line} 101 103")).body.startswith(
        "You will be told when Trou boards 101, 103 end.\n")
    body = one(run(CAROL, f"{line} 102 101")).body
    assert body.startswith("You will be told when Trou board 102 ends.\n"
                           "You will no longer be told when Trou board 101 ends.\n\n"
                           "carol is mailed when Trou boards 102, 103 end.")
    final = play(run, TROU_GAME)  # board 101 ends: no notice now
    assert not ended(final, CAROL)
    assert len(rows(run, "end_notices")) == 2


def test_notify_switches_off_even_when_no_room_is_left(players):
    run = players
    run.limits = LimitSettings(watchers_per_board=1)
    start_trou(run)
    run(CAROL, f"trou notify carol {PW['carol']} 101")
    assert "You will no longer be told" in one(run(CAROL, f"trou notify carol {PW['carol']} "
                                                          "101")).body
    assert rows(run, "end_notices") == []


def test_a_user_with_two_notices_is_told_once(players):
    run = players
    start_trou(run)
    run(CAROL, f"trou notify carol {PW['carol']}")
    run(CAROL, f"trou notify carol {PW['carol']} 101")
    assert len(ended(play(run, TROU_GAME), CAROL)) == 1


def test_end_notices_are_bounded(players):
    run = players
    run.limits = LimitSettings(watchers_per_board=1)
    run(DAVE, "signup dave Dave4444")
    start_trou(run)
    run(CAROL, f"trou notify carol {PW['carol']}")
    run(CAROL, f"trou notify carol {PW['carol']} 101")
    before = snapshot(run)
    assert "1 users are told when any Trou board ends" in \
        error(run(DAVE, "trou notify dave Dave4444")).body
    assert "1 users are told when board 101 ends" in \
        error(run(DAVE, "trou notify dave Dave4444 101")).body
    assert snapshot(run) == before


def test_a_spectator_is_not_told_twice_of_the_end(players):
    run = players
    start_trou(run)
    run(CAROL, f"trou notify carol {PW['carol']} 101")
    subscribe(run)
    final = play(run, TROU_GAME)
    mail = one(final, CAROL)
    assert mail.kind == "board" and "Game won by alice." in mail.body
    assert rows(run, "end_notices") == []  # the notice for 101 went all the same


def test_a_forfeit_on_time_is_an_ending_too(players):
    run = players
    start = datetime(2026, 12, 1, 12, 0)
    run(STRANGER, "trou challenge alice bob", now=start)
    run(CAROL, f"trou notify carol {PW['carol']} 101", now=start)
    for address, userid, text in ((ALICE, "alice", TROU_GAME[0]), (BOB, "bob", TROU_GAME[1])):
        run(address, f"trou move 101 {userid} {PW[userid]} {text}", now=start)  # taken up
    for days in (7, 14, 21):  # nagged twice first
        report, _ids = tick(run.factory, Config(time=run.time), start + timedelta(days=days))
    (notice,) = ended(report.replies, CAROL)
    assert notice.body.startswith("Trou Board 101 has ended: Game won by bob.")
    assert "alice forfeited: no move in 21 days." in notice.body
    assert rows(run, "end_notices") == []


def test_spectators_cost_a_move_one_query_however_many_they_are(players):
    """And none on a board nobody watches: the board's own query says so."""
    run = players
    run(DAVE, "signup dave Dave4444")
    start_trou(run)
    statements: list[str] = []
    event.listen(run.engine, "before_cursor_execute",
                 lambda conn, cursor, statement, *rest: statements.append(statement))
    counts = []
    for i, text in enumerate(TROU_GAME[:4]):
        if i == 2:
            subscribe(run)
            run(DAVE, "trou subscribe 101 dave Dave4444")
        userid = ("alice", "bob")[i % 2]
        statements.clear()
        replies = run((ALICE, BOB)[i % 2], f"trou move 101 {userid} {PW[userid]} {text}")
        counts.append(len(statements))
        assert len(replies) == (2 if i < 2 else 3)  # the spectators' mail: one, to both
    assert counts[2] == counts[0] + 1 and counts[3] == counts[1] + 1, counts


# ----- Subscribers: and Notifiers: lines --------------------------------------------------
def test_board_mails_name_the_subscribers_and_notifiers_before_the_comments(players):
    """pbmserv's two lines, after the board and before '<author> writes:', in every
    mail of the move (players' and spectators'), userids sorted, signed-off users left
    out; a notice for any board of the game counts as one for this board."""
    run = players
    run(DAVE, "signup dave Dave4444")
    run("erin@example.com", "signup erin Erin5555")
    start_trou(run)
    run(DAVE, "trou subscribe 101 dave Dave4444")
    subscribe(run)
    run("erin@example.com", "trou notify erin Erin5555")  # any Trou board
    run(DAVE, "trou notify dave Dave4444 101")
    run(ALICE, f"trou notify alice {PW['alice']}")  # a player may ask, for every board
    replies = run(ALICE, f"trou move 101 alice {PW['alice']} {TROU_GAME[0]}", "Your move.")
    assert len(replies) == 3  # bob, alice, and one mail to both spectators
    for mail in replies:
        assert "Black pawns left:  1 2 3 4\n\nSubscribers: carol dave\n" \
            "Notifiers: alice dave erin\n\nalice writes:\nYour move." in mail.body, mail.body
    run("erin@example.com", "signoff erin Erin5555")
    run(CAROL, f"trou unsubscribe 101 carol {PW['carol']}")
    mail = one(run(BOB, f"trou move 101 bob {PW['bob']} {TROU_GAME[1]}"), DAVE)
    assert mail.body.rstrip().endswith("\n\nSubscribers: dave\nNotifiers: alice dave")
    # `show` looks them up itself.
    shown = one(run(STRANGER, "trou show 101")).body
    assert shown.rstrip().endswith("\n\nSubscribers: dave\nNotifiers: alice dave")


def test_a_board_nobody_watches_has_neither_line(players):
    run = players
    start_trou(run)
    run(CAROL, f"trou notify carol {PW['carol']}")
    run(CAROL, f"loophole notify carol {PW['carol']}")  # another game's notice is not one
    run(CAROL, f"trou notify carol {PW['carol']}")  # switched off again
    for mail in run(ALICE, f"trou move 101 alice {PW['alice']} {TROU_GAME[0]}"):
        assert "Subscribers:" not in mail.body and "Notifiers:" not in mail.body


def test_a_notice_asked_for_by_the_mail_that_moves_is_listed(players):
    """One mail: the board is read with nobody waiting, a notice added, then a move."""
    run = players
    start_trou(run)
    with run.session() as session:
        ctx = Context(session, ALICE, limits=run.limits)
        run_lines(ctx, ["trou show 101", f"trou notify alice {PW['alice']}",
                        f"trou move 101 alice {PW['alice']} 1B2"])
    boards = [reply for reply in ctx.replies if reply.kind == "board"]
    assert boards and all("\nNotifiers: alice\n" in reply.body + "\n" for reply in boards)


def test_long_lists_of_watchers_wrap_under_their_first_name():
    userids = [f"user{i:02}" for i in range(30, 0, -1)]
    lines = watcher_lines(userids, ["zed"])
    assert lines[0].startswith("Subscribers: user01 user02 ")
    assert all(len(line) <= WIDTH for line in lines)
    assert len(lines) == 5 and lines[-1] == "Notifiers: zed"
    assert all(line.startswith(" " * 13 + "user") for line in lines[1:-1])
    assert " ".join(lines[:-1]).split() == ["Subscribers:", *sorted(userids)]
    assert watcher_lines([], []) == []


def test_notifiers_cost_a_move_one_query_and_nothing_where_there_are_none(players):
    """The board's own query says whether anyone waits for its end."""
    run = players
    start_trou(run)
    statements: list[str] = []
    event.listen(run.engine, "before_cursor_execute",
                 lambda conn, cursor, statement, *rest: statements.append(statement))
    counts = []
    for i, text in enumerate(TROU_GAME[:4]):
        if i == 2:
            run(CAROL, f"trou notify carol {PW['carol']}")
            run(CAROL, f"trou notify carol {PW['carol']} 101")
        userid = ("alice", "bob")[i % 2]
        statements.clear()
        replies = run((ALICE, BOB)[i % 2], f"trou move 101 {userid} {PW[userid]} {text}")
        counts.append(len(statements))
        assert ("Notifiers: carol" in replies[0].body) == (i >= 2)
    assert counts[2] == counts[0] + 1 and counts[3] == counts[1] + 1, counts
