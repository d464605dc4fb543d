"""Which moves the rules allow: every one of a seat or of one piece, and one drawn at random.

A piece steps one square forward, straight or diagonally, onto an empty square; it takes an
opponent's piece only diagonally forward, never straight ahead (Troyka's rules, 2001).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from pbm.games.breakthrough.board import EMPTY, GLYPHS, BreakthroughState, Step

# Random tries at a (piece, direction) before listing every move instead (see random_step).
TRIES = 24


def piece_steps(state: BreakthroughState, seat: int, origin: int) -> Iterator[Step]:
    """The legal moves of `seat`'s piece on square `origin`: left, straight, right."""
    geo = state.geometry
    board, enemy = state.board, GLYPHS[1 - seat]
    squares = geo.squares
    for slot in geo.forward[seat][origin]:
        if slot is None:
            continue
        target, diagonal = slot
        there = board[target]
        if there == EMPTY:
            yield Step(squares[origin], squares[target], False)
        elif diagonal and there == enemy:
            yield Step(squares[origin], squares[target], True)


def legal_steps(state: BreakthroughState, seat: int) -> Iterator[Step]:
    """Every legal move of `seat`, piece by piece in board order (row 1 first)."""
    if state.winner is not None or seat != state.turn:
        return
    for origin in state.pieces[seat]:
        yield from piece_steps(state, seat, origin)


def random_step(state: BreakthroughState, seat: int, rng: random.Random) -> Step:
    """A legal move of `seat`, uniformly chosen, without listing them all.

    Every legal move is one (piece, direction) pair of the seat's pieces times the three
    directions, so drawing pairs uniformly until one is legal draws the moves uniformly
    (rejection sampling). Most positions accept within two or three draws; where few pairs
    are legal, after TRIES the moves are listed and one chosen, uniform as well.
    """
    mine = state.pieces[seat]
    geo = state.geometry
    forward, board, enemy, squares = geo.forward[seat], state.board, GLYPHS[1 - seat], geo.squares
    count = len(mine)
    for _ in range(TRIES):
        draw = rng.randrange(3 * count)
        origin = mine[draw // 3]
        slot = forward[origin][draw % 3]
        if slot is None:
            continue
        target, diagonal = slot
        there = board[target]
        if there == EMPTY:
            return Step(squares[origin], squares[target], False)
        if diagonal and there == enemy:
            return Step(squares[origin], squares[target], True)
    return rng.choice(list(legal_steps(state, seat)))
