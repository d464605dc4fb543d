"""Game commands on boards: challenge, move, resign, show, showas, and the move list."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest

from pbm.config import Config
from pbm.mail.housekeeping import tick
from pbm.views import boardmail
from tests.commands.conftest import (
    ACCOUNTS,
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
)

FIRST_HINT = "Place any of your pawns on any cell"  # alice's prompt on a new Trou board


def move(run, userid, line_rest, comment=None, game="trou"):
    """`trou move <line_rest>` with the board first: move(run, 'alice', '101 3B2')."""
    number, text = line_rest.split(" ", 1)
    address = {"alice": ALICE, "bob": BOB, "carol": CAROL}[userid]
    return run(address, f"{game} move {number} {userid} {PW[userid]} {text}", comment)


# ----- challenge --------------------------------------------------------------------------
def test_challenge_by_a_non_player_mails_both_players_and_the_challenger(players):
    run = players
    replies = run(STRANGER, "trou challenge alice bob")
    assert len(replies) == 3
    assert {r.subject for r in replies} == {"New Trou Board 101 alice"}
    assert all(r.kind == "board" for r in replies)
    alice, bob, spectator = one(replies, ALICE), one(replies, BOB), one(replies, STRANGER)
    for mail in (alice, bob, spectator):
        assert mail.body.startswith("A new Trou board (101) has been started\n")
        assert "Please start the game alice." in mail.body
        assert "Red: alice          Black: bob" in mail.body
        assert "(no moves yet)" in mail.body
    # Each reader gets their own view: only the player to move gets the hint.
    assert FIRST_HINT in alice.body
    assert FIRST_HINT not in bob.body
    assert FIRST_HINT not in spectator.body  # the public view
    board = run.board(101)
    assert [s.user.userid for s in board.seats] == ["alice", "bob"]
    assert board.challenger == STRANGER
    assert board.status == "active" and board.move_count == 0


def test_challenge_comment_is_shown_and_marks_the_subject(players):
    run = players
    # From a player: no third copy, and the comment is signed with the userid.
    replies = run(ALICE, "trou challenge alice bob", comment="Good luck, Bob!\n")
    assert len(replies) == 2
    ends = {ALICE: "To move: trou move 101 alice PASSWORD 1A1#1",
            BOB: "When your turn comes: trou move 101 bob PASSWORD MOVE\n"
                 "To decline: trou resign 101 bob PASSWORD"}
    for mail in replies:
        assert mail.subject == "New Trou Board 101 alice **"
        # The comment closes the board; the command each player sends closes the mail.
        (address,) = mail.to
        assert mail.body.rstrip().endswith(f"alice writes:\nGood luck, Bob!\n\n{ends[address]}")
    # From a signed-up user who does not play: signed with their userid, they get a copy.
    replies = run(CAROL, "TROU CHALL bob alice", comment="Go!")
    assert len(replies) == 3
    for mail in replies:
        assert mail.subject == "New Trou Board 102 bob **"
        assert "carol writes:\nGo!" in mail.body
    assert FIRST_HINT not in one(replies, CAROL).body
    assert run.board(102).challenger == "carol"
    # Without a comment there is no marker.
    assert one(run(CAROL, "trou challenge alice carol"), ALICE).subject == \
        "New Trou Board 103 alice"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("trou challenge alice", "Trou is played by 2 players. Write: trou challenge userid1 "
                                 "userid2"),
        ("trou challenge alice bob carol", "Trou is played by 2 players."),
        ("trou challenge", "Trou is played by 2 players."),
        ("trou challenge alice zed", "There is no user 'zed'"),
        ("trou challenge alice ALICE", "cannot challenge themself"),
        ("trou challenge -foo alice bob", "Trou takes no options (got '-foo')."),
        ("trou challenge alice bob -size=19", "Trou takes no options (got '-size')."),
    ],
)
def test_challenge_refusals(players, line, message):
    run = players
    before = run.snapshot()
    err = error(run(STRANGER, line))
    assert err.subject == "Trou error"
    assert message in err.body
    assert f"Your command was:\n  {line}" in err.body
    assert run.snapshot() == before
    assert "There is no Trou board 101." in error(run(STRANGER, "trou show 101")).body


# ----- move -------------------------------------------------------------------------------
def test_moves_with_guard_alias_and_turns(players):
    run = players
    start_trou(run)
    replies = move(run, "alice", "101 3B2#1")
    assert {r.to for r in replies} == {(ALICE,), (BOB,)}
    for mail in replies:
        assert mail.subject == "Trou Board 101 bob"
        assert mail.body.startswith("Summary of Trou Board 101\n\nIt is bob's turn.\n")
        assert "  1. 3B2" in mail.body
    assert "You may place" in one(replies, BOB).body
    assert "You may place" not in one(replies, ALICE).body
    assert [m.notation for m in run.moves(101)] == ["3B2"]

    # A stale guard is refused and nothing moves.
    before = run.snapshot()
    replies = move(run, "bob", "101 4C2#1")
    err = error(replies)
    assert err.subject == "Trou Board 101 Error"
    assert "would be move #2" in err.body
    assert "Summary of Trou Board 101" in err.body and "  1. 3B2" in err.body  # the board
    assert "trou move 101 bob ******** 4C2#1" in err.body
    assert_never_echoed(replies, PW["bob"])
    assert run.snapshot() == before

    # Not your turn: alice again.
    err = error(move(run, "alice", "101 1A1"))
    assert err.subject == "Trou Board 101 Error"
    assert "It is not your turn on board 101; it is bob's turn." in err.body
    assert "Summary of Trou Board 101" in err.body  # the board is shown with the error
    assert run.snapshot() == before

    # Someone who does not play on the board.
    err = error(move(run, "carol", "101 1A1"))
    assert "carol does not play on board 101 (alice and bob do)." in err.body

    # `mvoe` is read as move; the right guard is accepted (also with a space before it).
    replies = run(BOB, f"TROU MVOE 101 BOB {PW['bob']} 4c2 #2")
    assert {r.subject for r in replies} == {"Trou Board 101 alice"}
    assert run.board(101).move_count == 2
    assert [m.notation for m in run.moves(101)] == ["3B2", "4C2"]

    # An illegal move: the game's reason, the board, the masked line; nothing changes.
    before = run.snapshot()
    replies = move(run, "alice", "101 4B2")
    err = error(replies)
    assert err.subject == "Trou Board 101 Error"
    assert "B2 is already occupied" in err.body
    assert "trou move 101 alice ******** 4B2" in err.body
    assert_never_echoed(replies, PW["alice"])
    assert run.snapshot() == before


def test_move_comment_is_passed_on(players):
    run = players
    start_trou(run)
    replies = move(run, "alice", "101 3B2", comment="Your move.\n\n")
    for mail in replies:
        assert mail.subject == "Trou Board 101 bob **"
        assert "alice writes:\nYour move." in mail.body
    assert run.moves(101)[0].comment == "Your move.\n\n"
    # The next mail without a comment has no marker.
    assert {r.subject for r in move(run, "bob", "101 4C2")} == {"Trou Board 101 alice"}


def test_move_on_unknown_or_other_game_board(players, other_game):
    run = players
    start_trou(run)
    err = error(move(run, "alice", "999 3B2"))
    assert err.subject == "Trou Board 999 Error"
    assert "There is no Trou board 999." in err.body
    err = error(run(ALICE, "trou move 10x alice Secret1 3B2"))
    assert "'10x' is not a board number" in err.body

    from pbm.games import registry

    title = registry.get(other_game).info.title
    before = run.snapshot()
    err = error(run(ALICE, f"{other_game} move 101 alice Secret1 3B2"))
    assert err.subject == f"{title} Board 101 Error"
    assert f"There is no {title} board 101; boards are numbered per game, and 101 is a " \
        "Trou board: send 'trou ...' for it." in flat(err.body)
    # Refused before the password was checked: nothing after its place is quoted.
    assert f"{other_game} move 101 alice ******** ********" in err.body
    assert run.snapshot() == before
    err = error(run(ALICE, f"{other_game} show 101"))
    assert "101 is a Trou board" in flat(err.body)


def test_a_whole_game_then_the_board_is_over(players):
    run = players
    start_trou(run, moves=TROU_GAME[:-1])
    replies = move(run, "bob", f"101 {TROU_GAME[-1]}#8")  # Black places the 8th pawn
    assert {r.to for r in replies} == {(ALICE,), (BOB,)}
    for mail in replies:
        assert mail.subject == "Trou Board 101"
        assert "Game won by alice.\n" in mail.body
        assert "Red's sum is smaller (2 against 4)" in mail.body
    board = run.board(101)
    assert board.status == "finished" and board.winners == [0]

    before = run.snapshot()
    for userid in ("alice", "bob"):
        err = error(move(run, userid, "101 1A1"))
        assert err.subject == "Trou Board 101 Error"
        assert "Board 101 is over; no more moves can be made." in err.body
    err = error(run(BOB, "trou resign 101 bob Hunter22"))
    assert "Board 101 is already over." in err.body
    assert run.snapshot() == before


def test_too_large_board_number_is_a_clear_error(players):
    run = players
    start_trou(run)
    err = error(run(STRANGER, "trou show 99999999999999999999"))
    assert "There is no Trou board 99999999999999999999." in err.body
    err = error(move(run, "alice", "99999999999999999999 3B2"))
    assert "There is no Trou board 99999999999999999999." in err.body


# ----- resign -----------------------------------------------------------------------------
def test_resign_before_the_first_move_declines_and_removes_the_board(players):
    run = players
    start_trou(run)
    replies = run(BOB, "trou resign 101 bob Hunter22")
    assert_never_echoed(replies, "Hunter22")
    assert {r.to for r in replies} == {(ALICE,), (BOB,)}
    for mail in replies:
        assert mail.subject == "Trou Board 101"
        assert "bob declined Trou board 101 before making a move" in mail.body
    assert run.board(101).status == "declined"

    err = error(run(STRANGER, "trou show 101"))
    assert "There is no Trou board 101." in err.body
    err = error(move(run, "alice", "101 3B2"))
    assert "There is no Trou board 101." in err.body
    assert "(none)" in one(run(STRANGER, "trou games all")).body
    # The number is not reused.
    assert one(run(STRANGER, "trou challenge alice bob"), ALICE).subject == \
        "New Trou Board 102 alice"

    # bob again, after alice has moved but before his own first move: declined too.
    move(run, "alice", "102 3B2")
    run(BOB, "trou resign 102 bob Hunter22")
    assert run.board(102).status == "declined"


def test_resign_on_your_turn_ends_the_game(players):
    run = players
    start_trou(run, moves=("1B2", "4C2", "2B1"))
    replies = run(BOB, "trou resign 101 bob Hunter22")
    assert {r.to for r in replies} == {(ALICE,), (BOB,)}
    for mail in replies:
        assert mail.subject == "Trou Board 101"
        assert "Game won by alice.\nbob resigned." in mail.body
    board = run.board(101)
    assert (board.status, board.winners, board.move_count) == ("finished", [0], 3)


def test_resign_out_of_turn_is_queued_toggles_and_fires(players):
    run = players
    start_trou(run, moves=("1B2", "4C2"))  # alice to move, both have moved
    reply = one(run(BOB, "trou resign 101 bob Hunter22"))
    assert reply.subject == "Trou Board 101"
    assert "Your resignation from board 101 is queued" in reply.body
    assert run.board(101).seats[1].resign_queued

    reply = one(run(BOB, "trou resign 101 bob Hunter22"))
    assert "Your queued resignation from board 101 has been taken back." in reply.body
    assert not run.board(101).seats[1].resign_queued

    run(BOB, "trou resign 101 bob Hunter22")
    assert run.board(101).seats[1].resign_queued
    assert run.board(101).status == "active"

    replies = move(run, "alice", "101 2B1")
    assert {r.to for r in replies} == {(ALICE,), (BOB,)}
    for mail in replies:
        assert mail.subject == "Trou Board 101"
        assert "Game won by alice.\nbob resigned." in mail.body
        assert "  3. 2B1" in mail.body  # alice's move was played first
    board = run.board(101)
    assert (board.status, board.winners, board.move_count) == ("finished", [0], 3)
    assert not board.seats[1].resign_queued


def test_a_queued_resignation_is_shown_to_its_player(players):
    run = players
    start_trou(run, moves=("1B2", "4C2"))
    run(BOB, "trou resign 101 bob Hunter22")
    view = one(run(BOB, "trou showas bob Hunter22 101")).body
    assert "Your resignation is queued" in view


def test_resign_refusals_are_masked(players):
    run = players
    start_trou(run, moves=("1B2",))
    before = run.snapshot()
    replies = run(BOB, "trou resign 101 bob hunter22")
    err = error(replies)
    assert err.subject == "Trou Board 101 Error"
    assert "Wrong password for 'bob'" in err.body
    assert "trou resign 101 bob ********" in err.body
    assert_never_echoed(replies, "hunter22")
    err = error(run(CAROL, "trou resign 101 carol Carol333"))
    assert "carol does not play on board 101" in err.body
    assert run.snapshot() == before


# ----- show / showas ----------------------------------------------------------------------
def test_show_board_and_earlier_positions(players):
    run = players
    start_trou(run, moves=("1B2", "4C2", "2B1"))
    reply = one(run(STRANGER, "trou show 101"))
    assert reply.to == (STRANGER,) and reply.kind == "answer"
    assert reply.subject == "Trou Board 101"
    assert reply.body.startswith("Summary of Trou Board 101\n\nIt is bob's turn.\n")
    assert "You may place" not in reply.body  # public view

    reply = one(run(STRANGER, "trou show 101#2"))
    assert reply.subject == "Trou Board 101"
    assert reply.body.startswith("Summary of Trou Board 101 after move 2\n\n"
                                 "It is alice's turn.\n")
    assert "  1. 1B2              2. 4C2" in reply.body
    assert "3." not in reply.body
    assert "  2  .   R1  B4" in reply.body  # alice's 2 is not on B1 yet
    assert "  1  .   .   ." in reply.body

    reply = one(run(STRANGER, "trou show 101#0"))
    assert "after move 0" in reply.body and "(no moves yet)" in reply.body
    assert "Please start the game alice." in reply.body

    replies = run(STRANGER, "trou show 101 101#1")
    assert len(replies) == 2

    err = error(run(STRANGER, "trou show 101#4"))
    assert "Board 101 has 3 moves; there is no move #4 to show." in err.body
    err = error(run(STRANGER, "trou show 101#x"))
    assert "'101#x' is not a board reference" in err.body


def test_show_earlier_position_of_a_finished_board_names_the_player_to_move(players):
    run = players
    start_trou(run, moves=("1B2", "4C2", "2B1"))
    run(BOB, "trou resign 101 bob Hunter22")
    body = one(run(STRANGER, "trou show 101#2")).body
    assert body.startswith("Summary of Trou Board 101 after move 2\n\n")
    assert "It is alice's turn." in body
    assert "It is  turn." not in body


def test_show_by_userid_with_selectors(players):
    run = players
    start_trou(run, "alice", "bob")  # 101: alice to move
    start_trou(run, "bob", "alice")  # 102: bob to move
    start_trou(run, "alice", "bob", ("1B2", "4C2"))  # 103
    run(ALICE, "trou resign 103 alice Secret1")  # finished, bob wins
    start_trou(run, "bob", "carol")  # 104: not alice's

    def shown(line):
        return [r.subject for r in run(STRANGER, line)]

    assert shown("trou show alice") == ["Trou Board 101", "Trou Board 102"]
    assert shown("trou show ALICE active") == ["Trou Board 101", "Trou Board 102"]
    assert shown("trou show alice next") == ["Trou Board 101"]
    assert shown("trou show bob next") == ["Trou Board 102", "Trou Board 104"]
    assert shown("trou show alice inactive") == ["Trou Board 103"]
    assert shown("trou show alice all") == [f"Trou Board {n}" for n in (101, 102, 103)]
    assert shown("trou show carol inactive") == ["Trou show"]
    assert "carol has no such boards." in one(run(STRANGER, "trou show carol inactive")).body
    for reply in run(STRANGER, "trou show alice all"):
        assert "You may place" not in reply.body and FIRST_HINT not in reply.body
    err = error(run(STRANGER, "trou show zed"))
    assert err.subject == "Trou error"
    assert "There is no user 'zed'" in err.body


def test_show_naming_no_board_and_no_player_is_refused_as_pbmserv_refuses_it(players):
    """`trou show` (or with a selector only) would be every board of everyone."""
    run = players
    start_trou(run, "alice", "bob")
    before = run.snapshot()
    for line in ("trou show", "trou show next", "trou show ALL", "trou show active"):
        err = error(run(STRANGER, line))
        assert err.subject == "Trou error", line
        assert flat(err.body).startswith(
            "This would generate too much mail -- please refine request. Name boards or a "
            "player. Write: trou show board[#n] ... | userid [active|inactive|next|all]"), line
    assert run.snapshot() == before


def test_showas_gives_the_players_own_view(players):
    run = players
    start_trou(run, "alice", "bob")  # 101: alice to move
    start_trou(run, "bob", "alice")  # 102: bob to move

    replies = run(ALICE, "trou showas alice Secret1")
    assert_never_echoed(replies, "Secret1")
    assert [r.subject for r in replies] == ["Trou Board 101", "Trou Board 102"]
    assert FIRST_HINT in replies[0].body  # her turn: her hint
    assert FIRST_HINT not in replies[1].body
    assert [r.subject for r in run(ALICE, "trou showas alice Secret1 next")] == \
        ["Trou Board 101"]
    assert FIRST_HINT in one(run(ALICE, "trou showas alice Secret1 101")).body

    # A board the user does not play: the spectator view.
    body = one(run(CAROL, "trou showas carol Carol333 101")).body
    assert body.startswith("Summary of Trou Board 101\n")
    assert FIRST_HINT not in body
    reply = one(run(CAROL, "trou showas carol Carol333"))
    assert reply.subject == "Trou showas"
    assert "carol has no such Trou boards." in reply.body

    # A wrong (or wrongly cased) password shows nothing.
    replies = run(ALICE, "trou showas alice secret1 101")
    err = error(replies)
    assert err.subject == "Trou error"
    assert "Wrong password for 'alice'" in err.body
    assert "trou showas alice ******** ********" in err.body  # the password was wrong
    assert_never_echoed(replies, "secret1")
    assert "Summary" not in err.body


# ----- the move list ----------------------------------------------------------------------
def row(*cells: str) -> str:
    """A move list row: one 20-character column per seat."""
    return "".join(cell.ljust(20) for cell in cells).rstrip()


def test_move_list_has_a_column_per_seat_and_numbered_moves(players):
    run = players
    start_trou(run, moves=("1B2", "4C2"))
    body = one(move(run, "alice", "101 2B1"), BOB).body
    lines = body.splitlines()
    header = lines.index("Red: alice          Black: bob")
    assert lines[header + 1: header + 4] == [
        "  1. 1B2              2. 4C2",
        "  3. 2B1",
        "",
    ]
    assert "not shown" not in body


def test_ordinary_mails_show_the_last_rows_and_show_lists_all(players, tally):
    run = players
    run(STRANGER, "tally challenge alice bob")
    for number in range(1, 24):
        userid = ("alice", "bob")[(number - 1) % 2]
        replies = move(run, userid, f"101 {number * 7}", game="tally")
        assert not any(r.subject.endswith("Error") for r in replies), replies
    # 23 moves = 12 rows: a board mail shows the last 10 and says so.
    body = one(replies, ALICE).body
    lines = body.splitlines()
    header = lines.index("North: alice        South: bob")
    assert re.fullmatch(r"  \(.*earlier.* not shown; 'tally show 101' lists them all\)",
                        lines[header + 1])
    assert lines[header + 2] == row("  5. 35", "  6. 42")
    assert lines[header + 11] == " 23. 161"
    assert "  4. 28" not in body

    # `show` lists every row.
    body = one(run(STRANGER, "tally show 101")).body
    lines = body.splitlines()
    header = lines.index("North: alice        South: bob")
    assert lines[header + 1] == row("  1. 7", "  2. 14")
    assert lines[header + 12] == " 23. 161"
    assert "not shown" not in body

    # The last mail of the game lists every move, as pbmserv's final mail did.
    last = one(move(run, "bob", "101 168", game="tally"), ALICE).body
    assert "Game won by alice." in last
    assert "North: alice        South: bob\n" + row("  1. 7", "  2. 14") + "\n" in last
    assert "\n" + row(" 23. 161", " 24. 168") + "\n" in last
    assert "not shown" not in last


@pytest.mark.parametrize("ending", ["resign", "forfeit"])
def test_a_game_ended_by_resigning_or_forfeit_mails_every_move(players, tally, ending):
    run = players
    start = datetime(2026, 12, 1, 12, 0)
    run(STRANGER, "tally challenge alice bob", now=start)
    for number in range(1, 24):
        userid = ("alice", "bob")[(number - 1) % 2]
        run(ACCOUNTS[userid][1], f"tally move 101 {userid} {PW[userid]} {number * 7}",
            now=start)
    if ending == "resign":
        replies = run(BOB, f"tally resign 101 bob {PW['bob']}", now=start)
    else:  # bob's turn; nagged twice, then forfeited
        for days in (7, 14, 21):
            report, _ids = tick(run.factory, Config(time=run.time),
                                start + timedelta(days=days))
        replies = report.replies
    last = one([r for r in replies if r.kind == "board"], ALICE).body
    assert "Game won by alice." in last
    assert "North: alice        South: bob\n" + row("  1. 7", "  2. 14") + "\n" in last
    assert "\n 23. 161\n" in last and "not shown" not in last


def test_recent_rows_limit_is_what_board_mails_use(players, monkeypatch):
    run = players
    monkeypatch.setattr(boardmail, "RECENT_ROWS", 1)
    start_trou(run, moves=("1B2", "4C2"))
    body = one(move(run, "alice", "101 2B1"), ALICE).body
    assert re.search(r"\n  \(.*earlier.* not shown; 'trou show 101' lists them all\)\n"
                     r"  3\. 2B1\n", body)
    assert "  3. 2B1" in body and "1. 1B2" not in body
    body = one(run(STRANGER, "trou show 101")).body
    assert "1. 1B2" in body and "not shown" not in body


def test_a_log_that_no_longer_replays_is_a_server_fault_not_a_player_error(players):
    """show #n replays the log; a move the rules now refuse must not be blamed on the player."""
    from sqlalchemy import text

    from pbm.boards.position import ReplayError

    run = players
    start_trou(run, moves=("1B2", "4C2"))
    with run.session() as session:
        session.execute(text("update moves set notation = '9Z9' where number = 1"))
    with pytest.raises(ReplayError, match="board 101 move 1"):
        run(STRANGER, "trou show 101#1")
