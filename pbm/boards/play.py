"""Playing on boards: start them, apply moves and resignations, and save the result."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.orm import object_session

from pbm.boards import clocks, submission
from pbm.boards.facts import Declined, Ended
from pbm.boards.position import MOVE, LoggedMove, Position, keep_move, viewer_key
from pbm.boards.proposal import after_move
from pbm.context import CommandError, Context
from pbm.db import locks
from pbm.db.locks import Guarded
from pbm.db.models import Board, BoardStatus, Move, Seat, User
from pbm.games.base import AnyGame, Outcome
from pbm.ratings.record import record_finished

FIRST_BOARD = 101


def start_board(ctx: Context, game: AnyGame, users: list[User], options: dict[str, Any],
                challenger: str, nag_days: int | None = None,
                forfeit_days: int | None = None, total_days: int | None = None,
                prefix: str = "", draw_seats: bool = False) -> Position:
    """A new board of `game`, `users` in seat order (`draw_seats`: in an order drawn by lot,
    as automatic pairing seats its two seekers); `prefix`: a tournament's letters, its
    boards numbered from 101 apart from the game's others."""
    # Several nodes: the next id and number are taken one challenge at a time, each after
    # the last one's commit (so no two boards get the same; a rolled back one leaves a gap).
    locks.hold(ctx.session, Guarded.NUMBERS)
    key = (ctx.session.scalar(select(func.max(Board.id))) or FIRST_BOARD - 1) + 1
    # Players know a board by its number within its game, from 101 as in pbmserv.
    number = (ctx.session.scalar(select(func.max(Board.number)).where(
        Board.game == game.info.name, Board.prefix == prefix)) or FIRST_BOARD - 1) + 1
    seed = key  # reproducible: any randomness a game has follows from the board
    if draw_seats:  # ... and so does the draw of the seats
        users = list(users)
        random.Random(seed).shuffle(users)
    state = game.start(options, seed)
    board = Board(
        id=key,
        number=number,
        prefix=prefix,
        game=game.info.name,
        rules_version=game.info.rules_version,
        options=options,
        seed=seed,
        status=BoardStatus.ACTIVE,
        state=game.encode(state),
        move_count=0,
        recent_moves=[],
        challenger=challenger,
        nag_days=nag_days,
        forfeit_days=forfeit_days,
        total_days=total_days,
        created_at=ctx.now,
        updated_at=ctx.now,
    )
    board.seats = [Seat(position=i, user=user, time_used=0) for i, user in enumerate(users)]
    pos = Position(board, game, state, 0)
    clocks.after_turn(pos, None, frozenset(), ctx.now, ctx.time)
    ctx.session.add(board)
    ctx.session.flush()
    return pos


def play_move(ctx: Context, pos: Position, seat: int, text: str, comment: str | None,
              auto: bool = False) -> None:
    """Apply a move for `seat` (already authenticated and on turn) and record it; `auto`:
    played from the seat's queue. A move ends any open vote (a draw offer, an undo), and
    the seat's submission: it has chosen its move now, however it sent it."""
    game, state = pos.game, pos.state
    before = pos.to_move()
    move = game.parse(state, seat, text)
    submission.store(pos.board, seat, None)
    notation = game.notation(move)
    shown = {}
    for viewer in [None, *range(game.info.players)]:
        if viewer == seat:
            continue
        seen = game.move_text(state, seat, move, viewer)
        if seen != notation:
            shown[viewer_key(viewer)] = seen
    pos.state = game.play(state, seat, move)
    if pos.board.proposal is not None:  # an open vote lapses; an old note goes
        pos.board.proposal = after_move(pos.board.proposal, seat, pos.board.move_count + 1)
    log_move(ctx, pos.board, LoggedMove(pos.board.move_count + 1, seat, notation, shown, MOVE,
                                        auto), comment)
    pos.upto = pos.board.move_count
    _save(ctx, pos)
    clocks.after_turn(pos, seat, before, ctx.now, ctx.time)


def log_move(ctx: Context, board: Board, move: LoggedMove, comment: str | None) -> None:
    """Append `move` (numbered board.move_count + 1) to the board's log and count it."""
    # Written straight away on the connection: the log is append-only, no object needed.
    ctx.session.connection().execute(insert(Move), {
        "board_id": board.id, "number": move.number, "seat": move.seat,
        "notation": move.notation, "shown": move.shown, "comment": comment,
        "created_at": ctx.now, "kind": move.kind, "auto": move.auto,
    })
    board.move_count = move.number
    keep_move(board, move)


def withdraw(ctx: Context, pos: Position, seat: int) -> bool:
    """Leave a running board: decline it before your first move, else resign.

    Returns True when the board was declined (and so removed)."""
    if not has_moved(pos.board, seat):
        pos.board.status = BoardStatus.DECLINED
        pos.board.finished_at = ctx.now
        for other in pos.board.seats:
            clocks.stop(other, ctx.now)
        ctx.facts.append(Declined(pos, seat))
        return True
    resign(ctx, pos, seat)
    return False


def resign(ctx: Context, pos: Position, seat: int) -> None:
    concede(ctx, pos, seat, f"{pos.userid(seat)} resigned.")


def concede(ctx: Context, pos: Position, seat: int, reason: str) -> None:
    """End the game with every other seat winning (a resignation, a forfeit on time);
    secrets are revealed as at any end."""
    others = frozenset(range(pos.game.info.players)) - {seat}
    outcome = Outcome(others, reason)
    pos.state = pos.game.conclude(pos.state, outcome)
    pos.board.state = pos.game.encode(pos.state)
    finish(ctx, pos, outcome)


def finish(ctx: Context, pos: Position, outcome: Outcome) -> None:
    board = pos.board
    board.winners = sorted(outcome.winners)
    board.result_reason = outcome.reason
    board.status = BoardStatus.FINISHED
    board.finished_at = ctx.now
    for seat in board.seats:
        seat.resign_queued = False
        seat.queued = None  # a queued move waits for a turn that will not come
        seat.submitted = None  # and so does a submitted one
        clocks.stop(seat, ctx.now)
    board.updated_at = ctx.now
    record_finished(ctx.session, board)
    ctx.facts.append(Ended(pos))


def _save(ctx: Context, pos: Position) -> None:
    board = pos.board
    board.state = pos.game.encode(pos.state)
    board.updated_at = ctx.now
    outcome = pos.game.result(pos.state)
    if outcome is not None:
        finish(ctx, pos, outcome)


def has_moved(board: Board, seat: int) -> bool:
    query = select(Move.number).where(Move.board_id == board.id, Move.seat == seat).limit(1)
    session = object_session(board)
    assert session is not None
    return session.scalar(query) is not None


def check_move_number(pos: Position, guard: int | None, text: str) -> None:
    """The `#n` staleness guard: refuse unless this would be move n."""
    if guard is None:
        return
    expected = pos.board.move_count + 1
    if guard != expected:
        raise CommandError(
            f"Move {text}#{guard} refused: it would be move #{expected} of board "
            f"{pos.board.label}, not #{guard}. The board has changed since you looked; "
            "nothing was played. Check the board and send the move again."
        )
