"""The source's eight Loophole figures, transcribed into tests/games/fixtures/."""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
FIGURES = range(1, 9)


def figure_rows(number: int) -> list[str]:
    """A source figure, transcribed with the collapsed window cells put back as '-'."""
    path = FIXTURES / f"loophole_fig{number}.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith(f"Figure {number}:")
    return lines[1:]


def figure_caption(number: int) -> str:
    """'Figure 8: Black wins (Loophole rules, Mark Steere 2008)'."""
    path = FIXTURES / f"loophole_fig{number}.txt"
    return path.read_text(encoding="utf-8").splitlines()[0]
