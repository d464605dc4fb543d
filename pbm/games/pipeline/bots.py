"""Pipeline's own bots: deduction over every opponent secret the public readings allow.

A bot sees only its seat's view (seats.PipelineView). It keeps the set of opponent secrets
(path and holes) on which every probe so far read as it did, all of them enumerated. Its
probe is the one, among a sample of its legal probes, whose readings would tell it most
about the opponent's holes (mutual information over a sample of the consistent secrets);
it guesses the likeliest hole set once that is likely enough. `best` also weighs what a
probe tells the opponent about its own pipeline (it knows exactly what that probe will
read there, and what the opponent can have deduced from the public log) and guesses
sooner when the opponent is close to finding its holes.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pbm.games.base import AnyGame, UserError
from pbm.games.pipeline.flow import CELLS, Colour
from pbm.games.pipeline.seats import (
    Board,
    PipelineView,
    Secret,
    after,
    all_secrets,
    consistent,
    make_secret,
)
from pbm.games.pipeline.state import Guess, Move, Phase, PlaceCoin, Probe, State, SubmitPipe

INFO_FLOOR = 0.5


@dataclass(frozen=True)
class DeductionBot:
    """Probes for information and guesses when sure enough; its budget is `samples`
    opponent secrets weighed against each of `probes` candidate probes a move."""

    strength: str
    samples: int
    probes: int
    # best: count what a probe tells the opponent, guess sooner when they are close, and
    # send a pipeline whose holes few pipelines share.
    wary: bool = False
    # Bits the opponent learns of our holes, against one bit we learn of theirs: 2 beat
    # 0.25 to 4 against good (79 of 100 games, against 66 to 75; 78 with INFO_FLOOR).
    leak_weight: float = 2.0
    sure_enough: float = 0.5  # the likeliest hole set's chance at which to guess

    @property
    def method(self) -> str:
        if self.wary:
            return f"deduction, {self.probes} probes weighed a move; guards its pipeline"
        return f"deduction, {self.probes} probes weighed a move"

    def choose(self, game: AnyGame, view: PipelineView, seat: int, rng: random.Random,
               seconds: float) -> Move:
        deadline = time.monotonic() + 0.8 * seconds
        phase = view.phase
        if phase is Phase.HEAD_COIN:
            return PlaceCoin(rng.choice(CELLS))
        if phase is Phase.TAIL_COIN:
            return PlaceCoin(rng.choice([cell for cell in CELLS if cell != view.head]))
        assert view.head is not None and view.tail is not None
        if phase is Phase.PIPES:
            return SubmitPipe(self._own_pipe(view.head, view.tail, rng).pipe)
        theirs = consistent(view.head, view.tail, view.log, 1 - seat)
        chances = hole_chances(theirs)
        holes, chance = max(chances.items(), key=lambda item: (item[1], item[0]))
        if not view.owed[seat] and chance >= self._threshold(view, seat):
            return Guess(holes)
        probes = some_probes(game, game.sample_state(view, seat, rng), seat, self.probes, rng)
        sample = _sample(theirs, self.samples, rng)
        leak = self._leak(view, seat, rng) if self.wary else None
        board = dict(view.pawns)
        weighed: list[tuple[float, float]] = []  # (what we learn, what they learn)
        for index, probe in enumerate(probes):
            if index and time.monotonic() > deadline:
                break
            next_board = Board.of(after(board, probe))
            weighed.append((information(sample, next_board),
                            0.0 if leak is None else leak.given(next_board)))
        # Among the probes that teach at least half what the most teaching one does (so
        # that, however wary, it never stalls on probes that read nothing), the one that
        # teaches most for what it tells the opponent.
        enough = INFO_FLOOR * max(learnt for learnt, _ in weighed)
        chosen = max((index for index, (learnt, _) in enumerate(weighed) if learnt >= enough),
                     key=lambda i: (weighed[i][0] - self.leak_weight * weighed[i][1], -i))
        return probes[chosen]

    def _threshold(self, view: PipelineView, seat: int) -> float:
        if not self.wary or view.owed[1 - seat]:
            return self.sure_enough
        # The opponent may guess on their next turn: their chance of hitting ours is the
        # likeliest hole set among the pipelines they cannot yet rule out for us.
        assert view.head is not None and view.tail is not None
        ours = consistent(view.head, view.tail, view.log, seat)
        danger = max(hole_chances(ours).values())
        return self.sure_enough * (1 - danger)

    def _own_pipe(self, head: str, tail: str, rng: random.Random) -> Secret:
        secrets = all_secrets(head, tail)
        if not self.wary:
            return rng.choice(secrets)  # uniform over every valid pipeline and holes
        # Holes that few pipelines share keep a deducer's likeliest guesses off them.
        shared = Counter(secret.holes for secret in secrets)
        drawn = [rng.choice(secrets) for _ in range(12)]
        return min(drawn, key=lambda secret: shared[secret.holes])

    def _leak(self, view: PipelineView, seat: int, rng: random.Random) -> Leak:
        assert view.head is not None and view.tail is not None and view.own is not None
        mine = make_secret(view.own)
        ours = consistent(view.head, view.tail, view.log, seat)
        sample = [s for s in _sample(ours, self.samples, rng) if s.pipe != view.own]
        return Leak(mine, [mine, *sample])


@dataclass(frozen=True)
class Leak:
    """What a probe tells the opponent about our pipeline: their uncertainty about our
    holes (over a sample of the pipelines they cannot rule out) before and after they
    see what the probe reads on our true one."""

    mine: Secret
    theirs: Sequence[Secret]

    def given(self, board: Board) -> float:
        before = _entropy(Counter(s.holes for s in self.theirs))
        truth = board.key(self.mine)
        left = Counter(s.holes for s in self.theirs if board.key(s) == truth)
        return before - _entropy(left)


def some_probes(game: AnyGame, state: State, seat: int, count: int,
                rng: random.Random) -> list[Probe]:
    """Up to `count` different legal probes drawn at random, each checked by the rules
    (game.parse); all of them when random drawing finds too few."""
    pawns: list[tuple[Colour, str | None]] = [(colour, cell) for cell, colour in state.pawns]
    for colour, left in sorted(state.supply().items(), key=lambda item: item[0].value):
        pawns.extend([(colour, None)] * left)
    found: dict[str, Probe] = {}
    for _ in range(20 * count):
        if len(found) == count:
            break
        steps = [f"{colour.value}@{target}" if source is None else f"{source}-{target}"
                 for (colour, source), target in zip(rng.sample(pawns, 2), rng.choices(CELLS, k=2))]
        try:
            probe = game.parse(state, seat, ",".join(steps))
        except UserError:
            continue
        found.setdefault(game.notation(probe), probe)
    if len(found) < count:
        every = [move for move in game.legal_moves(state, seat) if isinstance(move, Probe)]
        return every if len(every) <= count else rng.sample(every, count)
    return list(found.values())


def hole_chances(secrets: Sequence[Secret]) -> dict[tuple[str, ...], float]:
    """Each hole set's chance, every consistent secret being equally likely."""
    counts = Counter(secret.holes for secret in secrets)
    return {holes: count / len(secrets) for holes, count in counts.items()}


def information(secrets: Sequence[Secret], board: Board) -> float:
    """How much reading `board` tells of the holes (mutual information, in bits)."""
    keys = [board.key(secret) for secret in secrets]
    joint = Counter(zip((secret.holes for secret in secrets), keys))
    return (_entropy(Counter(keys)) + _entropy(Counter(s.holes for s in secrets))
            - _entropy(joint))


def _entropy(counts: Counter[Any]) -> float:
    total = sum(counts.values())
    if not total:
        return 0.0
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def _sample(secrets: Sequence[Secret], size: int, rng: random.Random) -> Sequence[Secret]:
    return secrets if len(secrets) <= size else rng.sample(list(secrets), size)


BOTS = {
    "good": DeductionBot("good", samples=150, probes=60),
    "best": DeductionBot("best", samples=400, probes=250, wary=True),
}
