"""Lines of Action against OpenSpiel's lines_of_action: the mapping of moves, and the rules
where the two differ on purpose.

OpenSpiel numbers an action ((from * 64 + to) * 2 + capture), with square = row * 8 +
column and row 0 the first rank: pbm's squares (board.py) are numbered the same way.
"""

from __future__ import annotations

import random
from typing import Any

from pbm.games.loa.game import GAME, LoaState
from pbm.games.loa.moves import Move, Pass, Step, all_steps
from tests.games.openspiel.harness import Actions, Bridge, bridge

BOARD_BITS = (1 << 128) - 1  # a position key (game.position_key) without the player to move


def action_of(step: Step) -> int:
    """OpenSpiel's action for a pbm move."""
    return (step.origin * 64 + step.target) * 2 + int(step.capture)


def step_of(action: int) -> Step:
    """The pbm move of an OpenSpiel action (the inverse of action_of)."""
    squares, capture = divmod(action, 2)
    origin, target = divmod(squares, 64)
    return Step(origin, target, bool(capture))


@bridge("loa")
class LinesOfActionBridge(Bridge):
    game = GAME
    spiel_name = "lines_of_action"
    # pbm has no limit on a game's length; OpenSpiel's default draws at ply 1000, even on a
    # winning move. Set beyond any game played here, so that it never decides one.
    spiel_params = {"max_game_length": 1_000_000}
    differences = (
        "A capture that connects both sides at once: pbm draws (Mind Sports Olympiad rule 8);"
        " OpenSpiel gives the mover the win (as the 1982 edition of A Gamut of Games).",
        "A player with no legal move: pbm makes it pass (MSO rule 9); OpenSpiel makes it lose.",
        "Repetition: pbm draws when a position recurs for the third time with the same player"
        " to move (MSO rule 10); OpenSpiel draws as soon as a board recurs, whoever is to move.",
        "Length: pbm has no limit; OpenSpiel draws at max_game_length plies (1000 by default),"
        " even on a winning move (the bridge sets it to 1,000,000).",
    )

    def actions(self, state: Any, seat: int, move: Any) -> Actions:
        # OpenSpiel has no pass: a player without a move has lost there, so a position where
        # pbm passes is already over in OpenSpiel, and compare() says so before this is used.
        return () if isinstance(move, Pass) else (action_of(move),)

    def choose(self, state: Any, seat: int, rng: random.Random, biased: bool) -> Any:
        """A uniform legal move (biased: a capture, two times in three, when there is one,
        so games reach the few pieces and the single piece, and captures that connect the
        opponent), among the moves after which both rule sets still agree: never into one
        of the `differences`, each shown on purpose by the tests. Where every move leads into
        one, any move is played and the games report the disagreement."""
        moves: list[Move] = list(GAME.legal_moves(state, seat))
        rng.shuffle(moves)
        if biased and rng.random() < 2 / 3:
            moves.sort(key=lambda move: not (isinstance(move, Step) and move.capture))
        for move in moves:
            if not leads_to_a_difference(GAME.play(state, seat, move)):
                return move
        return moves[0]


def leads_to_a_difference(after: LoaState) -> bool:
    """Whether OpenSpiel's rules and pbm's part in this position (reached by a move)."""
    if after.end is not None:
        # Both sides connected at once: pbm draws it, OpenSpiel gives the mover the win.
        return after.end.is_draw and "both sides" in after.end.reason
    board = after.history[-1] & BOARD_BITS
    if any(key & BOARD_BITS == board for key in after.history[:-1]):
        return True  # OpenSpiel draws at once; pbm plays on until a third time
    # No move for the player to move: pbm passes, OpenSpiel ends the game.
    return not all_steps(after.pieces(after.mover), after.pieces(1 - after.mover))
