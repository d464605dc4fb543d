"""Synapse-Ice's own bot: iterative-deepening alpha-beta on a compact copy of the rules.

A position is three ints: `occ`, the full squares as bits (square i = row * 6 + column, the
order of SynapseState.board); `stash`, both stashes as six 3-bit counters (seat s's pieces
of size z at bits 9s + 3(z - 1)); and `square`, where the next piece must go (-1 before the
first move). The seat to move follows from the number of pieces laid (Red moves on even
counts), and who owns a piece never matters to the rules, so these say all there is:
tests/games/test_synapse_bots.py checks on positions of random games that the copy gives
the rule module's moves, positions after them and ends of games.

The search: negamax with alpha-beta (principal variation search: after a node's first move
the others are tried with a null window), one iteration per depth. A node's moves are
ordered by the transposition table's best move (the last iteration's), then two killer
moves per ply, then the fewest replies left to the opponent (none is a win in one), the
history heuristic breaking ties. A forced move (a node with one) costs no depth. A position
at the depth limit is scored by mobility (see `evaluate`), a lost one (the seat to move is
stuck) by how soon: a win sooner and a loss later are preferred. A value that is a proven
win or loss holds at any depth and is kept as such. The search stops once the position is
solved or its budget of positions (nodes) is spent: a budget, not a clock, so that one
seed gives one move on any machine; `seconds` only cuts a search short on a machine too
slow for it. Moves of equal worth are tried in an order shuffled by the bot's rng, so ties
fall where the rng says; the empty board's first moves are searched one of each set of
mirror images, the one chosen then turned by a mirror the rng draws.

Synapse-Ice hides nothing: a seat's view is the state itself (Game.seat_view's default).
This module stands apart from the rule module (which offers the bot), so it reads a state
by its shape and hands back one of the rule module's own legal moves.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pbm.games.base import AnyGame
from pbm.games.grid import Grid

_GRID = Grid(6, 5)
COLUMNS, ROWS = _GRID.columns, _GRID.rows
SQUARES = COLUMNS * ROWS
FULL = (1 << SQUARES) - 1
SIZES = (1, 2, 3)
STASH = 5
# N, E, S, W as the rule module's Direction enum lists them: (columns, rows) per step.
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))
NO_SQUARE = -1

WIN = 10_000  # a win `ply` plies from the root scores WIN - ply for the winner
PROVEN = WIN - 100  # a value at least this far from 0 is a proven win or loss
EXACT, LOWER, UPPER = 0, 1, 2  # what a table entry's value is: exact, a lower or upper bound
SOLVED = 1_000  # the depth of a table entry whose value is proven (it holds at any depth)
CHECK_EVERY = 1024  # nodes between two looks at the clock

# The budgets of the game's bots (SynapseIce.own_bots), in nodes a move. Measured in 100
# games each with the seats alternated, on a shared 2-core machine (CPU time a move):
# best against the Monte Carlo bestbot (2,000 playouts) won 82 and lost 18 (50 of 50 as
# Green, 32 of 50 as Red), thinking 45 ms median, 1.47 s p95, 1.85 s at most (the Monte
# Carlo bot 0.59 s, 1.63 s); good against the Monte Carlo goodbot (200 playouts) won 89
# and lost 11 (49 of 50 as Green, 40 of 50 as Red), thinking 39 ms median, 0.16 s p95
# (the Monte Carlo bot 0.08 s, 0.19 s). Against the random bot best, good and the Monte
# Carlo bestbot each won 99 of 100; best beat good 76-24. The table pays: at equal nodes
# it searches 0.4 plies deeper (about 300,000 nodes a second either way).
BEST_NODES = 300_000
GOOD_NODES = 30_000


def unit(seat: int, size: int) -> int:
    """One piece of `size` in `seat`'s stash, as an addend to `stash`."""
    return 1 << (9 * seat + 3 * (size - 1))


def left(stash: int, seat: int, size: int) -> int:
    """How many pieces of `size` `seat` has left."""
    return (stash >> (9 * seat + 3 * (size - 1))) & 7


def target_of(square: int, size: int, direction: int) -> int:
    """The square a piece on `square` points at, or NO_SQUARE off the board."""
    col, row = square % COLUMNS + size * STEPS[direction][0], \
        square // COLUMNS + size * STEPS[direction][1]
    return row * COLUMNS + col if 0 <= col < COLUMNS and 0 <= row < ROWS else NO_SQUARE


