"""Knockout brackets: seeding, byes and the replay of a draw."""

from __future__ import annotations

import pytest

from pbm.tournaments.knockout import (
    Decision,
    Match,
    decide,
    first_round,
    next_round,
    rounds,
    seed_order,
    seeds,
)
from pbm.tournaments.results import Pairing, Result


def field(count: int) -> dict[str, float]:
    return {f"s{index}": 2000.0 - 10 * index for index in range(1, count + 1)}


def test_standard_seeding_keeps_the_top_two_apart_until_the_final():
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    for size in (2, 4, 8, 16, 32):
        order = seed_order(size)
        assert sorted(order) == list(range(1, size + 1))
        half = size // 2
        assert (1 in order[:half]) != (2 in order[:half])
        # each round-1 pair adds up to size + 1
        assert all(order[k] + order[k + 1] == size + 1 for k in range(0, size, 2))


def test_seeds_are_by_rating():
    assert seeds({"low": 1200.0, "high": 1800.0, "mid": 1500.0}) == ["high", "mid", "low"]


def test_eight_players_to_the_end_with_a_drawn_quarter_final_replayed():
    seeded = seeds(field(8))
    matches = first_round(seeded)
    assert matches == [Match("s1", "s8"), Match("s4", "s5"), Match("s2", "s7"),
                       Match("s3", "s6")]
    assert rounds(8) == 3
    # The higher seed has seat 0 in the first game.
    assert decide(matches[1], []) == Decision(game=Pairing("s4", "s5"))
    results = [Result("s1", "s8", "s1", round=1), Result("s4", "s5", None, round=1),
               Result("s2", "s7", "s7", round=1), Result("s3", "s6", "s3", round=1)]
    # s4 v s5 was drawn: replayed once with the seats swapped.
    assert decide(matches[1], results) == Decision(game=Pairing("s5", "s4"))
    with pytest.raises(ValueError, match="not decided"):
        next_round(matches, results, seeded)
    results.append(Result("s5", "s4", "s5", round=2))
    semis = next_round(matches, results, seeded)
    assert semis == [Match("s1", "s5"), Match("s3", "s7")]  # s7 beat s2; s3 is the higher
    results += [Result("s1", "s5", "s5", round=3), Result("s3", "s7", "s3", round=3)]
    final = next_round(semis, results, seeded)
    assert final == [Match("s3", "s5")]
    results.append(Result("s3", "s5", "s3", round=4))
    assert decide(final[0], results) == Decision(advances="s3")
    assert next_round(final, results, seeded) == []


def test_six_players_give_byes_to_the_top_two_seeds():
    seeded = seeds(field(6))
    matches = first_round(seeded)
    assert matches == [Match("s1"), Match("s4", "s5"), Match("s2"), Match("s3", "s6")]
    assert rounds(6) == 3
    assert decide(matches[0], []) == Decision(advances="s1")
    results = [Result("s4", "s5", "s4"), Result("s3", "s6", "s6", forfeit=True)]
    assert next_round(matches, results, seeded) == [Match("s1", "s4"), Match("s2", "s6")]


def test_a_replay_drawn_too_sends_the_higher_seed_through():
    match = Match("s2", "s7")
    results = [Result("s2", "s7", round=1), Result("s7", "s2", round=2)]
    assert decide(match, results) == Decision(advances="s2")


def test_a_double_forfeit_counts_as_a_draw():
    match = Match("s2", "s7")
    first = [Result("s2", "s7", None, forfeit=True, round=1)]
    assert decide(match, first) == Decision(game=Pairing("s7", "s2"))


def test_other_matches_results_do_not_confuse_a_match():
    match = Match("s1", "s8")
    noise = [Result("s4", "s5", "s4"), Result("s1", "s4", "s4", round=9)]
    assert decide(match, noise) == Decision(game=Pairing("s1", "s8"))


def test_a_knockout_needs_two_players():
    with pytest.raises(ValueError):
        first_round(["alone"])
