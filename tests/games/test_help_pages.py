"""Help pages: every game's page pinned word for word, and the [[figure]] template contract."""

from __future__ import annotations

import re

import pytest

from pbm.games import registry
from pbm.games.base import Game, HelpTemplateError, fill_figures

GAMES = registry.names()


@pytest.mark.parametrize("name", sorted(registry.BUILTIN))
def test_help_page_reads_as_pinned(name, golden):
    golden(f"help/{name}", registry.get(name).help_page())


@pytest.mark.parametrize("name", GAMES)
def test_every_mark_has_a_figure_and_every_figure_a_mark(name):
    game = registry.get(name)
    marks = set(re.findall(r"\[\[(.+?)\]\]", game.help_template()))
    assert marks == set(game.help_figures())
    page = game.help_page()  # raises HelpTemplateError on any mismatch
    assert "[[" not in page and "]]" not in page


@pytest.mark.parametrize("name", GAMES)
def test_no_game_fills_its_page_by_hand(name):
    assert type(registry.get(name)).help_page is Game.help_page


def test_a_figure_takes_the_marks_indentation_and_loses_trailing_blanks():
    page = fill_figures("Before:\n\n    [[board]]\n\nAfter.\n", {"board": "A B\n\n1 x  \n"}, "toy")
    assert page == "Before:\n\n    A B\n\n    1 x\n\nAfter.\n"


def test_a_mark_stands_alone_on_its_line():
    with pytest.raises(HelpTemplateError, match=r"\[\[board\]\] inside a line"):
        fill_figures("See [[board]] here.\n", {"board": "x"}, "toy")


def test_a_mark_without_a_figure_is_an_error():
    with pytest.raises(HelpTemplateError, match=r"marks \[\[board\]\] but has no such figure"):
        fill_figures("[[board]]\n", {}, "toy")


def test_a_figure_without_a_mark_is_an_error():
    with pytest.raises(HelpTemplateError, match=r"no mark for figure \[\[board\]\]"):
        fill_figures("No marks here.\n", {"board": "x"}, "toy")


def test_a_figure_may_contain_brackets_itself():
    assert fill_figures("[[f]]\n", {"f": "[[not a mark]]"}, "toy") == "[[not a mark]]\n"
