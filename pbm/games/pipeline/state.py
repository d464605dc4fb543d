"""Pipeline's moves and game state: immutable values that the rule module passes around."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum
from typing import Any

from pbm.games.pipeline.flow import PAWN_COUNTS, Colour, Pipe, Reading

SEATS = ("Head", "Tail")


class Phase(Enum):
    """Where the game stands; it follows from the state, so it is never stored."""

    HEAD_COIN = "head coin"
    TAIL_COIN = "tail coin"
    PIPES = "pipes"
    PLAY = "play"
    OVER = "over"


# ----- moves ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlaceCoin:
    """The head coin (Head's first move) or the tail coin (Tail's)."""

    cell: str


@dataclass(frozen=True)
class SubmitPipe:
    """A secret pipeline with its holes."""

    pipe: Pipe


@dataclass(frozen=True)
class Step:
    """One pawn of a probe: from the supply (source None) or from a square, to a square."""

    colour: Colour
    source: str | None
    target: str

    def notation(self) -> str:
        if self.source is None:
            return f"{self.colour.value}@{self.target}"
        return f"{self.source}-{self.target}"


@dataclass(frozen=True)
class Probe:
    """Two pawns moved at once."""

    steps: tuple[Step, Step]


@dataclass(frozen=True)
class Guess:
    """Three squares named as the opponent's holes, kept sorted."""

    cells: tuple[str, ...]


Move = PlaceCoin | SubmitPipe | Probe | Guess


# ----- state ---------------------------------------------------------------------------------

PipeReadings = tuple[tuple[str, Reading], ...]


@dataclass(frozen=True)
class ProbeEntry:
    """A probe in the public log with what it revealed on (Head's, Tail's) pipeline."""

    seat: int
    probe: Probe
    readings: tuple[PipeReadings, PipeReadings]


@dataclass(frozen=True)
class GuessEntry:
    """A guess in the public log: only whether it was right is ever told."""

    seat: int
    guess: Guess
    right: bool


Entry = ProbeEntry | GuessEntry


@dataclass(frozen=True)
class State:
    """A whole game. Pawns are (square, colour) pairs sorted by square, so states compare."""

    head: str | None = None
    tail: str | None = None
    pipes: tuple[Pipe | None, Pipe | None] = (None, None)
    pawns: tuple[tuple[str, Colour], ...] = ()
    turn: int = 0
    wrong: tuple[int, int] = (0, 0)
    owed: tuple[int, int] = (0, 0)
    log: tuple[Entry, ...] = ()
    winner: int | None = None
    # Ended by a resignation (not by the rules): the pipelines are revealed as at any end.
    concluded: bool = False

    @property
    def phase(self) -> Phase:
        return phase_of(self.winner is not None or self.concluded, self.head, self.tail,
                        None not in self.pipes)

    @property
    def board(self) -> dict[str, Colour]:
        return dict(self.pawns)

    def supply(self) -> Counter[Colour]:
        """How many pawns of each colour are still off the board."""
        left = Counter(PAWN_COUNTS)
        left.subtract(colour for _, colour in self.pawns)
        return left

    def last_readings(self) -> tuple[PipeReadings, PipeReadings] | None:
        """The readings of the latest probe: they stand until the pawns move again."""
        for entry in reversed(self.log):
            if isinstance(entry, ProbeEntry):
                return entry.readings
        return None


def set_seat(pair: tuple[Any, Any], seat: int, value: Any) -> tuple[Any, Any]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def phase_of(over: bool, head: object, tail: object, pipes_sent: bool) -> Phase:
    """The step a game is at: what a State and a seat's view (seats.py) both know."""
    if over:
        return Phase.OVER
    if head is None:
        return Phase.HEAD_COIN
    if tail is None:
        return Phase.TAIL_COIN
    return Phase.PLAY if pipes_sent else Phase.PIPES
