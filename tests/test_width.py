"""fit(): long lines of prose wrapped within the mail width, boards and tables left alone."""

from __future__ import annotations

from pbm.views.width import WIDTH, fit


def test_lines_that_fit_are_left_exactly_as_they_are():
    board = "  1 |   B | T W |\n    +-----+-----+\n\n" + "x" * WIDTH
    assert fit(board) == board


def test_a_long_line_is_wrapped_at_spaces_keeping_its_indentation():
    line = "  " + " ".join(["word"] * 40)
    wrapped = fit(line + "\nnext")
    lines = wrapped.splitlines()
    assert all(len(part) <= WIDTH and part.startswith("  word") for part in lines[:-1])
    assert " ".join(wrapped.split()) == " ".join((line + " next").split())
    assert lines[-1] == "next"


def test_a_word_longer_than_the_width_stays_whole():
    word = "y" * (WIDTH + 10)
    assert fit(f"see {word} here") == f"see\n{word}\nhere"
