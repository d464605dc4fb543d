"""Amazons' moves on a board (board.py): listing, counting and drawing them at random.

A move takes an amazon from `origin` along a queen line of empty squares to `destination`,
then shoots an arrow from there along a queen line of empty squares to `arrow`. The square
the amazon left is empty by then, so the arrow may pass over it or land on it (the
published rules say so: "even backwards along the same path the amazon just traveled, into
or across the starting square").

Every queen move has at least one arrow (back towards the square just left, which is empty
now): so a seat can move exactly when one of its amazons has an empty square beside it.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import accumulate
from typing import NamedTuple

from pbm.games.amazons.board import EMPTY, LINES, STEPS


class AmazonMove(NamedTuple):
    """An amazon's queen move and the arrow it shoots from where it lands (squares)."""

    origin: int
    destination: int
    arrow: int


def destinations(board: bytes, origin: int) -> Iterator[int]:
    """The empty squares an amazon on `origin` reaches along a queen line."""
    for step in STEPS:
        at = origin + step
        while board[at] == EMPTY:
            yield at
            at += step


def arrows(board: bytes, origin: int, destination: int) -> Iterator[int]:
    """Where an amazon that went from `origin` to `destination` can shoot (`origin` empty)."""
    for step in STEPS:
        at = destination + step
        while board[at] == EMPTY or at == origin:
            yield at
            at += step


def can_move(board: bytes, amazons: Sequence[int]) -> bool:
    """Whether any of `amazons` has a move: an empty square beside it (see above)."""
    return any(board[sq + step] == EMPTY for sq in amazons for step in STEPS)


def trapped(board: bytes, amazons: Sequence[int]) -> list[int]:
    """The amazons of `amazons` with no empty square beside them."""
    return [sq for sq in amazons if all(board[sq + step] != EMPTY for step in STEPS)]


def legal_moves(board: bytes, amazons: Sequence[int]) -> Iterator[AmazonMove]:
    """Every move of the seat whose amazons stand on `amazons`."""
    for origin in amazons:
        for destination in destinations(board, origin):
            for arrow in arrows(board, origin, destination):
                yield AmazonMove(origin, destination, arrow)


def count_arrows(board: bytes, origin: int, destination: int) -> int:
    count = 0
    for step in STEPS:
        at = destination + step
        while board[at] == EMPTY or at == origin:
            count += 1
            at += step
    return count


def count_moves(board: bytes, amazons: Sequence[int]) -> int:
    """len(list(legal_moves(...))) without making the moves."""
    return sum(count_arrows(board, origin, destination)
               for origin in amazons for destination in destinations(board, origin))


def random_move(board: bytes, amazons: Sequence[int], rng: random.Random) -> AmazonMove:
    """A legal move drawn uniformly, by rejection from a superset listed cheaply.

    The superset is every (origin, destination, target) with the queen move legal and the
    target any square on a queen line from the destination on an EMPTY board (LINES): each
    is drawn with the same probability (a destination weighs as many targets as its lines
    hold), and a draw is kept only if the arrow's path and square are free on this board.
    What is kept is uniform over the legal moves, as each is in the superset once. A draw
    costs a few steps and at least one in ~35 is kept (every queen move has an arrow, and
    no square has more than 35 targets), far less than listing the moves (~2,000 at first).
    """
    pairs = [(origin, destination) for origin in amazons
             for destination in destinations(board, origin)]
    if not pairs:
        raise ValueError("no legal move: the seat's amazons are all trapped")
    cumulative = list(accumulate(len(LINES[destination]) for _, destination in pairs))
    total = cumulative[-1]
    while True:
        drawn = rng.randrange(total)
        index = bisect_right(cumulative, drawn)
        origin, destination = pairs[index]
        target, between = LINES[destination][drawn - (cumulative[index - 1] if index else 0)]
        if board[target] != EMPTY and target != origin:
            continue
        if all(board[sq] == EMPTY or sq == origin for sq in between):
            return AmazonMove(origin, destination, target)
