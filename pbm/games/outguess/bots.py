"""Outguess's own bots: a short search over the seat's own line, and a mixed guess.

A bot sees only its seat's view (seats.OutguessView): the whole board, but not which of
its pieces the opponent named for this turn. Its line is a beam search over its own
actions: positions are scored by how many moves each side needs at least to reach the
other's home row (a lower bound), how likely the opponent is to win on their coming turn,
material, and the extra moves the line is expected to give the opponent (the moves of
the piece they may have named, each piece weighed by how likely they were to name it).
Its guess is a mixed strategy: it searches the opponent's coming turn the same way, and
names each of their pieces with a chance that grows with how much their best lines move
it (best: with the fourth power of that), so the opponent can never dodge it for sure.

The search plays the rules on a copy of its own (steps, captures and flips, drops and
their anchors, the two ways to win), built for speed on the board's geometry that the rule
module steps by too (notation.py); the tests check that every line it sends parses on the
real state.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from pbm.games.base import AnyGame
from pbm.games.outguess.notation import (
    SIZE,
    Action,
    Drop,
    Step,
    Turn,
    goal_row,
    orthogonal,
    row_of,
    step_targets,
)
from pbm.games.outguess.seats import OutguessView, Square

SQUARES = range(SIZE * SIZE)
FORWARD = (-1, 1)  # the row step toward the goal row, per seat

WIN = 100_000.0
DANGER = 400.0  # the opponent can (by a lower bound) win on their coming turn
RACE = 10.0  # a move less to the goal row, for the nearest piece
SECOND = 2.0  # ... and for the next nearest
MATERIAL = 2.0  # a piece, on the board or in reserve
EXTRA = 6.0  # an extra move the opponent earns from this turn
FLOOR = 0.05  # the least weight of any piece in a guess (nothing is ever quite safe)
CAP = 9  # distances beyond this all count the same


# Sorted, as the rule module lists a drop's anchors.
NEIGHBOURS = tuple(tuple(sorted(orthogonal(s))) for s in SQUARES)


@dataclass
class Line:
    """A turn in progress, as the rules would play it: the board, and for each piece of
    the mover the square it stood on when the turn began (so its moves are counted)."""

    seat: int
    board: list[Square]
    origin: list[int]  # per square: the turn-start square of the mover's piece there, or -1
    reserves: list[int]
    actions: tuple[Action, ...] = ()
    moved: dict[int, int] = field(default_factory=dict)  # turn-start square -> moves
    won: bool = False

    @staticmethod
    def start(view_board: Sequence[Square], reserves: Sequence[int], seat: int) -> Line:
        origin = [s if (p := view_board[s]) is not None and p[0] == seat else -1
                  for s in SQUARES]
        return Line(seat, list(view_board), origin, list(reserves))

    def legal(self) -> Iterator[Action]:
        board, seat = self.board, self.seat
        for square in SQUARES:
            piece = board[square]
            if piece is not None and piece[0] == seat:
                for target in step_targets(square, piece[1]):
                    yield Step(square, target, board[target] is not None)
        if not self.reserves[seat]:
            return
        tails = (seat, False)
        for square in SQUARES:
            if board[square] is None:
                anchors = [n for n in NEIGHBOURS[square] if board[n] == tails]
                for anchor in anchors:
                    for heads in (True, False):
                        yield Drop(square, heads, anchor, len(anchors) > 1)

    def then(self, action: Action) -> Line:
        board, origin = list(self.board), list(self.origin)
        reserves, moved = list(self.reserves), dict(self.moved)
        if isinstance(action, Step):
            piece = board[action.src]
            assert piece is not None
            captured = board[action.dst]
            if captured is not None:
                reserves[captured[0]] += 1
                piece = (piece[0], not piece[1])
            start = origin[action.src]
            if start >= 0:
                moved[start] = moved.get(start, 0) + 1
            board[action.dst], board[action.src] = piece, None
            origin[action.dst], origin[action.src] = start, -1
        else:
            reserves[self.seat] -= 1
            board[action.dst] = (self.seat, action.heads)
            origin[action.dst] = -1
            start = origin[action.anchor]
            if start >= 0:
                moved[start] = moved.get(start, 0) + 1
        won = row_of(action.dst) == goal_row(self.seat) or not any(
            p is not None and p[0] != self.seat for p in board
        )
        return Line(self.seat, board, origin, reserves, (*self.actions, action), moved, won)

    def key(self) -> tuple[object, ...]:
        return (tuple(self.board), tuple(self.reserves), tuple(sorted(self.moved.items())))


def distances(board: Sequence[Square], reserves: Sequence[int], seat: int) -> list[int]:
    """For each piece of `seat`, at least how many moves it needs to win, nearest first."""
    goal, forward = goal_row(seat), FORWARD[seat]
    found = []
    for square in SQUARES:
        piece = board[square]
        if piece is None or piece[0] != seat:
            continue
        row, col = row_of(square), square % SIZE
        rows = abs(goal - row)
        if piece[1]:
            # Stepping onto a piece on the way flips this one to tails: a move more at least.
            blockers = sum(1 for r in range(row + forward, goal, forward)
                           if board[(r - 1) * SIZE + col] is not None)
            found.append(rows + blockers)
        elif reserves[seat] and board[square + forward * SIZE] is None:
            found.append(rows)  # a heads drop just ahead, then its steps (or the drop wins)
        elif any(board[n] is not None for n in step_targets(square, False)):
            found.append(rows + 1)  # a capture sideways turns it heads up
        else:
            found.append(rows + 2)
    return sorted(min(d, CAP) for d in found)


def score(line: Line, named: Mapping[int, float]) -> float:
    """How good the position after `line` is for its mover, the opponent to move next with
    1 + (the moves of the piece they named) moves; `named` is the chance of each piece."""
    if line.won:
        return WIN - len(line.actions)
    me, them = line.seat, 1 - line.seat
    mine = distances(line.board, line.reserves, me)
    theirs = distances(line.board, line.reserves, them)
    if not mine:
        return -WIN
    near = theirs[0]
    danger = sum(p for start, p in named.items() if near <= 1 + line.moved.get(start, 0))
    extra = sum(p * line.moved.get(start, 0) for start, p in named.items())
    material = (len(mine) + line.reserves[me]) - (len(theirs) + line.reserves[them])
    second = (theirs[1:2] or [CAP])[0] - (mine[1:2] or [CAP])[0]
    return (-DANGER * danger + RACE * (near - mine[0]) + SECOND * second
            + MATERIAL * material - EXTRA * extra)


def search(start: Line, allotment: int, width: int, named: Mapping[int, float],
           deadline: float) -> list[tuple[float, Line]]:
    """The best lines of `allotment` actions a beam of `width` finds, best first; a line
    that wins stops there (alone)."""
    beam = [(score(start, named), start)]
    for _ in range(allotment):
        seen: dict[tuple[object, ...], tuple[float, Line]] = {}
        for _, line in beam:
            for action in line.legal():
                child = line.then(action)
                if child.won:
                    return [(score(child, named), child)]
                key = child.key()
                if key not in seen:
                    seen[key] = (score(child, named), child)
        if not seen:
            break
        beam = sorted(seen.values(), key=lambda item: -item[0])[:width]
        if time.monotonic() > deadline:
            # Out of time: finish the best line greedily (a line must use every move).
            best = beam[0][1]
            while len(best.actions) < allotment and not best.won:
                best = max((best.then(a) for a in best.legal()),
                           key=lambda child: score(child, named))
            return [(score(best, named), best)]
    return beam


def usage(lines: Sequence[tuple[float, Line]], pieces: Sequence[int],
          temperature: float) -> dict[int, float]:
    """How much each piece (by its turn-start square) moves in these lines, the lines
    weighed by their scores (softmax): a guesser's prediction, as chances."""
    weights = {square: FLOOR for square in pieces}
    top = lines[0][0]
    for value, line in lines:
        weight = math.exp(max(-50.0, (value - top) / temperature))
        for square, moves in line.moved.items():
            if square in weights:
                weights[square] += weight * moves
    total = sum(weights.values())
    return {square: w / total for square, w in weights.items()}


