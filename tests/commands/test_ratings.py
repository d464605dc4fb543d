"""Ratings through the command layer: finished games rate both players, the final board mail
says how, `standings` ranks the players and `history` lists the finished boards."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import event, select

from pbm.context import Reply
from pbm.db.models import Board, Rating, User
from pbm.ratings.rebuild import rebuild
from pbm.views import history as history_view
from tests.commands.conftest import (
    ACCOUNTS,
    ALICE,
    BOB,
    CAROL,
    PW,
    STRANGER,
    TROU_GAME,
    error,
    one,
)

RED_WINS = TROU_GAME
BLACK_WINS = ("3A1", "1B2", "1C3", "3C1", "2B3", "4C2", "4A2", "2B1")
TIED = ("1C1", "2C2", "2B1", "3B2", "3A1", "1C3", "4B3", "4A2")
RED_REASON = "Both have 1 pawn beside the hole and Red's sum is smaller (2 against 4)."
TIE_REASON = "Both have 1 pawn beside the hole with the same sum (4): no winner."
DAY = datetime(2024, 3, 1, 12, 0)


def play(run, first: str, second: str, moves: tuple[str, ...],
         when: datetime = DAY) -> tuple[int, list[Reply]]:
    """Challenge (from a stranger) and play `moves` as of `when`: the board and the replies
    to the last command."""
    replies = run(STRANGER, f"trou challenge {first} {second}", now=when)
    number = int(one(replies, ACCOUNTS[first][1]).subject.split()[3])
    for i, text in enumerate(moves):
        userid = (first, second)[i % 2]
        replies = run(ACCOUNTS[userid][1], f"trou move {number} {userid} {PW[userid]} {text}",
                      now=when)
        assert not any(r.subject.endswith("Error") for r in replies), replies
    return number, replies


def resign(run, userid: str, number: int, when: datetime = DAY) -> list[Reply]:
    return run(ACCOUNTS[userid][1], f"trou resign {number} {userid} {PW[userid]}", now=when)


def beat(run, winner: str, loser: str, when: datetime = DAY) -> int:
    """A short game the loser resigns once both have moved (before that it would decline)."""
    number, _ = play(run, winner, loser, RED_WINS[:3], when)
    resign(run, loser, number, when)
    return number


def record(run, userid: str, game: str = "trou") -> tuple[int, int, int, int] | None:
    with run.session() as session:
        row = session.scalar(select(Rating).join(User, User.id == Rating.user_id)
                             .where(User.userid == userid, Rating.game == game))
        return None if row is None else (row.rating, row.won, row.lost, row.tied)


def seed(run, userid: str, rating: int, won: int, lost: int = 0, tied: int = 0) -> None:
    """Give a player a record as if from earlier games (to start from an established one)."""
    with run.session() as session:
        user_id = session.scalar(select(User.id).where(User.userid == userid))
        session.add(Rating(game="trou", user_id=user_id, rating=rating, won=won, lost=lost,
                           tied=tied))


# ----- recording --------------------------------------------------------------------------
def test_a_finished_game_rates_both_newcomers(players):
    run = players
    number, replies = play(run, "alice", "bob", RED_WINS)
    assert record(run, "alice") == (1824, 1, 0, 0)
    assert record(run, "bob") == (1424, 0, 1, 0)
    board = run.board(number)
    assert board.rating_seq == 1
    assert board.rating_changes == [[1600, 1824, 0], [1600, 1424, 0]]
    for mail in (one(replies, ALICE), one(replies, BOB)):
        assert (f"Game won by alice.\n{RED_REASON}\n"
                "alice's rating is 1824 (provisional).\n"
                "bob's rating is 1424 (provisional).\n\n") in mail.body


def test_a_tie_rates_both_as_a_draw(players):
    run = players
    number, replies = play(run, "alice", "bob", TIED)
    assert record(run, "alice") == (1624, 0, 0, 1)
    assert record(run, "bob") == (1624, 0, 0, 1)
    assert ("Game was a tie.\n" + TIE_REASON + "\nalice's rating is 1624 (provisional).\n"
            "bob's rating is 1624 (provisional).\n") in one(replies, ALICE).body


def test_a_resignation_is_a_loss_and_later_games_start_from_the_ratings_before(players):
    run = players
    play(run, "alice", "bob", RED_WINS)  # alice 1824, bob 1424, one game each
    number, _ = play(run, "alice", "bob", RED_WINS[:4])
    replies = resign(run, "alice", number)  # on her turn
    # bob: value = (1424 + 1824) / 2 + 200 = 1824; (1424 + 1824) / 2 + (1720 - 1424) / 5
    #      = 1624 + 59 = 1683
    # alice: value = 1624 - 200 = 1424; (1824 + 1424) / 2 + (1720 - 1824) / 5 = 1624 - 20
    #      (C truncation: -104 / 5 is -20, not -21)
    assert record(run, "bob") == (1683, 1, 1, 0)
    assert record(run, "alice") == (1604, 1, 1, 0)
    board = run.board(number)
    assert (board.rating_seq, board.rating_changes) == (2, [[1824, 1604, 1], [1424, 1683, 1]])
    assert ("Game won by bob.\nalice resigned.\nalice's rating is 1604 (provisional).\n"
            "bob's rating is 1683 (provisional).\n") in one(replies, BOB).body


def test_a_declined_board_and_a_running_one_are_not_rated(players):
    run = players
    declined, _ = play(run, "alice", "bob", RED_WINS[:1])
    resign(run, "bob", declined)  # before bob's first move: declined
    running, _ = play(run, "alice", "bob", RED_WINS[:5])
    assert run.board(declined).status == "declined"
    for number in (declined, running):
        assert (run.board(number).rating_seq, run.board(number).rating_changes) == (None, None)
    assert record(run, "alice") is None and record(run, "bob") is None


def test_signing_off_resigns_and_rates_every_board(players):
    run = players
    first = beat(run, "alice", "bob")  # alice 1824, bob 1424
    second, _ = play(run, "alice", "carol", RED_WINS[:2])
    third, _ = play(run, "carol", "alice", RED_WINS[:3])
    run(ALICE, "signoff alice Secret1")
    # Rated one after the other in one mail, each from the ratings the last one left:
    # carol against alice (1824, 1 game): value = (1600 + 1824) / 2 + 200 = 1912; + 24
    # alice: value = 1712 - 200 = 1512; (1824 + 1512) / 2 + (1720 - 1824) / 5 = 1668 - 20
    assert [run.board(n).rating_seq for n in (first, second, third)] == [1, 2, 3]
    assert run.board(second).rating_changes == [[1824, 1648, 1], [1600, 1936, 0]]
    # carol (1936, 1) beats alice (1648, 2) again: value = (1936 + 1648) / 2 + 200 = 1992;
    # carol: (1936 + 1992) / 2 + (1720 - 1936) / 5 = 1964 - 43 = 1921
    # alice: value = 1592; (1648 * 2 + 1592) / 3 = 1629; + (1720 - 1648) / 5 = 14 -> 1643
    assert run.board(third).rating_changes == [[1936, 1921, 1], [1648, 1643, 2]]
    assert record(run, "carol") == (1921, 2, 0, 0)
    assert record(run, "alice") == (1643, 1, 2, 0)


def test_rating_costs_a_finishing_move_four_statements_and_other_moves_none(players):
    """(And the end notices one more: who waits to be told of the end.)"""
    run = players
    number, _ = play(run, "alice", "bob", RED_WINS[:-2])
    statements: list[str] = []
    event.listen(run.engine, "before_cursor_execute",
                 lambda conn, cursor, statement, *rest: statements.append(statement))
    play_counts = []
    for userid, text in (("alice", RED_WINS[-2]), ("bob", RED_WINS[-1])):
        statements.clear()
        run(ACCOUNTS[userid][1], f"trou move {number} {userid} {PW[userid]} {text}")
        play_counts.append(len(statements))
    # The last rating_seq, the players' records, their rows written, the board's numbers;
    # and who asked to be told of the end (GAME notify). Where several nodes may write at
    # once (PostgreSQL), one more: the advisory lock that keeps rating_seq in order.
    locks = 0 if run.engine.dialect.name == "sqlite" else 1
    assert play_counts[1] - play_counts[0] <= 4 + 1 + locks, statements
    assert run.board(number).rating_seq == 1


# ----- the rating lines ---------------------------------------------------------------------
def test_established_players_are_told_up_down_or_stayed(players):
    run = players
    seed(run, "alice", 1600, 10, 10)
    seed(run, "bob", 1600, 20)
    number, replies = play(run, "alice", "bob", RED_WINS)
    assert ("alice's rating went up from 1600 to 1616.\n"
            "bob's rating went down from 1600 to 1584.\n") in one(replies, ALICE).body
    assert record(run, "alice") == (1616, 11, 10, 0)
    assert record(run, "bob") == (1584, 20, 1, 0)
    # 1616 against 1584, a tie: 32 * (0.5 - 1 / (1 + 10 ** (-32 / 400))) = -1.47 -> -1
    _, replies = play(run, "alice", "bob", TIED)
    assert ("alice's rating went down from 1616 to 1615.\n"
            "bob's rating went up from 1584 to 1585.\n") in one(replies, BOB).body


def test_equal_established_players_tying_stay_where_they_were(players):
    run = players
    seed(run, "alice", 1650, 30)
    seed(run, "carol", 1650, 0, 20)
    _, replies = play(run, "alice", "carol", TIED)
    assert "alice's rating stayed at 1650.\ncarol's rating stayed at 1650.\n" in \
        one(replies, CAROL).body
    assert record(run, "carol") == (1650, 0, 20, 1)


def test_a_provisional_player_against_an_established_one(players):
    run = players
    seed(run, "alice", 1700, 25)
    seed(run, "bob", 1600, 5, 5)
    number, replies = play(run, "alice", "bob", BLACK_WINS)
    # alice: K = 32 * 10 / 20 = 16; 16 * (0 - 1 / (1 + 10 ** (-100 / 400))) = -10.24 -> -10
    # bob: value = 1700 + 400 = 2100; (1600 * 10 + 2100) / 11 = 1645; + 24 = 1669
    assert ("Game won by bob.\nBlack has fewer pawns beside the hole (0 against 2).\n"
            "alice's rating went down from 1700 to 1690.\n"
            "bob's rating is 1669 (provisional).\n") in one(replies, ALICE).body


def test_show_of_the_finished_board_has_the_lines_but_not_of_an_earlier_move(players):
    run = players
    number, _ = play(run, "alice", "bob", RED_WINS)
    lines = "alice's rating is 1824 (provisional).\nbob's rating is 1424 (provisional).\n"
    assert lines in one(run(STRANGER, f"trou show {number}")).body
    assert lines in one(run(ALICE, f"trou showas alice {PW['alice']} {number}")).body
    assert "rating" not in one(run(STRANGER, f"trou show {number}#7")).body


def test_an_ordinary_move_mail_has_no_rating_lines(players):
    run = players
    _, replies = play(run, "alice", "bob", RED_WINS[:4])
    assert not any("rating" in r.body for r in replies)


# ----- standings ----------------------------------------------------------------------------
DEFINITIONS = """
Provisionals have finished fewer than 20 games. Inactive: signed off, or
with no active board of this game and none of it finished in the last 180
days.
"""


def three_games(run) -> None:
    """alice beats bob, bob ties carol, carol beats alice; alice and carol then play on."""
    play(run, "alice", "bob", RED_WINS)  # alice 1824, bob 1424
    # bob: value = (1424 + 1600) / 2 = 1512; (1424 + 1512) / 2 + (1720 - 1424) / 5 = 1468 + 59
    # carol: 1512 + 24
    play(run, "bob", "carol", TIED, DAY + timedelta(days=1))  # bob 1527, carol 1536
    # carol: value = (1536 + 1824) / 2 + 200 = 1880; (1536 + 1880) / 2 + 184 / 5 = 1708 + 36
    # alice: value = 1480; (1824 + 1480) / 2 + (1720 - 1824) / 5 = 1652 - 20
    beat(run, "carol", "alice", DAY + timedelta(days=2))  # carol 1744, alice 1632
    declined, _ = play(run, "alice", "bob", RED_WINS[:1], DAY + timedelta(days=2))
    resign(run, "bob", declined, DAY + timedelta(days=2))
    play(run, "alice", "carol", RED_WINS[:2], DAY + timedelta(days=2))


def standings(run, when: datetime, line: str = "trou standings") -> str:
    reply = one(run(STRANGER, line, now=when))
    assert reply.subject == "Trou Standings"
    return reply.body


def test_standings_before_any_game_has_finished(players):
    run = players
    play(run, "alice", "bob", RED_WINS[:3])
    assert standings(run, DAY) == "Trou Standings\n\nNo games have finished yet.\n"


def test_standings_rank_the_provisionals_with_ties_and_active_boards(players):
    run = players
    three_games(run)
    assert standings(run, DAY + timedelta(days=3)) == """Trou Standings

