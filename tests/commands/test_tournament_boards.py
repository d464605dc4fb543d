"""A tournament's board (a101) beside an ordinary board 101 of the same game: every
command finds the one its name names, and every mail names it as players write it.

Board 101 is alice (Red, to start) against bob; board a101 is bob (Red) against alice, so
whose turn it is tells the two apart as well as their move counts do."""

from __future__ import annotations

import pytest

from pbm.commands.reply_move import offer_command
from pbm.context import Context, board_thread
from pbm.db.models import Board
from pbm.mail import threads
from pbm.mail.inbound import InboundMail, RepliedTo, board_replied_to
from tests.commands.conftest import (
    ALICE,
    BOB,
    CAROL,
    PW,
    STRANGER,
    Runner,
    error,
    flat,
    one,
    start_tournament_board,
    start_trou,
    to,
)

HOST = "pbm.example"


@pytest.fixture
def boards(players: Runner) -> tuple[Runner, int]:
    """`players` with board 101 and the tournament board a101: (the runner, a101's id)."""
    assert start_trou(players) == 101
    key, _ = start_tournament_board(players, "bob", "alice")
    return players, key


def move(run: Runner, userid: str, rest: str):
    return run((ALICE if userid == "alice" else BOB),
               f"trou move {rest.split()[0]} {userid} {PW[userid]} {' '.join(rest.split()[1:])}")


def test_a_tournament_board_is_numbered_apart_and_its_mails_name_it(players):
    start_trou(players)
    key, mails = start_tournament_board(players, "bob", "alice")
    board = players.board(key)
    assert (board.prefix, board.number, board.label) == ("a", 101, "a101")
    assert {m.subject for m in mails} == {"New Trou Board a101 bob"}
    to_bob = one(mails, BOB)
    assert to_bob.body.startswith("A new Trou board (a101) has been started")
    assert "To move: trou move a101 bob PASSWORD " in to_bob.body
    # The tournament's next board is a102; the game's next ordinary one is still 102.
    key2, mails = start_tournament_board(players, "alice", "bob")
    assert players.board(key2).label == "a102"
    assert one(players(STRANGER, "trou challenge alice bob"), ALICE).subject == \
        "New Trou Board 102 alice"


def test_moves_to_a101_and_to_101_reach_their_own_boards(boards):
    run, key = boards
    replies = move(run, "bob", "a101 1B2")
    assert {r.subject for r in replies} == {"Trou Board a101 alice"}
    assert "Summary of Trou Board a101" in one(replies, ALICE).body
    assert "To move: trou move a101 alice PASSWORD " in one(replies, ALICE).body
    assert [m.notation for m in run.moves(key)] == ["1B2"] and run.moves(101) == []

    replies = move(run, "alice", "101 3B2")
    assert {r.subject for r in replies} == {"Trou Board 101 bob"}
    assert len(run.moves(key)) == 1 and [m.notation for m in run.moves(101)] == ["3B2"]

    # Letters in any case, and leading zeros, name the same board.
    assert {r.subject for r in move(run, "alice", "A0101 4C2")} == {"Trou Board a101 bob"}
    assert len(run.moves(key)) == 2 and len(run.moves(101)) == 1


def test_a_move_on_a101_by_someone_on_turn_on_101_only_is_refused(boards):
    run, key = boards
    before = run.snapshot()
    err = error(move(run, "alice", "a101 3B2"))  # alice's turn on 101, bob's on a101
    assert err.subject == "Trou Board a101 Error"
    assert "It is not your turn on board a101" in err.body
    assert run.snapshot() == before


def test_the_guard_names_a101(boards):
    run, key = boards
    before = run.snapshot()
    err = error(move(run, "bob", "a101 1B2#2"))
    assert "it would be move #1 of board a101, not #2" in flat(err.body)
    assert run.snapshot() == before
    assert {r.subject for r in move(run, "bob", "a101 1B2#1")} == {"Trou Board a101 alice"}


def test_show_preview_and_replay_of_a101(boards):
    run, key = boards
    move(run, "bob", "a101 1B2")
    shown = one(run(STRANGER, "trou show a101"))
    assert shown.subject == "Trou Board a101"
    assert shown.body.startswith("Summary of Trou Board a101")
    assert one(run(STRANGER, "trou show 101")).body.startswith("Summary of Trou Board 101")
    assert one(run(STRANGER, "trou show a101#0")).body.startswith(
        "Summary of Trou Board a101 after move 0")
    # `show alice` is still alice's boards: both, ordinary first.
    assert [r.subject for r in run(STRANGER, "trou show alice")] == \
        ["Trou Board 101", "Trou Board a101"]

    before = run.snapshot()
    preview = one(run(ALICE, f"trou preview a101 alice {PW['alice']} 4C2"))
    assert preview.subject == "Trou Board a101 Preview"
    assert "Preview of Trou Board a101" in preview.body
    replay = one(run(STRANGER, "trou replay a101 1"))
    assert replay.subject == "Trou Board a101 Replay"
    assert run.snapshot() == before


