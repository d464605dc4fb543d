"""Carrying out what every player of a board agreed to: a draw ends the game, an undo takes
back the last move still standing."""

from __future__ import annotations

from typing import Any

from pbm.boards import clocks, play, queue, submission
from pbm.boards.position import TAKEBACK, LoggedMove, Position, moves_of
from pbm.context import Context
from pbm.db.models import Board
from pbm.games.base import AnyGame, Outcome

DRAW_REASON = "The players agreed to a draw."


def agree_draw(ctx: Context, pos: Position) -> None:
    """End the game as a tie (rated as one); secrets are revealed as at any end."""
    outcome = Outcome(frozenset(), DRAW_REASON)
    pos.board.proposal = None
    pos.state = pos.game.conclude(pos.state, outcome)
    pos.board.state = pos.game.encode(pos.state)
    play.finish(ctx, pos, outcome)


def standing_moves(board: Board) -> list[LoggedMove]:
    """The moves of the log that no takeback has undone, in order (each takeback undoes the
    last move still standing before it, as position() replays them)."""
    standing: list[LoggedMove] = []
    for move in moves_of(board, last=None, upto=board.move_count):
        if move.kind == TAKEBACK:
            if standing:
                standing.pop()
        else:
            standing.append(move)
    return standing


def take_back(ctx: Context, pos: Position, comment: str | None) -> tuple[Position, int]:
    """Undo the last move still standing: the log gains a takeback entry (the move stays in
    it, so history and `show 101#n` stay true) and the board returns to the position before
    that move. Returns the new position and the number of the move taken back."""
    board, game = pos.board, pos.game
    standing = standing_moves(board)
    undone = standing.pop()  # the caller has checked there is one
    play.log_move(ctx, board, LoggedMove(board.move_count + 1, undone.seat,
                                         f"undo {undone.number}", {}, TAKEBACK), comment)
    # The snapshot holds the state with the move in it: replay what still stands.
    state = replay(game, board, standing)
    board.state = game.encode(state)
    board.updated_at = ctx.now
    after = Position(board, game, state, board.move_count)
    # Whoever is to move again starts a fresh turn; queues and submissions were written for
    # the position that is gone.
    clocks.after_turn(after, None, frozenset(), ctx.now, ctx.time)
    queue.clear_all(board)
    submission.clear_all(board)
    return after, undone.number


def replay(game: AnyGame, board: Board, moves: list[LoggedMove]) -> Any:
    """The state after playing `moves` from the board's start."""
    state = game.start(board.options, board.seed)
    for move in moves:
        state = game.play(state, move.seat, game.parse(state, move.seat, move.notation))
    return state
