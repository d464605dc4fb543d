"""The English helpers every game's messages share."""

from __future__ import annotations

import pytest

from pbm.games.text import and_list, number_word, or_list, plural


@pytest.mark.parametrize(
    "count, word, expected",
    [(0, "pawn", "0 pawns"), (1, "pawn", "1 pawn"), (2, "move", "2 moves"), (-1, "x", "-1 xs")],
)
def test_plural_adds_an_s_except_for_one(count, word, expected):
    assert plural(count, word) == expected


def test_plural_takes_an_irregular_form():
    assert plural(1, "person", "people") == "1 person"
    assert plural(3, "person", "people") == "3 people"


def test_number_words_for_small_counts_digits_beyond():
    assert [number_word(n) for n in (0, 1, 2, 7, 10)] == ["no", "one", "two", "seven", "ten"]
    assert number_word(11) == "11"
    assert number_word(-1) == "-1"


@pytest.mark.parametrize(
    "items, anded, ored",
    [
        ([], "", ""),
        (["A1"], "A1", "A1"),
        (["A1", "B2"], "A1 and B2", "A1 or B2"),
        (["A1", "B2", "C3"], "A1, B2 and C3", "A1, B2 or C3"),
        ((1, 2, 3, 4), "1, 2, 3 and 4", "1, 2, 3 or 4"),
    ],
)
def test_lists_join_with_commas_and_the_last_with_a_word(items, anded, ored):
    assert and_list(items) == anded
    assert or_list(items) == ored


def test_lists_take_any_iterable_once():
    assert and_list(str(n) for n in range(3)) == "0, 1 and 2"