def move_id(square: int, size: int, direction: int) -> int:
    """A move as one small int, 0..359: the index of its killer and history entries."""
    return (square * 3 + size - 1) * 4 + direction


def unpack(mid: int) -> tuple[int, int, int]:
    """(square, size, direction) of a move id."""
    return mid // 12, mid // 4 % 3 + 1, mid % 4


def mirrored(mid: int, symmetry: int) -> int:
    """A move seen in a mirror: the columns' (`symmetry` & 1), the rows' (& 2) or both. The
    empty board looks the same in each, so a first move is as good as its mirror images."""
    square, size, direction = unpack(mid)
    col, row = square % COLUMNS, square // COLUMNS
    if symmetry & 1:
        col = COLUMNS - 1 - col
        direction = 4 - direction if direction % 2 else direction  # E <-> W
    if symmetry & 2:
        row = ROWS - 1 - row
        direction = direction if direction % 2 else 2 - direction  # N <-> S
    return move_id(row * COLUMNS + col, size, direction)


# _TABLE[seat][square]: every piece `seat` might lay on `square` pointing on the board, as
# (its stash counter's mask, one piece of it, the target's bit, the target, the move id).
Entry = tuple[int, int, int, int, int]
_TABLE: tuple[tuple[tuple[Entry, ...], ...], ...] = tuple(
    tuple(
        tuple((7 * unit(seat, size), unit(seat, size), 1 << target, target,
               move_id(square, size, direction))
              for size in SIZES for direction in range(4)
              if (target := target_of(square, size, direction)) != NO_SQUARE)
        for square in range(SQUARES))
    for seat in (0, 1))


def moves(occ: int, stash: int, square: int, seat: int) -> list[Entry]:
    """`seat`'s legal moves on `square` (never NO_SQUARE here), as _TABLE's entries."""
    return [e for e in _TABLE[seat][square] if stash & e[0] and not occ & e[2]]


def first_moves(stash: int) -> list[Entry]:
    """Red's legal first moves, on any square."""
    return [e for square in range(SQUARES) for e in moves(0, stash, square, 0)]


def after(occ: int, stash: int, square: int, seat: int, entry: Entry) -> tuple[int, int, int]:
    """The position after `seat` lays `entry`'s piece on `square`."""
    return occ | 1 << unpack(entry[4])[0], stash - entry[1], entry[3]


# ----- evaluation --------------------------------------------------------------------------
# _ACROSS[size - 1]: the squares from which a piece of that size pointing east stays on the
# board. Pointing south needs no mask: a shift by whole rows drops what leaves the board.
_ACROSS = tuple(sum(1 << sq for sq in range(SQUARES) if sq % COLUMNS + size < COLUMNS)
                for size in SIZES)
# What holding n pieces of a size is worth, by n: the first counts most, a third no more
# than a second. Measured in self-play, 200 games at 10,000 nodes a move: against counting
# only whether a size is left, this won 119-81, a cap of three 111-89, counting every piece
# 85-115. And what each legal move of the seat to move is worth.
WORTH = (0, 1, 2, 2, 2, 2, 2, 2)
REPLY = 2


def openings(occ: int) -> tuple[int, int, int]:
    """For each size, the pairs of empty squares that far apart in a row or a column: the
    places a piece of that size could still be laid pointing at an empty square (from either
    end of a pair), whoever holds it. How much room each size has left."""
    empty = FULL & ~occ
    return ((empty & empty >> 1 & _ACROSS[0]).bit_count() + (empty & empty >> 6).bit_count(),
            (empty & empty >> 2 & _ACROSS[1]).bit_count() + (empty & empty >> 12).bit_count(),
            (empty & empty >> 3 & _ACROSS[2]).bit_count() + (empty & empty >> 18).bit_count())