Provisionals
Rank  Name   Rating   Won  Lost  Ties  Active
   1  carol    1744     1     0     1       1
   2  alice    1632     1     1     0       1
   3  bob      1527     0     1     1       0
""" + DEFINITIONS


def test_players_without_boards_become_inactive_after_180_days_or_when_signed_off(players):
    run = players
    three_games(run)
    # bob's last game finished on day 1: inactive from day 181, under the alias `ratings`.
    assert "   3  bob      1527" in standings(run, DAY + timedelta(days=180, hours=23))
    assert standings(run, DAY + timedelta(days=181), "trou ratings") == """Trou Standings

Provisionals
Rank  Name   Rating   Won  Lost  Ties  Active
   1  carol    1744     1     0     1       1
   2  alice    1632     1     1     0       1

Inactive
Rank  Name   Rating   Won  Lost  Ties  Active
   1  bob      1527     0     1     1       0
""" + DEFINITIONS
    run(BOB, "signoff bob Hunter22")
    assert "Inactive\nRank  Name   Rating   Won  Lost  Ties  Active\n   1  bob      1527" in \
        standings(run, DAY + timedelta(days=3))


def test_established_players_rank_first_and_equal_ratings_share_a_rank(players):
    run = players
    seed(run, "alice", 1700, 20)
    seed(run, "bob", 1650, 10, 10)
    seed(run, "carol", 1650, 25, 5)
    play(run, "alice", "bob", ())
    play(run, "carol", "alice", ())
    # No game was tied: no Ties column.
    assert standings(run, DAY) == """Trou Standings

