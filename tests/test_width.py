"""fit(): long lines of prose wrapped within the mail width, boards and tables left alone."""

from __future__ import annotations

from pbm.width import WIDTH, fit


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


def test_quoted_words_and_hyphens_are_never_broken():
    words = ["'B@C3,W@A1'", "A2-B3*-C3", "`+C7h/C8`", "(guess A2,B3,C4)."] * 6
    wrapped = fit(" ".join(words))
    assert all(len(line) <= WIDTH for line in wrapped.splitlines())
    assert wrapped.replace("\n", " ") == " ".join(words)


def test_tabs_and_spaces_within_a_line_stay():
    text = "a\tb   c " + "word " * 20
    assert fit(text).splitlines()[0].startswith("a\tb   c word")


def test_a_table_row_goes_on_under_its_column():
    row = "  101  " + "alice (Head), carol (Tail)  It is alice's and carol's turn, " * 2
    lines = fit(row, hang=5).splitlines()
    assert lines[0].startswith("  101  alice") and len(lines) > 1
    assert all(line.startswith(" " * 7) and line[7] != " " for line in lines[1:])


def test_fitting_twice_changes_nothing():
    text = "  " + " ".join(["word"] * 40) + " " + "z" * 90 + "\n" + "x " * 60
    assert fit(fit(text)) == fit(text)