def evaluate(occ: int, stash: int, seat: int, replies: int) -> int:
    """The position for `seat`, to move with `replies` legal moves (at least one): mobility
    now and later. Now: its legal moves. Later: for each size, the room it has left
    (`openings`) times what the pieces of it the seat holds are worth (WORTH), minus the
    same for its opponent. Whoever is stuck loses, so what a side needs is moves: a size
    it lacks is a direction it cannot escape in, wherever the opponent sends it."""
    one, two, three = openings(occ)
    mine, theirs = stash >> 9 * seat, stash >> 9 * (1 - seat)
    worth = WORTH
    return (REPLY * replies
            + one * (worth[mine & 7] - worth[theirs & 7])
            + two * (worth[mine >> 3 & 7] - worth[theirs >> 3 & 7])
            + three * (worth[mine >> 6 & 7] - worth[theirs >> 6 & 7]))


# ----- search ------------------------------------------------------------------------------
class _OutOfBudget(Exception):
    """The budget (or the clock) is spent: the iteration under way is cut short."""


class _Search:
    """One search's counters and memories: the nodes searched, the transposition table, the
    killer moves by ply and the history heuristic's scores by move."""

    def __init__(self, nodes: int, deadline: float) -> None:
        self.budget = nodes
        self.deadline = deadline
        self.nodes = 0
        # Position key -> (depth searched, EXACT/LOWER/UPPER, value, best move id).
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.killers: list[list[int]] = [[-1, -1] for _ in range(SQUARES + 2)]
        self.history = [0] * (SQUARES * 12)

    def order(self, entries: list[Entry], best: int, ply: int, here: int, stash: int,
              other: int) -> list[Entry]:
        """The table's move first, then this ply's killers, then the moves that leave the
        opponent fewest replies (none is a win), the history heuristic breaking ties. The
        sort is stable, so moves alike keep the order they came in."""
        killers = self.killers[ply]
        history = self.history
        replies = _TABLE[other]

        def rank(e: Entry) -> int:
            mid = e[4]
            if mid == best:
                return -3 << 40
            if mid == killers[0]:
                return -2 << 40
            if mid == killers[1]:
                return -1 << 40
            left = stash - e[1]
            count = 0
            for f in replies[e[3]]:
                if left & f[0] and not here & f[2]:
                    count += 1
            return (count << 30) - history[mid]

        return sorted(entries, key=rank)

    def negamax(self, occ: int, stash: int, square: int, seat: int, depth: int, alpha: int,
                beta: int, ply: int) -> int:
        """The position's value for `seat`, to move on `square`, searched `depth` plies
        more (fail-soft: outside alpha..beta, a bound). Principal variation search: the
        first move with the whole window, the others with a null window first."""
        self.nodes += 1
        if self.nodes >= self.budget or \
                self.nodes % CHECK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise _OutOfBudget
        entries = moves(occ, stash, square, seat)
        if not entries:
            return ply - WIN
        here = occ | 1 << square
        other = 1 - seat
        if len(entries) == 1:  # a forced move costs no depth
            e = entries[0]
            return -self.negamax(here, stash - e[1], e[3], other, depth, -beta, -alpha,
                                 ply + 1)
        if depth <= 0:
            return evaluate(occ, stash, seat, len(entries))
        key = stash << 35 | square << 30 | occ
        found = self.table.get(key)
        best_mid = -1
        if found is not None:
            searched, kind, value, best_mid = found
            if searched >= depth and (kind == EXACT or kind == LOWER and value >= beta
                                      or kind == UPPER and value <= alpha):
                return value
        start_alpha = alpha
        best_value = -WIN - 1
        negamax = self.negamax
        for e in self.order(entries, best_mid, ply, here, stash, other):
            after = stash - e[1]
            if best_value == -WIN - 1:
                value = -negamax(here, after, e[3], other, depth - 1, -beta, -alpha, ply + 1)
            else:
                value = -negamax(here, after, e[3], other, depth - 1, -alpha - 1, -alpha,
                                 ply + 1)
                if alpha < value < beta:
                    value = -negamax(here, after, e[3], other, depth - 1, -beta, -value,
                                     ply + 1)
            if value > best_value:
                best_value, best_mid = value, e[4]
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        killers = self.killers[ply]
                        if killers[0] != best_mid:
                            killers[1], killers[0] = killers[0], best_mid
                        self.history[best_mid] += depth * depth
                        break
        kind = UPPER if best_value <= start_alpha else LOWER if best_value >= beta else EXACT
        # A proven win (a lower bound that is one) or loss holds however deep one looks.
        proven = best_value >= PROVEN and kind != UPPER or best_value <= -PROVEN and \
            kind != LOWER
        self.table[key] = (SOLVED if proven else depth, kind, best_value, best_mid)
        return best_value