Established
Rank  Name   Rating   Won  Lost  Active
   1  alice    1700    20     0       2
   2  bob      1650    10    10       1
   2  carol    1650    25     5       1
""" + DEFINITIONS


# ----- history ------------------------------------------------------------------------------
def history(run, line: str) -> str:
    """The history page, a long reason that went on under its line (indented past the
    date and time, 'yyyy-mm-dd hh:mm  ') joined back onto it."""
    reply = one(run(STRANGER, line))
    assert reply.subject == "Trou History"
    assert max(len(line) for line in reply.body.splitlines()) <= 76
    return reply.body.replace("\n" + " " * 18, " ")


def test_history_lists_finished_boards_newest_first_and_never_declined_ones(players):
    run = players
    three_games(run)
    assert history(run, "trou history") == f"""Finished Trou games, newest first:

2024-03-03 12:00  103  carol  carol vs alice  3 moves  alice resigned.
2024-03-02 12:00  102  TIE    bob vs carol    8 moves  {TIE_REASON}
2024-03-01 12:00  101  alice  alice vs bob    8 moves  {RED_REASON}
"""
    assert history(run, "trou history BOB") == f"""Finished Trou games of bob, newest first:

2024-03-02 12:00  102  TIE    bob vs carol  8 moves  {TIE_REASON}
2024-03-01 12:00  101  alice  alice vs bob  8 moves  {RED_REASON}
"""


def test_history_tells_only_what_the_public_board_shows(players):
    run = players
    three_games(run)
    for line in history(run, "trou history").splitlines()[2:]:
        number, reason = line.split()[2], line.split("moves  ")[1]
        assert reason in one(run(STRANGER, f"trou show {number}")).body


def test_history_tells_the_time_of_day_and_keeps_the_year(players):
    """pbmserv's `Mon dd HH:MM`, with the year kept: a history runs over years."""
    run = players
    beat(run, "alice", "bob", datetime(2025, 12, 31, 23, 59))
    beat(run, "alice", "bob", datetime(2026, 1, 1, 0, 5))
    lines = history(run, "trou history").splitlines()[2:]
    assert [line[:21] for line in lines] == ["2026-01-01 00:05  102",
                                             "2025-12-31 23:59  101"]


