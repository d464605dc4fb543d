"""Amazons against OpenSpiel's `amazons`: one pbm move is three OpenSpiel actions.

OpenSpiel numbers the cells row by row from the top (action = row * 10 + column, row 0
holding Black's D10 and G10), pbm names them A1-J10 from White's side: rank = 10 - row.
Its player 0 ('X') starts on a4 d1 g1 j4 and moves first, as White does here, so seat and
player are the same. A move is three decisions of the same player: the amazon (its square),
where it goes, where its arrow lands.
"""

from __future__ import annotations

import random
from typing import Any

from pbm.games.amazons.board import SIZE, SQUARES, file_of, rank_of, square
from pbm.games.amazons.game import GAME
from pbm.games.amazons.moves import AmazonMove
from pbm.games.amazons.state import AmazonsState
from tests.games.openspiel.harness import Actions, Bridge, bridge


def spiel_cell(sq: int) -> int:
    """OpenSpiel's action for pbm's square `sq`."""
    return (SIZE - rank_of(sq)) * SIZE + file_of(sq)


def pbm_square(action: int) -> int:
    """pbm's square for OpenSpiel's action (a cell) `action`."""
    row, column = divmod(action, SIZE)
    return square(column, SIZE - row)


SPIEL = {sq: spiel_cell(sq) for sq in SQUARES}


@bridge("amazons")
class AmazonsBridge(Bridge):
    game = GAME
    spiel_name = "amazons"
    spiel_params = {"board_size": SIZE}
    # OpenSpiel plays the published rules on the published board: none known. The tests
    # check the points where they could have differed (who starts where, the arrow over
    # the square just left, the end when only trapped amazons are left).
    differences = ()

    def actions(self, state: AmazonsState, seat: int, move: AmazonMove) -> Actions:
        return (SPIEL[move.origin], SPIEL[move.destination], SPIEL[move.arrow])

    def spiel_moves(self, spiel_state: Any) -> set[Actions]:
        """Every whole move, walking OpenSpiel's first two steps: the set of (amazon,
        destination, arrow) is exactly harness.moves_in_steps(spiel_state, 3), without
        making a child state for each of the ~2,000 arrows (the last step's legal actions
        are read where they are: its children are never looked at)."""
        moves: set[Actions] = set()
        player = spiel_state.current_player()
        for amazon in spiel_state.legal_actions():
            moved = spiel_state.child(amazon)
            assert moved.current_player() == player, "the move ended after its first step"
            for destination in moved.legal_actions():
                landed = moved.child(destination)
                assert landed.current_player() == player, "the move ended before its arrow"
                moves.update((amazon, destination, arrow) for arrow in landed.legal_actions())
        return moves

    def choose(self, state: AmazonsState, seat: int, rng: random.Random,
               biased: bool) -> AmazonMove:
        """Uniform; biased, one move in three an arrow over or onto the square its amazon
        left, one in three an arrow beside an opponent's amazon (trapping them sooner, so
        that games end with amazons trapped in every order), else uniform."""
        if not biased:
            return self.game.random_move(state, seat, rng)
        moves = list(self.game.legal_moves(state, seat))
        roll = rng.random()
        if roll < 1 / 3:
            back = [m for m in moves if passes_origin(m)]
            if back:
                return rng.choice(back)
        elif roll < 2 / 3:
            theirs = state.amazons[1 - seat]
            near = [m for m in moves if any(beside(m.arrow, sq) for sq in theirs)]
            if near:
                return rng.choice(near)
        return rng.choice(moves)


def passes_origin(move: AmazonMove) -> bool:
    """The arrow lands on, or flies over, the square the amazon left."""
    origin, destination, arrow = move
    if arrow == origin:
        return True
    df, dr = file_of(arrow) - file_of(destination), rank_of(arrow) - rank_of(destination)
    of, orank = file_of(origin) - file_of(destination), rank_of(origin) - rank_of(destination)
    # On the same ray from the destination and nearer to it than the arrow.
    same_ray = of * dr == orank * df and of * df >= 0 and orank * dr >= 0
    return same_ray and max(abs(of), abs(orank)) < max(abs(df), abs(dr))


def beside(a: int, b: int) -> bool:
    return a != b and abs(file_of(a) - file_of(b)) <= 1 and abs(rank_of(a) - rank_of(b)) <= 1
