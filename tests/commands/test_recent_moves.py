"""A board keeps its last moves with it (Board.recent_moves), so that a move need not read
its log back: the kept list is always the tail of the log, through takebacks and queued
moves, and every view lists the same from it as from the log."""

from __future__ import annotations

import pytest
from sqlalchemy import select, update

from pbm.boards.position import KEPT_MOVES, moves_of, position
from pbm.db.models import Board
from pbm.views.boardmail import board_text
from tests.commands.conftest import ACCOUNTS, ALICE, PW, STRANGER, Runner, one, start_trou
from tests.commands.conftest import GAME as TALLY

USERS = ("alice", "bob")


def send(run: Runner, userid: str, text: str, game: str = "tally") -> list:
    replies = run(ACCOUNTS[userid][1], f"{game} move 101 {userid} {PW[userid]} {text}")
    assert not any(reply.subject.endswith("Error") for reply in replies), replies
    return replies


def mover(run: Runner) -> str:
    with run.factory() as session:
        (seat,) = position(session.scalars(select(Board)).one()).to_move()
        return USERS[seat]


def assert_kept_is_the_log(run: Runner) -> None:
    """The kept list is the log's last KEPT_MOVES, and each seat's and the public's board
    mail reads the same from it as from the log (the session is rolled back after)."""
    with run.factory() as session:
        board = session.scalars(select(Board)).one()
        log = moves_of(board, KEPT_MOVES, board.move_count)
        assert board.recent_moves == [list(move) for move in log]
        kept = [board_text(position(board), viewer) for viewer in (0, 1, None)]
        board.recent_moves = None
        assert [board_text(position(board), viewer) for viewer in (0, 1, None)] == kept


def test_the_kept_moves_are_the_tail_of_the_log_through_takebacks(players, tally,
                                                                  monkeypatch):
    monkeypatch.setattr(TALLY, "LENGTH", 2 * KEPT_MOVES)
    run = players
    run(STRANGER, "tally challenge alice bob")
    assert_kept_is_the_log(run)  # none yet
    for number in range(1, KEPT_MOVES + 6):
        userid = mover(run)
        send(run, userid, str(number))
        if number in (5, KEPT_MOVES + 2):  # taken back: the log gains a takeback entry
            other = USERS[1 - USERS.index(userid)]
            send(run, other, "undo")
            send(run, userid, "accept")
        assert_kept_is_the_log(run)
    with run.factory() as session:
        board = session.scalars(select(Board)).one()
        # KEPT_MOVES + 5 moves and two takebacks: the list holds the last KEPT_MOVES entries,
        # the second takeback among them.
        assert board.move_count == KEPT_MOVES + 7 and len(board.recent_moves) == KEPT_MOVES
        assert [move[2] for move in board.recent_moves if move[4] == "takeback"] == [
            f"undo {KEPT_MOVES + 3}"]


def test_queued_moves_are_kept_as_played(players):
    run = players
    start_trou(run, moves=("1B2",))
    run(ACCOUNTS["alice"][1], f"trou queue 101 alice {PW['alice']} 2B1")
    send(run, "bob", "4C2", game="trou")  # alice's queued move is played at once
    with run.factory() as session:
        kept = session.scalars(select(Board)).one().recent_moves
    assert [(move[2], move[5]) for move in kept] == [("1B2", False), ("4C2", False),
                                                     ("2B1", True)]
    assert_kept_is_the_log(run)


@pytest.mark.parametrize("moves_before", [0, 3])
def test_a_board_from_before_the_kept_list_reads_its_log_once(players, moves_before):
    """Migration 0008 leaves the list empty (NULL) on boards that were running."""
    run = players
    start_trou(run, moves=("1B2", "4C2", "2B1")[:moves_before])
    with run.session() as session:
        session.execute(update(Board).values(recent_moves=None))
    userid = mover(run)
    body = one(send(run, userid, "3C3" if moves_before else "1B2", game="trou"), ALICE).body
    assert (" 1. 1B2" in body) and (moves_before == 0 or " 3. 2B1" in body)
    assert_kept_is_the_log(run)
