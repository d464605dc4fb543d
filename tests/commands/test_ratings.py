"""Ratings through the command layer: finished games rate both players, the final board mail
says how, `standings` ranks the players and `history` lists the finished boards."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import event, select

from pbm.context import Reply
from pbm.db.models import Rating, User
from tests.commands.conftest import (
    ACCOUNTS,
    ALICE,
    BOB,
    CAROL,
    PW,
    STRANGER,
    TROU_GAME,
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
    # The last rating_seq, the players' records, their rows written, the board's numbers.
    assert play_counts[1] - play_counts[0] <= 4, statements
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