@dataclass(frozen=True)
class SearchBot:
    """A beam search of `width` over its own line; the guess mixed over the opponent's
    likely moves, found by a beam of `guess_width`. `wary`: it predicts which of its own
    pieces the opponent will have named (as it predicts theirs) instead of taking them
    all as equally likely. Measured against good over 100 games: wary alone 58, a guess
    sharpened to the 4th power alone 55, both 75, both with wider beams (8 and 8) 80."""

    strength: str
    width: int
    guess_width: int
    wary: bool = False
    temperature: float = 10.0
    sharpen: float = 1.0  # the guess's chances are raised to this power (then normalised)

    @property
    def method(self) -> str:
        if self.wary:
            return f"{self.width}-wide search, sparing the likely named piece; mixed guesses"
        return f"{self.width}-wide search of its moves; mixed guesses"

    def choose(self, game: AnyGame, view: OutguessView, seat: int, rng: random.Random,
               seconds: float) -> Turn:
        deadline = time.monotonic() + 0.8 * seconds
        if not view.guessed:
            # The game's first guess, before White's first turn.
            return Turn((), self._guess(view.board, view.reserves, view.mover, 1, rng,
                                        deadline))
        line = Line.start(view.board, view.reserves, seat)
        pieces = [s for s in SQUARES if line.origin[s] >= 0]
        uniform = {s: 1 / len(pieces) for s in pieces}
        lines = search(line, view.allotment, self.width, uniform, deadline)
        if self.wary and not lines[0][1].won:
            # What a guesser reading this board would predict we move: weigh our pieces so.
            named = usage(lines, pieces, self.temperature)
            lines = search(line, view.allotment, self.width, named, deadline)
        else:
            named = uniform
        best = max(lines, key=lambda item: item[0])[1]
        if best.won:
            return Turn(best.actions, None)
        count = sum(p * best.moved.get(s, 0) for s, p in named.items())
        guess = self._guess(best.board, best.reserves, 1 - seat, 1 + round(count), rng,
                            deadline)
        return Turn(best.actions, guess)

    def _guess(self, board: Sequence[Square], reserves: Sequence[int], mover: int,
               allotment: int, rng: random.Random, deadline: float) -> int:
        """A piece of `mover` named with chances that follow its best lines' moves."""
        line = Line.start(board, reserves, mover)
        pieces = [s for s in SQUARES if line.origin[s] >= 0]
        uniform = {s: 1 / len(pieces) for s in pieces}
        lines = search(line, allotment, self.guess_width, uniform, deadline)
        chances = usage(lines, pieces, self.temperature)
        if self.sharpen != 1.0:
            chances = {s: p ** self.sharpen for s, p in chances.items()}
        squares = sorted(chances)
        return rng.choices(squares, weights=[chances[s] for s in squares])[0]


BOTS = {
    "good": SearchBot("good", width=3, guess_width=2),
    "best": SearchBot("best", width=8, guess_width=8, wary=True, sharpen=4.0),
}