@dataclass(frozen=True)
class AlphaBetaBot:
    """Iterative-deepening alpha-beta searching at most `nodes` positions a move."""

    strength: str
    nodes: int

    @property
    def method(self) -> str:
        return f"alpha-beta search, {self.nodes:,} positions a move"

    def choose(self, game: AnyGame, view: Any, seat: int, rng: random.Random,
               seconds: float) -> Any:
        legal = {_key(move): move for move in game.legal_moves(view, seat)}
        mid = best_move(compact(view), seat, self.nodes, rng, seconds)
        return legal[mid]


class _Square(Protocol):
    @property
    def col(self) -> int: ...

    @property
    def row(self) -> int: ...


class Position(Protocol):
    """What the bot reads of a SynapseState."""

    @property
    def board(self) -> Sequence[object]: ...  # a piece or None

    @property
    def stashes(self) -> Sequence[Sequence[int]]: ...

    @property
    def forced(self) -> _Square | None: ...


def compact(state: Position) -> tuple[int, int, int]:
    """(occ, stash, square) of a SynapseState."""
    occ = sum(1 << i for i, piece in enumerate(state.board) if piece is not None)
    stash = sum(n * unit(seat, size) for seat, counts in enumerate(state.stashes)
                for size, n in zip(SIZES, counts, strict=True))
    forced = state.forced
    square = NO_SQUARE if forced is None else forced.row * COLUMNS + forced.col
    return occ, stash, square


def _key(move: Any) -> int:
    """The move id of one of the rule module's moves."""
    square = move.square.row * COLUMNS + move.square.col
    return move_id(square, move.size, STEPS.index(move.direction.step))


def best_move(position: tuple[int, int, int], seat: int, nodes: int, rng: random.Random,
              seconds: float) -> int:
    """The move id the search chooses for `seat` in `position`."""
    mid, _, _ = search(position, seat, nodes, rng, seconds)
    return mid


def search(position: tuple[int, int, int], seat: int, nodes: int, rng: random.Random,
           seconds: float) -> tuple[int, int, int]:
    """(move id, its value, the depth searched whole) for `seat` to move in `position`."""
    occ, stash, square = position
    if square == NO_SQUARE:
        # The first move: one of each set of mirror images is searched, and the one chosen
        # is turned by a random mirror at the end.
        entries = [e for e in first_moves(stash)
                   if e[4] == min(mirrored(e[4], symmetry) for symmetry in range(4))]
        rng.shuffle(entries)
        mid, value, depth = _search(occ, stash, seat, entries, nodes, seconds)
        return mirrored(mid, rng.randrange(4)), value, depth
    entries = moves(occ, stash, square, seat)
    if not entries:
        raise ValueError("the seat to move is stuck: the game is over")
    rng.shuffle(entries)
    return _search(occ, stash, seat, entries, nodes, seconds)


def _search(occ: int, stash: int, seat: int, entries: list[Entry], nodes: int,
            seconds: float) -> tuple[int, int, int]:
    """search() over the root moves `entries`, in this order where all else is equal."""
    if len(entries) == 1:
        return entries[0][4], 0, 0
    run = _Search(nodes, time.perf_counter() + seconds)
    remaining = SQUARES - occ.bit_count()  # no game lasts longer than the empty squares
    best, best_value, depth_done = entries[0], 0, 0
    other = 1 - seat
    for depth in range(1, remaining + 1):
        ordered = [best] + [e for e in entries if e is not best]
        alpha, found, found_value = -WIN - 1, None, -WIN - 1
        try:
            for e in ordered:
                sq = unpack(e[4])[0]
                value = -run.negamax(occ | 1 << sq, stash - e[1], e[3], other, depth - 1,
                                     -WIN - 1, -alpha, 1)
                if value > found_value:
                    found, found_value = e, value
                    alpha = max(alpha, value)
        except _OutOfBudget:
            if found is not None:  # the last best move was searched first: this is better
                best, best_value = found, found_value
            break
        assert found is not None
        best, best_value, depth_done = found, found_value, depth
        if abs(best_value) >= PROVEN:
            break
    return best[4], best_value, depth_done
