"""Reversi against OpenSpiel's `othello`: the notation mapped once, both ways.

OpenSpiel numbers a square row * 8 + column with a1 the top left corner and row 1 at the
top, as the World Othello Federation's notation and pbm do, and its pass is action 64.
"""

from __future__ import annotations

import random
from typing import Any

from pbm.games.reversi import GAME, PASS
from pbm.games.reversi.board import COLUMNS, SIZE, by_column, count, flips
from tests.games.openspiel.harness import Actions, Bridge, bridge

SPIEL_PASS = 64
CORNERS = frozenset({0, SIZE - 1, SIZE * (SIZE - 1), SIZE * SIZE - 1})
EDGES = frozenset(sq for sq in range(SIZE * SIZE)
                  if sq % SIZE in (0, SIZE - 1) or sq // SIZE in (0, SIZE - 1))


def to_spiel(move: int) -> int:
    """OpenSpiel's action for a pbm move (a square number, or PASS)."""
    return SPIEL_PASS if move == PASS else move


def from_spiel(action: int) -> int:
    """The pbm move of an OpenSpiel action: the other way round."""
    return PASS if action == SPIEL_PASS else action


def spiel_name(action: int) -> str:
    """How OpenSpiel writes an action ('d3', 'pass'), worked out from its number alone."""
    if action == SPIEL_PASS:
        return "pass"
    return f"{COLUMNS[action % SIZE].lower()}{action // SIZE + 1}"


@bridge("reversi")
class ReversiBridge(Bridge):
    game = GAME
    spiel_name = "othello"
    # Where OpenSpiel's othello and the World Othello Federation's rules part: none found.
    # Its returns are +1/-1/0 by the disc count, which is the same winner as pbm's (the
    # empty squares the WOF gives the winner change the score, never who won).
    differences = ()

    def actions(self, state: Any, seat: int, move: Any) -> Actions:
        return (to_spiel(move),)

    def choose(self, state: Any, seat: int, rng: random.Random, biased: bool) -> Any:
        """Biased: a corner when there is one, else an edge, else the move that turns over
        the fewest discs: quiet play keeps both sides short of moves, so games reach the
        passes and the early ends (a colour wiped out, a board left with holes) that
        random play rarely does."""
        if not biased:
            return self.game.random_move(state, seat, rng)
        moves = list(self.game.legal_moves(state, seat))
        if moves == [PASS]:
            return PASS
        for wanted in (CORNERS, EDGES):
            chosen = [sq for sq in moves if sq in wanted]
            if chosen and rng.random() < 0.8:
                return rng.choice(chosen)
        own, other = state.discs(seat), state.discs(1 - seat)
        fewest = min(count(flips(own, other, sq)) for sq in moves)
        quiet = [sq for sq in by_column(sum(1 << sq for sq in moves))
                 if count(flips(own, other, sq)) == fewest]
        return rng.choice(quiet)
