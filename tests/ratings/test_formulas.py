"""pbmserv's rating formulas, checked against values worked out by hand."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbm.ratings.formulas import LOSS, TIE, WIN, c_div, is_provisional, new_rating, rate_game


# ----- C division --------------------------------------------------------------------------
def test_c_division_truncates_toward_zero():
    assert c_div(7, 2) == 3
    assert c_div(-7, 2) == -3  # Python's -7 // 2 is -4
    assert c_div(7, -2) == -3
    assert c_div(-7, -2) == 3
    assert c_div(-80, 5) == -16


@given(st.integers(-10**9, 10**9), st.integers(-10**6, 10**6).filter(bool))
def test_c_division_is_the_truncated_quotient(a, b):
    assert c_div(a, b) == math.trunc(Fraction(a, b))


# ----- provisional players -----------------------------------------------------------------
def test_two_newcomers_first_game():
    # value = (1600 + 1600) / 2 + 200 * outcome; new = value / 1 + (1720 - 1600) / 5 (= 24)
    assert rate_game((1600, 0), (1600, 0), WIN) == (1824, 1424)
    assert rate_game((1600, 0), (1600, 0), LOSS) == (1424, 1824)
    assert rate_game((1600, 0), (1600, 0), TIE) == (1624, 1624)


def test_provisional_against_established():
    # value = 1700 + 400 = 2100; (1600 * 5 + 2100) / 6 = 1683; + 24 = 1707
    assert new_rating(1600, 5, 1700, 30, WIN) == 1707
    # value = 1700 - 400 = 1300; (8000 + 1300) / 6 = 1550; + 24 = 1574
    assert new_rating(1600, 5, 1700, 30, LOSS) == 1574
    # value = 1700; 9700 / 6 = 1616; + 24 = 1640
    assert new_rating(1600, 5, 1700, 30, TIE) == 1640


def test_provisional_above_1720_truncates_toward_zero():
    # value = 3503 / 2 - 200 = 1551; (1803 * 3 + 1551) / 4 = 6960 / 4 = 1740;
    # (1720 - 1803) / 5 = -83 / 5 = -16 in C (floor division would say -17)
    assert new_rating(1803, 3, 1700, 3, LOSS) == 1724


def test_the_twentieth_game_is_still_rated_as_provisional():
    assert is_provisional(19) and not is_provisional(20)
    # g1 = 19: value = (1600 + 1600) / 2 + 200 = 1800; (1600 * 19 + 1800) / 20 = 1610; + 24
    assert new_rating(1600, 19, 1600, 0, WIN) == 1634


# ----- established players -----------------------------------------------------------------
def test_established_against_established():
    assert rate_game((1600, 20), (1600, 40), WIN) == (1616, 1584)
    assert rate_game((1600, 20), (1600, 40), TIE) == (1600, 1600)
    # 1500 against 1700: expected 1 / (1 + 10 ** 0.5) = 0.24025;
    # win: 32 * 0.75975 = 24.31 -> +24; loss: 32 * -0.24025 = -7.69 -> -7 (not -8)
    assert new_rating(1500, 30, 1700, 30, WIN) == 1524
    assert new_rating(1500, 30, 1700, 30, LOSS) == 1493
    # draw: 32 * 0.25975 = 8.31 -> +8
    assert new_rating(1500, 30, 1700, 30, TIE) == 1508


def test_established_against_provisional_scales_k_by_the_opponents_games():
    # K = 32 * 10 / 20 = 16; expected for 1700 against 1600 = 1 / (1 + 10 ** -0.25) = 0.64007
    # win: 16 * 0.35993 = 5.76 -> +5; loss: 16 * -0.64007 = -10.24 -> -10 (floor: -11)
    assert new_rating(1700, 25, 1600, 10, WIN) == 1705
    assert new_rating(1700, 25, 1600, 10, LOSS) == 1690
    # K = 32 * 5 / 20 = 8, a real 8: 8 * -0.64007 = -5.12 -> -5
    assert new_rating(1700, 30, 1600, 5, LOSS) == 1695


def test_established_against_a_players_first_game_does_not_move():
    # K = 32 * 0 / 20 = 0
    assert new_rating(1800, 50, 1600, 0, WIN) == 1800
    assert new_rating(1800, 50, 1600, 0, LOSS) == 1800


def test_both_ratings_come_from_before_the_game():
    # The provisional winner of the example above, and the established loser.
    assert rate_game((1600, 5), (1700, 30), WIN) == (1707, 1695)


def test_an_outcome_other_than_win_tie_or_loss_is_refused():
    with pytest.raises(ValueError):
        new_rating(1600, 0, 1600, 0, 2)


# ----- properties ---------------------------------------------------------------------------
ratings = st.integers(100, 3200)
games = st.integers(0, 500)
results = st.sampled_from([WIN, TIE, LOSS])


@given(ratings, games, ratings, games)
def test_winning_never_rates_lower_than_a_tie_nor_a_tie_than_a_loss(r1, g1, r2, g2):
    win, tie, loss = (new_rating(r1, g1, r2, g2, o) for o in (WIN, TIE, LOSS))
    assert win >= tie >= loss


@given(ratings, st.integers(20, 500), ratings, games, results)
def test_an_established_rating_moves_at_most_k(r1, g1, r2, g2, outcome):
    assert abs(new_rating(r1, g1, r2, g2, outcome) - r1) <= 32


@given(ratings, st.integers(20, 500), ratings, st.integers(20, 500), results)
def test_between_established_players_one_gains_what_the_other_loses(r1, g1, r2, g2, outcome):
    first, second = rate_game((r1, g1), (r2, g2), outcome)
    # Each change is truncated on its own; the expected scores sum to 1 up to rounding.
    assert abs((first - r1) + (second - r2)) <= 1
