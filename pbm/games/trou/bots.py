"""Trou's own bots, on its exact solution (solver.py): `good` knows the endgame (it never
gives away what its position is worth in the last four placements); `best` never gives it
away at all and, of the moves that keep it, lays the most traps.

Every Trou game lasts exactly eight placements, so "the quickest win" or "the longest
resistance" mean nothing here. What `best` prefers among moves of equal value is instead
the one leaving the opponent the largest share of replies that throw away what it has
(a chance to win a drawn game, to draw or win a lost one): against a perfect opponent no
different, against a fallible one more often better.

Trou hides nothing: a seat's view is the state itself (Game.seat_view's default).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pbm.games.base import AnyGame
from pbm.games.trou import solver


def graded(game: AnyGame, state: Any, seat: int) -> list[tuple[int, Any, Any]]:
    """Every legal move of `seat` as (its value for the seat, the move, the position after)."""
    found = []
    for move in game.legal_moves(state, seat):
        after = game.play(state, seat, move)
        found.append((solver.value(after, seat), move, after))
    return found


def keeping(game: AnyGame, state: Any, seat: int) -> list[tuple[Any, Any]]:
    """The moves (with the position after each) that keep the position's value for `seat`."""
    moves = graded(game, state, seat)
    top = max(worth for worth, _, _ in moves)
    return [(move, after) for worth, move, after in moves if worth == top]


def trap_share(game: AnyGame, state: Any, seat: int) -> Fraction:
    """The share of `seat`'s legal moves from `state` that lower its value there."""
    worth = solver.value(state, seat)
    moves = graded(game, state, seat)
    return Fraction(sum(1 for then, _, _ in moves if then < worth), len(moves))


def good_moves(game: AnyGame, state: Any, seat: int) -> list[Any]:
    """What `good` chooses from: every move that keeps the position's value."""
    return [move for move, _ in keeping(game, state, seat)]


def best_moves(game: AnyGame, state: Any, seat: int) -> list[Any]:
    """What `best` chooses from: the moves that keep the position's value and, of those,
    leave the opponent the largest share of replies that lower its own."""
    moves = keeping(game, state, seat)
    if not game.to_move(moves[0][1]):  # the last pawn: nobody replies
        return [move for move, _ in moves]
    shares = [trap_share(game, after, 1 - seat) for _, after in moves]
    most = max(shares)
    return [move for (move, _), share in zip(moves, shares) if share == most]


# Where `good` starts to play by the solution: the last four of the eight placements. Trou
# is a draw, so a bot that kept the value from the first pawn on would draw every game with
# `best`; one that knows only the endgame loses some of them to `best`'s traps and still
# wins most games against `easy` (measured, 200 games each: best against it scores 0.74,
# 94 wins and 106 draws; it against easy 0.74, 100 wins, 94 draws, 6 losses).
ENDGAME = 4


def good_choices(game: AnyGame, state: Any, seat: int) -> list[Any]:
    """What `good` chooses from: any legal move in the opening, the moves that keep the
    position's value in the endgame."""
    if state.placed < ENDGAME:
        return list(game.legal_moves(state, seat))
    return good_moves(game, state, seat)


@dataclass(frozen=True)
class GoodBot:
    """The endgame by the solution, the opening at random: uniformly among its choices."""

    strength: str = "good"
    method: str = "plays the last four pawns perfectly (Trou is solved), the first at random"

    def choose(self, game: AnyGame, view: Any, seat: int, rng: random.Random,
               seconds: float) -> Any:
        return rng.choice(good_choices(game, view, seat))


@dataclass(frozen=True)
class BestBot:
    """A move of the best value, laying the most traps; uniformly random among equals."""

    strength: str = "best"
    method: str = "plays perfectly (Trou is solved) and lays traps"

    def choose(self, game: AnyGame, view: Any, seat: int, rng: random.Random,
               seconds: float) -> Any:
        return rng.choice(best_moves(game, view, seat))
