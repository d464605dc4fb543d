"""What a Pipeline seat may know (its view), and the opponent secrets consistent with it.

A seat knows the coins, its own pipeline, that the opponent has sent one, the pawns, whose
turn it is, both players' wrong guesses and probes owed, and the public log: every probe
with its readings on BOTH pipelines, every guess with only "right" or "wrong". It never
knows the opponent's pipeline or holes until the game is over (render and move_text show
no more). The opponent secrets consistent with a view are those on which every probe of
the log reads exactly as it did, and whose holes are none of the seat's wrong guesses.

There are at most 23,100 secrets (path and holes) between two coins (A1-D1 and the like;
7,952 between the centre squares B2-C3), so they are enumerated once per pair of coins and
filtered by the probes with bit masks: a secret's liquid is, per square, the mask of
squares a source there reaches, so a whole probe is read with a few ORs and ANDs.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from pbm.games.pipeline.flow import CELLS, HOLES, Colour, Pipe, Reading, all_paths
from pbm.games.pipeline.state import (
    Entry,
    GuessEntry,
    Phase,
    PipeReadings,
    Probe,
    ProbeEntry,
    State,
    phase_of,
    set_seat,
)

BIT = {cell: 1 << i for i, cell in enumerate(CELLS)}
INDEX = {cell: i for i, cell in enumerate(CELLS)}


@dataclass(frozen=True)
class PipelineView:
    """All that `seat` may know of a Pipeline game: plain values, never the state.

    `other` (the opponent's pipeline) is None while the game runs; `other_sent` says
    whether it has been sent, which both players are told."""

    seat: int
    head: str | None
    tail: str | None
    own: Pipe | None
    other_sent: bool
    other: Pipe | None
    pawns: tuple[tuple[str, Colour], ...]
    turn: int
    wrong: tuple[int, int]
    owed: tuple[int, int]
    log: tuple[Entry, ...]
    winner: int | None
    concluded: bool

    @property
    def phase(self) -> Phase:
        return phase_of(self.winner is not None or self.concluded, self.head, self.tail,
                        self.own is not None and self.other_sent)

    def as_state(self, other: Pipe | None) -> State:
        """The whole state this view and the opponent pipeline `other` make."""
        pipes: tuple[Pipe | None, Pipe | None] = set_seat((None, None), self.seat, self.own)
        pipes = set_seat(pipes, 1 - self.seat, other)
        return State(
            head=self.head,
            tail=self.tail,
            pipes=pipes,
            pawns=self.pawns,
            turn=self.turn,
            wrong=self.wrong,
            owed=self.owed,
            log=self.log,
            winner=self.winner,
            concluded=self.concluded,
        )


def seat_view(state: State, seat: int) -> PipelineView:
    other = state.pipes[1 - seat]
    return PipelineView(
        seat=seat,
        head=state.head,
        tail=state.tail,
        own=state.pipes[seat],
        other_sent=other is not None,
        other=other if state.phase is Phase.OVER else None,
        pawns=state.pawns,
        turn=state.turn,
        wrong=state.wrong,
        owed=state.owed,
        log=state.log,
        winner=state.winner,
        concluded=state.concluded,
    )


def sample_state(view: PipelineView, rng: random.Random) -> State:
    """A whole state with the view's seat's knowledge: the opponent's pipeline drawn
    uniformly (exactly) among the secrets consistent with the view."""
    if view.other is not None or not view.other_sent:
        return view.as_state(view.other)
    assert view.head is not None and view.tail is not None
    found = consistent(view.head, view.tail, view.log, 1 - view.seat)
    if not found:
        # Only a view no real game gives (readings no pipeline can make) comes here.
        raise ValueError("no opponent pipeline agrees with this view's probes and guesses")
    return view.as_state(rng.choice(found).pipe)


# ----- secrets as bit masks ------------------------------------------------------------------


@dataclass(frozen=True)
class Secret:
    """One pipeline and its holes, with the masks that read a probe on it quickly."""

    pipe: Pipe
    holes: tuple[str, ...]  # sorted, as a guess names them
    mask: int  # the squares of the path
    reach: tuple[int, ...]  # per square (CELLS order): where liquid poured there goes

    def key(self, blue: Iterable[str], yellow: Iterable[str], white: int) -> int:
        """What the white pawns `white` (a mask) read on this secret, as one number: the
        same number exactly when every white pawn reads the same."""
        reach = self.reach
        b = y = 0
        for cell in blue:
            b |= reach[INDEX[cell]]
        for cell in yellow:
            y |= reach[INDEX[cell]]
        return (self.mask & white) | (b & white) << 16 | (y & white) << 32


def make_secret(pipe: Pipe) -> Secret:
    reach = [0] * len(CELLS)
    flowing = 0
    for cell in reversed(pipe.path):
        if cell in pipe.holes:
            flowing = 0  # nothing gets past a hole
        flowing |= BIT[cell]
        reach[INDEX[cell]] = flowing
    mask = sum(BIT[cell] for cell in pipe.path)
    return Secret(pipe, tuple(sorted(pipe.holes)), mask, tuple(reach))


@lru_cache(maxsize=8)
def all_secrets(head: str, tail: str) -> tuple[Secret, ...]:
    """Every valid pipeline with its holes between these coins."""
    return tuple(
        make_secret(Pipe(path, frozenset(holes)))
        for path in all_paths(head, tail)
        for holes in combinations(path[1:-1], HOLES)
    )


@dataclass(frozen=True)
class Board:
    """A probe's pawns as the masks a Secret reads."""

    blue: tuple[str, ...]
    yellow: tuple[str, ...]
    white: int

    @staticmethod
    def of(pawns: Mapping[str, Colour]) -> Board:
        return Board(
            tuple(cell for cell, colour in pawns.items() if colour is Colour.BLUE),
            tuple(cell for cell, colour in pawns.items() if colour is Colour.YELLOW),
            sum(BIT[cell] for cell, colour in pawns.items() if colour is Colour.WHITE),
        )

    def key(self, secret: Secret) -> int:
        return secret.key(self.blue, self.yellow, self.white)


def reading_key(readings: PipeReadings) -> int:
    """The key (Secret.key) of readings as the log tells them."""
    on = b = y = 0
    for cell, reading in readings:
        bit = BIT[cell]
        if reading is not Reading.MISS:
            on |= bit
        if reading in (Reading.BLUE, Reading.GREEN):
            b |= bit
        if reading in (Reading.YELLOW, Reading.GREEN):
            y |= bit
    return on | b << 16 | y << 32


def after(pawns: Mapping[str, Colour], probe: Probe) -> dict[str, Colour]:
    """The pawns once the probe's two moves are made (both at the same moment)."""
    board = dict(pawns)
    for step in probe.steps:
        if step.source is not None:
            del board[step.source]
    for step in probe.steps:
        board[step.target] = step.colour
    return board


Constraint = tuple[Board, int]  # a probe's pawns, and the key its readings gave


def constraints(log: Sequence[Entry], pipe_seat: int) -> tuple[Constraint, ...]:
    """What every probe of the log tells of the pipeline of `pipe_seat`."""
    found: list[Constraint] = []
    pawns: dict[str, Colour] = {}
    for entry in log:
        if isinstance(entry, ProbeEntry):
            pawns = after(pawns, entry.probe)
            found.append((Board.of(pawns), reading_key(entry.readings[pipe_seat])))
    return tuple(found)


def wrong_guesses(log: Sequence[Entry], pipe_seat: int) -> frozenset[tuple[str, ...]]:
    """The hole sets the other player guessed wrongly on the pipeline of `pipe_seat`."""
    return frozenset(
        entry.guess.cells
        for entry in log
        if isinstance(entry, GuessEntry) and entry.seat != pipe_seat and not entry.right
    )


def consistent(head: str, tail: str, log: Sequence[Entry], pipe_seat: int) -> list[Secret]:
    """The secrets the pipeline of `pipe_seat` may be, to anyone who has seen the log."""
    excluded = wrong_guesses(log, pipe_seat)
    found = _filtered(head, tail, constraints(log, pipe_seat))
    return [secret for secret in found if secret.holes not in excluded]


@lru_cache(maxsize=256)
def _filtered(head: str, tail: str, known: tuple[Constraint, ...]) -> tuple[Secret, ...]:
    # Each prefix of a game's probes is cached, so a later move filters only the new ones.
    if not known:
        return all_secrets(head, tail)
    *before, (board, key) = known
    return tuple(s for s in _filtered(head, tail, tuple(before)) if board.key(s) == key)
