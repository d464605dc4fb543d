"""Standings and the pool table, checked against tables worked out by hand."""

from __future__ import annotations

import pytest

from pbm.tournaments.results import Result
from pbm.tournaments.standings import Tiebreak, points, standings
from pbm.tournaments.table import table
from pbm.width import WIDTH

# A 6-player round robin, all 15 games (winner named, or a draw):
#   a-b a   a-c a   a-d a   a-e draw  a-f a
#   b-c draw  b-d b   b-e b   b-f f
#   c-d c   c-e draw  c-f c
#   d-e e   d-f draw
#   e-f e
ROUND_ROBIN = [
    Result("a", "b", "a"), Result("a", "c", "a"), Result("a", "d", "a"), Result("a", "e"),
    Result("a", "f", "a"), Result("b", "c"), Result("b", "d", "b"), Result("b", "e", "b"),
    Result("b", "f", "f"), Result("c", "d", "c"), Result("c", "e"), Result("c", "f", "c"),
    Result("d", "e", "e"), Result("d", "f"), Result("e", "f", "e"),
]
EVEN = {player: 1500.0 for player in "abcdef"}

# By hand, points = 2W + T:
#   a W4 L0 T1 = 9   b W2 L2 T1 = 5   c W2 L1 T2 = 6
#   d W0 L4 T1 = 1   e W2 L1 T2 = 6   f W1 L3 T1 = 3          (sum 30 = 15 games x 2)
# Sonneborn-Berger = points of those beaten + half the points of those drawn:
#   a beat b5 c6 d1 f3 = 15, drew e6 -> 3      = 18
#   b beat d1 e6 = 7, drew c6 -> 3             = 10
#   c beat d1 f3 = 4, drew b5 e6 -> 5.5        = 9.5
#   d beat nobody, drew f3 -> 1.5              = 1.5
#   e beat d1 f3 = 4, drew a9 c6 -> 7.5        = 11.5
#   f beat b5 = 5, drew d1 -> 0.5              = 5.5
# c and e both have 6: e's SB 11.5 beats c's 9.5.
# Buchholz = everyone's points but one's own (30 - own) in a full round robin.
HAND = [  # userid, W, L, T, points, SB, Buchholz
    ("a", 4, 0, 1, 9, 18.0, 21),
    ("e", 2, 1, 2, 6, 11.5, 24),
    ("c", 2, 1, 2, 6, 9.5, 24),
    ("b", 2, 2, 1, 5, 10.0, 25),
    ("f", 1, 3, 1, 3, 5.5, 27),
    ("d", 0, 4, 1, 1, 1.5, 29),
]


def test_a_six_player_round_robin_matches_the_table_worked_by_hand():
    rows = standings(ROUND_ROBIN, EVEN, Tiebreak.SONNEBORN_BERGER)
    assert [(r.userid, r.wins, r.losses, r.ties, r.points, r.sonneborn_berger, r.buchholz)
            for r in rows] == HAND


def test_its_pool_table_has_pbmservs_columns_and_the_tie_break():
    rows = standings(ROUND_ROBIN, EVEN, Tiebreak.SONNEBORN_BERGER)
    assert table({"1": rows}, Tiebreak.SONNEBORN_BERGER) == (
        "Pool  Name  W  L  T    SB\n"
        "1     a     4  0  1    18\n"
        "1     e     2  1  2  11.5\n"
        "1     c     2  1  2   9.5\n"
        "1     b     2  2  1    10\n"
        "1     f     1  3  1   5.5\n"
        "1     d     0  4  1   1.5\n"
    )


def test_ties_on_points_and_tie_break_go_to_the_higher_rating_then_the_userid():
    results = [Result("x", "y"), Result("z", "w")]
    ratings = {"x": 1400.0, "y": 1600.0, "z": 1500.0, "w": 1500.0}
    rows = standings(results, ratings, Tiebreak.BUCHHOLZ)
    assert [r.userid for r in rows] == ["y", "w", "z", "x"]


def test_a_bye_is_a_win_whose_buchholz_is_the_players_own_points():
    # Swiss, 3 players, 2 rounds. Round 1: p beats q, r has the bye.
    # Round 2: r beats p, q has the bye.
    results = [Result("p", "q", "p", round=1), Result.bye("r", round=1),
               Result("r", "p", "r", round=2), Result.bye("q", round=2)]
    rows = {r.userid: r for r in standings(results, dict.fromkeys("pqr", 1500.0),
                                           Tiebreak.BUCHHOLZ)}
    # points: p 2, q 2 (the bye), r 4 (the bye and the win)
    assert {u: row.points for u, row in rows.items()} == {"p": 2, "q": 2, "r": 4}
    # Buchholz: p met q (2) and r (4) = 6; q met p (2) plus its own 2 for the bye = 4;
    # r met p (2) plus its own 4 for the bye = 6
    assert {u: row.buchholz for u, row in rows.items()} == {"p": 6, "q": 4, "r": 6}
    # Sonneborn-Berger: the bye beats nobody: p beat q (2); q nobody; r beat p (2)
    assert {u: row.sonneborn_berger for u, row in rows.items()} == {"p": 2, "q": 0, "r": 2}
    assert rows["r"].wins == 2 and rows["q"].wins == 1


def test_forfeits_count_as_results_and_a_double_forfeit_is_a_loss_for_both():
    results = [Result("p", "q", "p", forfeit=True), Result("r", "s", None, forfeit=True)]
    assert points(results) == {"p": 2, "q": 0, "r": 0, "s": 0}
    rows = {r.userid: r for r in standings(results, {}, Tiebreak.BUCHHOLZ)}
    assert (rows["r"].losses, rows["s"].losses, rows["r"].ties) == (1, 1, 0)


def test_players_without_a_result_still_have_a_row():
    rows = standings([], {"late": 1200.0}, Tiebreak.BUCHHOLZ)
    assert [(r.userid, r.points) for r in rows] == [("late", 0)]


def test_the_t_column_shows_only_when_some_game_was_tied():
    rows = standings([Result("a", "b", "a")], {}, Tiebreak.BUCHHOLZ)
    assert table({"1": rows}, Tiebreak.BUCHHOLZ) == (
        "Pool  Name  W  L  Buch\n"
        "1     a     1  0     0\n"
        "1     b     0  1     2\n"
    )


def test_pools_are_apart_and_long_names_are_cut_within_the_width():
    long = "x" * 120
    pools = {
        "1": standings([Result(long, "b", long)], {}, Tiebreak.SONNEBORN_BERGER),
        "2": standings([Result("c", "d")], {}, Tiebreak.SONNEBORN_BERGER),
    }
    text = table(pools, Tiebreak.SONNEBORN_BERGER)
    lines = text.splitlines()
    assert max(len(line) for line in lines) == WIDTH
    assert lines[1].startswith("1     xxxx") and "~" in lines[1]
    assert lines[3] == "" and lines[4].startswith("2     ")
    assert [line.split()[-4:] for line in lines[1:3]] == [["1", "0", "0", "0"],
                                                          ["0", "1", "0", "0"]]


def test_a_result_names_only_its_own_players():
    with pytest.raises(ValueError):
        Result("a", "b", "c")
    with pytest.raises(ValueError):
        Result("a", "a")
    with pytest.raises(ValueError):
        Result("a", None, "b")
