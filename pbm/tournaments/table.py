"""pbmserv's pool table in text: `Pool Name W L [T]` and the tie-break, within WIDTH columns.

Its own module (not standings.py): the arithmetic and its picture change for different
reasons, and the service layer may want the rows without the text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbm.tournaments.standings import Standing, Tiebreak
from pbm.width import WIDTH

GAP = "  "
CUT = "~"  # ends a name cut short: a userid is ASCII, so is the mark
MAX_POOL = 8  # a pool label is a number or a letter or two; nothing needs more


def number(value: float) -> str:
    """12 as 12, 12.5 as 12.5: Sonneborn-Berger has halves, most of it has none."""
    return str(int(value)) if value == int(value) else f"{value:.1f}"


def cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - len(CUT)] + CUT


def table(pools: Mapping[str, Sequence[Standing]], tiebreak: Tiebreak,
          width: int = WIDTH) -> str:
    """The pools' rows in the order given (each pool as `standings()` sorted it), pools
    apart by a blank line. The T column shows only when some row has a tie, as pbmserv's
    did; a name too long for `width` is cut and ends in CUT, so no line is wider."""
    rows = [(cut(label, MAX_POOL), row) for label, pool in pools.items() for row in pool]
    with_ties = any(row.ties for _, row in rows)
    headings = ["W", "L"] + (["T"] if with_ties else []) + [tiebreak.value]

    def counts(row: Standing) -> list[str]:
        return ([str(row.wins), str(row.losses)] + ([str(row.ties)] if with_ties else [])
                + [number(row.tiebreak(tiebreak))])

    figures = [counts(row) for _, row in rows]
    widths = [max([len(h)] + [len(f[i]) for f in figures]) for i, h in enumerate(headings)]
    pool_width = max([len("Pool")] + [len(label) for label, _ in rows])
    numbers_width = sum(len(GAP) + w for w in widths)
    name_room = width - pool_width - len(GAP) - numbers_width
    name_width = min(max([len("Name")] + [len(row.userid) for _, row in rows]), name_room)

    def line(pool: str, name: str, cells: list[str]) -> str:
        right = "".join(GAP + cell.rjust(w) for cell, w in zip(cells, widths))
        return (pool.ljust(pool_width) + GAP + cut(name, name_width).ljust(name_width)
                + right).rstrip()

    lines = [line("Pool", "Name", headings)]
    previous: str | None = None
    for (label, row), cells in zip(rows, figures):
        if previous is not None and label != previous:
            lines.append("")
        previous = label
        lines.append(line(label, row.userid, cells))
    return "\n".join(lines) + "\n"