def test_history_of_a_signed_off_player_and_of_nobody_yet(players):
    run = players
    assert history(run, "trou history") == "No Trou games have finished yet.\n"
    beat(run, "alice", "bob")
    assert history(run, "trou history carol") == "No Trou games of carol have finished yet.\n"
    run(BOB, "signoff bob Hunter22")
    assert "alice vs bob" in history(run, "trou history bob")


def test_history_comes_a_page_at_a_time(players, monkeypatch):
    run = players
    assert history_view.PAGE == 50
    monkeypatch.setattr(history_view, "PAGE", 2)  # three games make three pages of 2, not 150
    for day in range(3):
        beat(run, "alice", "bob", DAY + timedelta(days=day))
    first = history(run, "trou history alice")
    assert [line[:21] for line in first.splitlines()[2:4]] == ["2024-03-03 12:00  103",
                                                              "2024-03-02 12:00  102"]
    assert first.endswith("\n(2 of 3 shown; write 'trou history alice from 3' for the next.)\n")
    last = history(run, "trou history alice FROM 3")
    assert last.splitlines()[2][:21] == "2024-03-01 12:00  101"
    assert last.endswith("\n(game 3 of 3 shown.)\n")
    assert history(run, "trou history from 2").endswith(
        "\n(games 2 to 3 of 3 shown.)\n")
    assert history(run, "trou history alice from 4") == \
        "There are 3 finished Trou games of alice; 'trou history alice' lists the\nnewest.\n"


