"""Hex against OpenSpiel's `hex`: the same cells by the same names, the swap as one action.

OpenSpiel numbers cell (column c, row r) as action r * size + c, and names it the way pbm
does: column letter, row number ("f6" for action 5 * 11 + 5). With its `swap` parameter set,
action size * size is White's swap on the second move, which (hex.cc, DoApplyAction) takes
Black's stone off and puts a White stone on the transposed cell, Black moving next: the
piece swap pbm plays. Player 0 is Black ('x'), who joins the first row to the last; player
1 White ('o'), the first column to the last: pbm's seats and edges.
"""

from __future__ import annotations

import random
from typing import Any

from pbm.games.hex.board import BLACK_STONE, WHITE_STONE
from pbm.games.hex.game import GAME, SWAP, HexMove, HexState, Swap, places
from tests.games.openspiel.harness import Actions, Bridge, bridge

SPIEL_STONES = {"x": BLACK_STONE, "o": WHITE_STONE, ".": 0}  # its ToString's marks


@bridge("hex")
class HexBridge(Bridge):
    game = GAME
    spiel_name = "hex"
    size = 11
    spiel_params = {"board_size": 11, "swap": True}
    pbm_options = ()  # -size=11, the default
    differences = (
        "OpenSpiel's hex has no swap unless its `swap` parameter is set (it defaults to"
        " false); pbm always lets White answer Black's first stone with swap, as the"
        " published rules do (HexWiki, 'Rules' and 'Swap rule'). The bridge sets swap=True;"
        " test_hex.py shows the default refusing it.",
    )

    def actions(self, state: HexState, seat: int, move: HexMove) -> Actions:
        return (action_of(state.size, move),)

    def choose(self, state: HexState, seat: int, rng: random.Random, biased: bool) -> Any:
        """Biased: White swaps half the time (random play swaps once in 122 games), and a
        third of the moves go on an edge cell, where corners and edges join the chains."""
        if not biased:
            return GAME.random_move(state, seat, rng)
        if state.may_swap and rng.random() < 0.5:
            return SWAP
        if rng.random() < 0.33:
            n = state.size
            edge = [move for move in GAME.legal_moves(state, seat) if isinstance(move, Swap)
                    or move.col in (0, n - 1) or move.row in (0, n - 1)]
            if edge:
                return rng.choice(edge)
        return GAME.random_move(state, seat, rng)

    def compare(self, state: HexState, spiel_state: Any) -> str | None:
        """The harness's checks, then the boards themselves, cell by cell (a swap that put
        its stone elsewhere would show here before it changed any legal move)."""
        problem = super().compare(state, spiel_state)
        if problem is not None:
            return problem
        theirs = board_of_spiel(spiel_state)
        if theirs != state.stones:
            names = state.board.names
            differ = [names[i] for i in range(len(theirs)) if theirs[i] != state.stones[i]]
            return f"the boards differ on {', '.join(differ[:5])}"
        return None


def action_of(size: int, move: HexMove) -> int:
    """OpenSpiel's action for a pbm move on a board of `size`."""
    if isinstance(move, Swap):
        return size * size
    return move.row * size + move.col


def move_of(size: int, action: int) -> HexMove:
    """The pbm move of an OpenSpiel action (the other way, for tests and reports)."""
    return SWAP if action == size * size else places(size)[action]


def board_of_spiel(spiel_state: Any) -> bytes:
    """OpenSpiel's board as pbm's stones: its ToString is the rows, marks spaced out."""
    marks = [mark for mark in str(spiel_state) if mark in SPIEL_STONES]
    return bytes(SPIEL_STONES[mark] for mark in marks)
