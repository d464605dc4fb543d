"""Round-robin pools and schedules."""

from __future__ import annotations

from itertools import combinations

import pytest

from pbm.tournaments.roundrobin import pools, schedule


def field(count: int) -> dict[str, float]:
    return {f"p{index:02d}": 2000.0 - 10 * index for index in range(count)}


def test_eleven_players_in_pools_of_ten_make_six_and_five_by_rating():
    divisions = pools(field(11), 10)
    assert [len(d) for d in divisions] == [6, 5]
    assert divisions[0] == [f"p{i:02d}" for i in range(6)]  # the best six


@pytest.mark.parametrize(("count", "size", "sizes"), [
    (10, 10, [10]), (25, 10, [9, 8, 8]), (21, 10, [7, 7, 7]), (3, 2, [2, 1]), (0, 10, []),
])
def test_pools_are_as_even_as_can_be(count, size, sizes):
    assert [len(d) for d in pools(field(count), size)] == sizes


def test_equal_ratings_are_ordered_by_userid():
    assert pools({"b": 1.0, "a": 1.0, "c": 2.0}, 10) == [["c", "a", "b"]]


@pytest.mark.parametrize("count", range(2, 15))
def test_every_pair_meets_once_with_seats_balanced(count):
    players = [f"p{index:02d}" for index in range(count)]
    rounds = schedule(players)
    assert len(rounds) == (count if count % 2 else count - 1)
    met = [frozenset(b.players()) for r in rounds for b in r if b.black is not None]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in combinations(players, 2)), key=sorted)
    seats: dict[str, str] = dict.fromkeys(players, "")
    for boards in rounds:
        assert sorted(p for b in boards for p in b.players()) == players  # all, once
        assert sum(b.black is None for b in boards) == count % 2
        for board in boards:
            if board.black is None:
                seats[board.white] += "-"
            else:
                seats[board.white] += "0"
                seats[board.black] += "1"
    for history in seats.values():
        zeros, ones = history.count("0"), history.count("1")
        assert abs(zeros - ones) <= 1, history
        assert "000" not in history and "111" not in history, history


def test_an_odd_pool_rests_each_player_once():
    rounds = schedule(["a", "b", "c", "d", "e"])
    rests = [b.white for r in rounds for b in r if b.black is None]
    assert sorted(rests) == ["a", "b", "c", "d", "e"]


def test_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError):
        schedule(["a", "b", "a"])