@pytest.mark.parametrize(("line", "message"), [
    ("trou history alice from x", "'from' needs a number of 1 or more."),
    ("trou history alice from 0", "'from' needs a number of 1 or more."),
    ("trou history alice from 99999999999999", "'from' needs a number of 1 or more."),
    ("trou history alice bob", "Name at most one player."),
    ("trou history dave", "There is no user 'dave'."),
    ("trou history alice bob from 2 3", "Too many words"),
])
def test_history_refusals(players, line, message):
    assert message in error(players(STRANGER, line)).body


# ----- rebuild ------------------------------------------------------------------------------
def series(run) -> None:
    """24 games: alice plays them all (established after 20), with wins, losses and ties,
    resignations, a declined board, and games finished by signing off."""
    for i in range(22):
        when = DAY + timedelta(days=i)
        if i % 3 == 0:
            beat(run, "alice", "bob", when)
        elif i % 3 == 1:
            play(run, "alice", "bob", BLACK_WINS, when)
        else:
            play(run, "carol", "alice", TIED, when)
    declined, _ = play(run, "alice", "carol", RED_WINS[:1])
    resign(run, "carol", declined)
    play(run, "alice", "bob", RED_WINS[:4])
    play(run, "carol", "alice", RED_WINS[:3])
    run(ALICE, "signoff alice Secret1")


def test_rebuild_replays_every_rated_game_to_the_stored_ratings(players):
    run = players
    series(run)
    assert record(run, "alice")[1:] == (8, 9, 7)  # won, lost (2 by signing off), tied
    with run.session() as session:  # the last games rated alice as established
        last = session.scalar(select(Board).where(Board.rating_seq.is_not(None))
                              .order_by(Board.rating_seq.desc()).limit(1))
        assert last.rating_changes[1][2] == 23
    with run.session() as session:
        assert rebuild(session) == []
        assert rebuild(session, "trou", fix=True) == []
    assert record(run, "alice")[1:] == (8, 9, 7)


def test_rebuild_finds_a_corrupted_rating_and_board_and_fixes_them(players):
    run = players
    series(run)
    alice, bob = record(run, "alice"), record(run, "bob")
    with run.session() as session:
        user_id = session.scalar(select(User.id).where(User.userid == "alice"))
        row = session.get_one(Rating, ("trou", user_id))
        row.rating, row.tied = row.rating + 7, row.tied - 1
    with run.session() as session:
        changes = session.get_one(Board, 105).rating_changes
        session.get_one(Board, 105).rating_changes = [changes[1], changes[0]]
        session.delete(session.get_one(Rating, ("trou", session.scalar(
            select(User.id).where(User.userid == "bob")))))
    with run.session() as session:
        found = rebuild(session)
    assert found == [
        f"board 105 (trou): changes stored {[changes[1], changes[0]]}, replayed {changes}",
        f"trou alice: stored {alice[0] + 7} (won 8, lost 9, tied 6), replayed {alice[0]} "
        "(won 8, lost 9, tied 7)",
        f"trou bob: stored no rating, replayed {bob[0]} (won {bob[1]}, lost {bob[2]}, "
        f"tied {bob[3]})",
    ]
    with run.session() as session:
        assert rebuild(session) == found  # reported, not written
        assert rebuild(session, fix=True) == found
    with run.session() as session:
        assert rebuild(session) == []
    assert (record(run, "alice"), record(run, "bob")) == (alice, bob)
