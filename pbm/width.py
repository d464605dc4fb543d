"""Mail text within WIDTH columns: mail clients rewrap longer lines and tear tables apart."""

from __future__ import annotations

import textwrap

WIDTH = 76


def fit(text: str, width: int = WIDTH, hang: int = 0) -> str:
    """`text` with each line longer than `width` wrapped at its spaces, the lines it gives
    indented as it was (and `hang` columns more: a table row's continuation under its
    column); lines that fit (boards, tables) are left exactly as they are.

    A single word longer than `width` stays whole: cutting it would change what it says;
    for the same reason tabs are not expanded, and spaces are kept except where a line
    breaks.
    """
    lines: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))]
        lines += textwrap.wrap(line[len(indent):], width, initial_indent=indent,
                               subsequent_indent=indent + " " * hang,
                               break_long_words=False, break_on_hyphens=False,
                               expand_tabs=False, replace_whitespace=False) or [line]
    return "\n".join(lines)
