"""Breakthrough against OpenSpiel's `breakthrough`: the mapping between the two notations.

OpenSpiel numbers an action by mixed radix (row, column, direction, capture) over
(rows, columns, 6, 2). Its player 0 ("b", printed at the top) moves first, from its row 0
towards higher rows; player 1 ("w") from the last row towards row 0. pbm's first seat is
White, on rows 1-2 moving up, so pbm's seat is OpenSpiel's player and pbm's row index
(0 for row 1) is OpenSpiel's row index: only the printed labels run the other way (pbm's
A2-A3 is OpenSpiel's "a7a6"). The sides' colours are names only; the rules are symmetric.
"""

from __future__ import annotations

import random
from typing import Any

from pbm.games.breakthrough.board import WHITE, BreakthroughState, Step
from pbm.games.breakthrough.game import GAME
from pbm.games.breakthrough.moves import legal_steps
from tests.games.openspiel.harness import Actions, Bridge, bridge

DIRECTIONS = 6  # OpenSpiel's: three forward for player 0 (rows +1), three for player 1 (-1)


def spiel_action(size: int, seat: int, move: Step) -> int:
    """OpenSpiel's action for `seat`'s move on a board of `size`."""
    dcol = move.target.col - move.origin.col
    direction = (0 if seat == WHITE else 3) + dcol + 1  # columns -1, 0, +1 in that order
    square = move.origin.row * size + move.origin.col
    return (square * DIRECTIONS + direction) * 2 + int(move.capture)


def pbm_move(state: BreakthroughState, action: int) -> Step:
    """The pbm move OpenSpiel's `action` makes on `state`'s board (the other way round)."""
    size = state.size
    capture, rest = action % 2, action // 2
    direction, square = rest % DIRECTIONS, rest // DIRECTIONS
    row, col = divmod(square, size)
    drow = 1 if direction < 3 else -1
    dcol = direction % 3 - 1
    squares = state.geometry.squares
    return Step(squares[square], squares[(row + drow) * size + col + dcol], bool(capture))


def spiel_name(size: int, square: str) -> str:
    """OpenSpiel's printed name of pbm's square: the same letter, the row counted from
    the other end."""
    return square[0].lower() + str(size + 1 - int(square[1:]))


@bridge("breakthrough")
class BreakthroughBridge(Bridge):
    game = GAME
    spiel_name = "breakthrough"
    size = 8
    spiel_params = {"rows": 8, "columns": 8}
    pbm_options = ()
    differences = (
        "Boards of fewer than 6 rows: OpenSpiel gives each side a single row of pieces there"
        " (kNumRowsForFullPieces); the published rules fill two rows a side on any board."
        " pbm offers no board smaller than 6x6, so no such board is ever compared.",
    )

    def actions(self, state: Any, seat: int, move: Any) -> Actions:
        return (spiel_action(state.size, seat, move),)

    def choose(self, state: Any, seat: int, rng: random.Random, biased: bool) -> Any:
        """Biased: mostly captures when there are any, and mostly not the step that wins
        at once, so that games run long, boards empty, and some end by taking every piece
        of one side (random play nearly always ends by a piece running through)."""
        if not biased:
            return self.game.random_move(state, seat, rng)
        moves = list(legal_steps(state, seat))
        goal = state.geometry.goal_row(seat)
        captures = [m for m in moves if m.capture]
        if captures and rng.random() < 0.8:
            moves = captures
        slow = [m for m in moves if m.target.row != goal]
        if slow and rng.random() < 0.95:
            moves = slow
        return rng.choice(moves)


def sized(size: int) -> BreakthroughBridge:
    """The bridge for a board of `size` (pbm's -size option, OpenSpiel's rows and columns)."""
    found = BreakthroughBridge()
    found.size = size
    found.spiel_params = {"rows": size, "columns": size}
    found.pbm_options = (f"-size={size}",)
    return found
