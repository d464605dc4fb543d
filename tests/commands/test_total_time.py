"""--totaltime=N, pbmserv's chess clock: each player may use N days over the whole game; the
player past it loses on time ("exceeded the total time limit of N days"), or declines the
board if they never moved on it. And the time options written with pbmserv's two dashes.
Days pass by the injected clock, never by sleeping."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import select

from pbm.db.models import Board, BoardStatus, Seat
from pbm.games import registry
from tests.commands.conftest import (
    ACCOUNTS,
    ALICE,
    BOB,
    PW,
    STRANGER,
    TROU_GAME,
    Runner,
    error,
    flat,
    one,
)
from tests.commands.test_clock import at, challenge, housekeep, move, nags, ratings

HOUR = 3600
DAY = 24 * HOUR


def used(run: Runner) -> list[int]:
    with run.session() as session:
        return [seat.time_used for seat in
                session.scalars(select(Seat).where(Seat.board_id == 101).order_by(Seat.position))]


def test_two_dashes_as_pbmserv_writes_them(players: Runner):
    challenge(players, "--nagtime=2 --forfeittime=5 --totaltime=9")
    board = players.board(101)
    assert (board.nag_days, board.forfeit_days, board.total_days) == (2, 5, 9)


def test_one_dash_is_read_too_and_game_options_keep_theirs(players: Runner):
    challenge(players, "-totaltime=4")
    board = players.board(101)
    assert (board.nag_days, board.forfeit_days, board.total_days) == (None, None, 4)


@pytest.mark.parametrize(("options", "message"), [
    ("--totaltime=0", "--totaltime takes a number of days from 1 to 9999"),
    ("--totaltime=soon", "--totaltime takes a number of days from 1 to 9999"),
    ("--nagtime=x", "--nagtime takes a number of days"),
    ("--nagtime=5 --forfeittime=5", "must be longer than the nag time"),
    # A game option is still the game's: only the time options are the server's.
    ("--speed=3", "Trou takes no options"),
])
def test_bad_time_options_start_no_board(players: Runner, options: str, message: str):
    refused = error(players(STRANGER, f"trou challenge {options} alice bob", now=at(0)))
    assert message in refused.body
    with players.session() as session:
        assert session.scalar(select(Board.id)) is None


def test_time_used_counts_each_players_turns(players: Runner):
    challenge(players, "--totaltime=10")
    move(players, "alice", TROU_GAME[0], 1)  # alice to move from day 0: a day
    move(players, "bob", TROU_GAME[1], 1.5)  # half a day
    move(players, "alice", TROU_GAME[2], 1.75)  # six hours more
    assert used(players) == [DAY + 6 * HOUR, 12 * HOUR]


def test_time_used_leaves_vacations_out(players: Runner):
    challenge(players, "--totaltime=10")
    players(ALICE, f"vacation alice {PW['alice']} 3", now=at(0.5))
    players(ALICE, f"vacation alice {PW['alice']} off", now=at(1.5))  # back a day later
    move(players, "alice", TROU_GAME[0], 2)
    assert used(players)[0] == DAY  # two days on turn, one of them away


def test_the_flag_falls_and_the_player_loses_on_time(players: Runner):
    challenge(players, "--totaltime=3")
    move(players, "alice", TROU_GAME[0], 1)  # alice has used 1 day
    move(players, "bob", TROU_GAME[1], 1.5)  # alice's flag falls at day 3.5
    assert housekeep(players, 2.4) == []
    reminder = one(housekeep(players, 2.5))  # a day left: before any nag would come
    assert reminder.subject == "Nag: Trou Board 101 alice"
    assert "Of the 3 days of total time, alice has 1 day left." in reminder.body
    assert "If no move is made by 2026-12-05 00:00 UTC (in 1 day)," in reminder.body
    assert "alice exceeds the total time limit and loses the game." in reminder.body
    assert housekeep(players, 2.6) == [] and housekeep(players, 3.49) == []
    final = housekeep(players, 3.5)
    assert {r.to for r in final} == {(ALICE,), (BOB,)}
    for reply in final:
        assert "Game won by bob." in reply.body
        assert "alice exceeded the total time limit of 3 days." in reply.body
    board = players.board(101)
    assert board.status == BoardStatus.FINISHED and board.winners == [1]
    assert ratings(players) != []  # both had moved: a loss on time is rated
    assert housekeep(players, 10) == []


def test_nags_count_the_total_time_down(players: Runner):
    challenge(players, "--totaltime=30")
    move(players, "alice", TROU_GAME[0], 0)
    move(players, "bob", TROU_GAME[1], 2)  # bob used 2 days
    move(players, "alice", TROU_GAME[2], 2)
    nag = one(nags(housekeep(players, 9)))  # bob, 7 days on this turn
    assert nag.subject == "Nag: Trou Board 101 bob"
    assert "Of the 30 days of total time, bob has 21 days left." in nag.body
    assert "bob forfeits the game on time." in nag.body  # the forfeit comes first here


def test_a_move_after_the_flag_fell_is_too_late(players: Runner):
    """No housekeeping ran between the flag's fall and the move (say `pbm tick` runs from
    cron): the move is not played, and the game is lost on time all the same."""
    challenge(players, "--totaltime=2")
    move(players, "alice", TROU_GAME[0], 0.5)
    move(players, "bob", TROU_GAME[1], 0.5)
    late = move(players, "alice", TROU_GAME[2], 2.6)  # 0.5 + 2.1 days: past 2
    answer = one([r for r in late if r.subject == "Trou Board 101: too late"], ALICE)
    assert f"Your move {TROU_GAME[2]} on Trou board 101 was not played" in answer.body
    assert "total time of 2 days ran out" in flat(answer.body)
    finals = [r for r in late if r.subject == "Trou Board 101"]
    assert {r.to for r in finals} == {(ALICE,), (BOB,)}
    assert all("alice exceeded the total time limit of 2 days." in r.body for r in finals)
    board = players.board(101)
    assert board.status == BoardStatus.FINISHED and board.move_count == 2
    assert housekeep(players, 3) == []


def test_a_player_who_never_moved_declines_when_the_flag_falls(players: Runner):
    challenge(players, "--totaltime=2")
    reminder = one(housekeep(players, 1))
    assert "the board is declined and removed (not rated)," in reminder.body
    final = housekeep(players, 2)
    assert {r.to for r in final} == {(ALICE,), (BOB,)}
    assert all("the board is declined" in r.body for r in final)
    board = players.board(101)
    assert board is not None and board.status == BoardStatus.DECLINED
    assert ratings(players) == []


def test_a_total_time_flag_found_late_gets_a_last_call(players: Runner):
    """The flag fell on day 3 while the server was down until day 10: the player's move may
    sit in a mail queue, so a last call and a day to move, as for a late forfeit."""
    challenge(players, "--totaltime=3")
    move(players, "alice", TROU_GAME[0], 0)
    move(players, "bob", TROU_GAME[1], 0)
    one(housekeep(players, 2))  # a day left
    last = one(housekeep(players, 10))
    assert "the server could not look at the clocks" in last.body.lower()
    final = housekeep(players, 11)
    assert len(final) == 2
    assert all("alice exceeded the total time limit of 3 days." in r.body for r in final)


# ----- the clock block ----------------------------------------------------------------------
def block(body: str) -> list[str]:
    """The lines from the 60 stars to the end of the block (the To-move line excluded)."""
    lines = body.splitlines()
    start = lines.index("*" * 60)
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


def test_no_clock_block_on_a_running_board_with_the_servers_limits(players: Runner):
    challenge(players)
    mail = one(move(players, "alice", TROU_GAME[0], 1), BOB)
    assert "*" * 60 not in mail.body


def test_the_clock_block_of_a_total_time_board(players: Runner):
    challenge(players, "--totaltime=10")  # Dec 01 12:00
    move(players, "alice", TROU_GAME[0], 1.25)  # Dec 02 18:00, alice used 1 day 6 hours
    mail = one(move(players, "bob", TROU_GAME[1], 1.5), ALICE)  # bob used 6 hours
    assert block(mail.body) == [
        "*" * 60,
        "Game started.... Dec 01 12:00",
        "Last move made.. Dec 03 00:00",
        "It is now....... Dec 03 00:00",
        "Time used by players: (each may use 10 days in all)",
        "alice (Red):   1 days, 06:00:00",
        "bob (Black):   0 days, 06:00:00",
        "Total:         1 days, 12:00:00",
    ]
    # The block ends the board part; the command to send still comes last.
    assert mail.body.rstrip().splitlines()[-1].startswith("To move: trou move 101 alice")
    # A look later counts alice's running turn.
    shown = one(players(BOB, "trou show 101", now=at(2)))
    assert "It is now....... Dec 03 12:00" in shown.body
    assert "alice (Red):   1 days, 18:00:00" in shown.body


def test_the_clock_block_names_limits_that_are_not_the_servers(players: Runner):
    challenge(players, "--nagtime=2 --forfeittime=5")
    shown = one(players(BOB, "trou show 101", now=at(0.5)))
    lines = block(shown.body)
    assert "Nag time........ 2 days" in lines and "Forfeit time.... 5 days" in lines
    assert "Time used by players:" in lines  # no total: nothing after the colon
    assert "Last move made.." not in shown.body  # no move yet


def test_the_final_mail_ends_with_the_clock_block(players: Runner):
    challenge(players)
    for i, text in enumerate(TROU_GAME):
        final = move(players, ("alice", "bob")[i % 2], text, i + 1)
    mail = one([r for r in final if r.subject == "Trou Board 101"], BOB)
    lines = block(mail.body)
    assert lines[1:4] == ["Game started.... Dec 01 12:00", "Last move made.. Dec 09 12:00",
                          "Game ended...... Dec 09 12:00"]
    assert lines[-3:] == ["alice (Red):   4 days, 00:00:00",
                          "bob (Black):   4 days, 00:00:00",
                          "Total:         8 days, 00:00:00"]


@pytest.mark.parametrize("word", registry.names())
def test_in_every_game_the_player_whose_flag_falls_loses(players: Runner, word: str):
    game = registry.get(word)
    players(STRANGER, f"{word} challenge --totaltime=3 alice bob", now=at(0))
    state = game.start(game.parse_options([]), 101)  # a board's seed is its id
    rng = random.Random(3)
    moved: set[int] = set()
    while moved != {0, 1}:  # both take the board up, at once: no time used yet
        seat = min(game.to_move(state))
        text = game.notation(game.random_move(state, seat, rng))
        userid = ("alice", "bob")[seat]
        got = players(ACCOUNTS[userid][1], f"{word} move 101 {userid} {PW[userid]} {text}",
                      now=at(0))
        assert not any(r.subject.endswith("Error") for r in got), got
        state = game.play(state, seat, game.parse(state, seat, text))
        moved.add(seat)
    assert game.result(state) is None
    loser = min(game.to_move(state))
    userid = ("alice", "bob")[loser]
    # A day left: every seat to move is reminded (both, in a round moved at once); when
    # both flags fall together, the first seat's ends the game.
    assert sorted(r.subject for r in housekeep(players, 2)) == [
        f"Nag: {game.info.title} Board 101 {('alice', 'bob')[seat]}"
        for seat in sorted(game.to_move(state))]
    final = [r for r in housekeep(players, 3) if r.subject == f"{game.info.title} Board 101"]
    assert {r.to for r in final} == {(ALICE,), (BOB,)}
    for reply in final:
        assert f"{userid} exceeded the total time limit of 3 days." in reply.body
        assert "Game ended...... Dec 04 12:00" in block(reply.body)
        assert f"{userid} ({game.info.seats[loser]}):" in flat(reply.body)
    board = players.board(101)
    assert board is not None and board.winners == [1 - loser]
