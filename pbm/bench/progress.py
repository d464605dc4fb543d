"""How a bench says what it is doing as it goes: a line at a time, to whoever listens."""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[str], None]  # the CLI passes one writing to standard error


def quiet(_line: str) -> None:
    """No listener: the figures alone."""