def test_subscribers_of_a101_get_its_mails_and_not_101s(boards):
    run, key = boards
    answer = one(run(CAROL, f"trou subscribe a101 carol {PW['carol']}"))
    assert answer.subject == "Trou Board a101 subscribed"
    assert "carol now watches Trou Board a101" in answer.body
    assert "trou unsubscribe a101 carol PASSWORD" in flat(answer.body)
    assert to(move(run, "bob", "a101 1B2"), CAROL)
    assert not to(move(run, "alice", "101 1B2"), CAROL)
    err = error(run(CAROL, f"trou subscribe a999 carol {PW['carol']}"))
    assert "There is no Trou board a999." in err.body


def test_queue_and_chat_name_a101(boards):
    run, key = boards
    queued = one(run(ALICE, f"trou queue a101 alice {PW['alice']} 4C2"))
    assert queued.subject == "Trou Board a101"
    assert "Queued on Trou board a101" in queued.body
    assert "trou queue a101 alice PASSWORD clear" in queued.body
    chat = run(ALICE, f"trou chat a101 alice {PW['alice']}", comment="Good luck!")
    assert {r.subject for r in to(chat, BOB)} == {"Trou Board a101 chat from alice"}
    assert "trou chat a101 YOURID" in flat(one(chat, BOB).body)


def test_listings_name_a101_after_the_ordinary_boards(boards):
    run, key = boards
    start_trou(run)  # board 102, started after a101
    body = one(run(STRANGER, "trou games")).body
    rows = [line.split()[0] for line in body.splitlines()
            if line.strip() and line.split()[0] in {"101", "102", "a101"}]
    assert rows == ["101", "102", "a101"]
    # A listing may go on from a101 (what "For the next ones send:" would write).
    body = one(run(STRANGER, "trou games a101")).body
    assert [line.split()[0] for line in body.splitlines()
            if line.split() and line.split()[0] in {"101", "102", "a101"}] == ["a101"]


@pytest.mark.parametrize("name", ["a", "abcde101", "a1b", "101a", "a-101", "ä101"])
def test_bad_board_names_are_clear_errors_and_change_nothing(boards, name):
    run, key = boards
    before = run.snapshot()
    err = error(run(BOB, f"trou move {name} bob {PW['bob']} 1B2"))
    assert f"'{name}' is not a board number" in err.body
    assert err.subject == "Trou error"  # no board is named in the Subject
    err = error(run(STRANGER, f"trou show alice {name}"))
    assert "is not a board" in err.body
    assert run.snapshot() == before


def test_a_word_like_a_board_name_is_a_player_where_no_tournament_is_named_so(boards):
    run, key = boards
    err = error(run(STRANGER, "trou show bob1"))  # a userid mistyped, not a board
    assert "board" not in err.body.split("\n")[0].lower()
    assert "bob1" in err.body


def test_an_unknown_tournament_board_is_named_as_written(boards):
    run, key = boards
    err = error(move(run, "bob", "a999 1B2"))
    assert err.subject == "Trou Board a999 Error"
    assert "There is no Trou board a999." in err.body
    err = error(move(run, "bob", "B101 1B2"))  # letters as the player wrote them
    assert "There is no Trou board B101." in err.body
    assert "There is no Trou board a999." in error(run(STRANGER, "trou show a999")).body


def _opening(run: Runner, key: int, recipient: str) -> str:
    """The Message-ID of board `key`'s first mail to `recipient` (mail/threads.py)."""
    with run.session() as session:
        thread = board_thread(session.get(Board, key))
    return threads.anchor_id(thread, recipient, HOST)


def _reply(subject: str, in_reply_to: str | None) -> InboundMail:
    return InboundMail(None, BOB, subject, "1B2\n", False, in_reply_to or "", in_reply_to)


def test_a_reply_to_an_a101_mail_finds_a101_not_101(boards):
    run, key = boards
    # The threading ids carry the number (101 for both boards) and the board's id.
    replied = board_replied_to(_reply("Re: Trou Board a101 bob", _opening(run, key, BOB)), HOST)
    assert replied == RepliedTo("trou", "101", key)
    # Without threading ids, the Subject names it.
    assert board_replied_to(_reply("Re: New Trou Board a101 bob", None), HOST) == \
        RepliedTo("trou", "a101")
    assert board_replied_to(_reply("Re: Trou Board 101 alice", None), HOST) == \
        RepliedTo("trou", "101")

    for found in (replied, RepliedTo("trou", "a101")):
        with run.session() as session:
            ctx = Context(session, BOB)
            assert offer_command(ctx, found.game, found.name, "1B2", found.board_id)
            answer = one(ctx.replies)
        assert answer.subject == "Trou Board a101: the command to send"
        assert "trou move a101 bob PASSWORD 1B2#1" in answer.body
    assert run.moves(key) == [] and run.moves(101) == []  # nothing played


def test_a_reply_to_the_ordinary_boards_mail_finds_101(boards):
    run, key = boards
    replied = board_replied_to(_reply("Re: Trou Board 101 alice", _opening(run, 101, ALICE)),
                               HOST)
    assert replied == RepliedTo("trou", "101", 101)
    with run.session() as session:
        ctx = Context(session, ALICE)
        assert offer_command(ctx, replied.game, replied.name, "3B2", replied.board_id)
        assert "trou move 101 alice PASSWORD 3B2" in one(ctx.replies).body
