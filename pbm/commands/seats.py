"""A player on a board: who they are (checked against its players), which seat they hold,
whether it is their turn, the `#n` guard on a move, and leaving the board (resign). The
move, vote, queue and submit commands all build on these."""

from __future__ import annotations

import re

from pbm.accounts.users import authenticate
from pbm.boards import play, select
from pbm.boards.position import Position, position
from pbm.context import CommandError, Context
from pbm.db.models import BoardStatus, User
from pbm.games.base import AnyGame
from pbm.views.boardmail import announce_decline, board_text, send_board
from pbm.views.news import tell

# At most 9 digits: no board has more moves, and int() refuses a run of thousands (a mail
# may hold one), so longer is no guard but part of the move, which the rules then refuse.
GUARD = re.compile(r"#\s*(\d{1,9})\s*$")


def split_guard(text: str) -> tuple[str, int | None]:
    """A move as written and its trailing `#n` guard: ('2B3', 4) from '2B3#4'."""
    found = GUARD.search(text)
    if not found:
        return text, None
    return text[: found.start()].strip(), int(found.group(1))


def authenticate_on(ctx: Context, pos: Position, userid: str, password: str) -> User:
    try:
        return authenticate(ctx, userid, password, [seat.user for seat in pos.board.seats])
    except CommandError as err:
        raise CommandError(str(err), board_text=board_text(pos, None)) from None


def seat_on(pos: Position, user: User) -> int:
    seat = pos.seat_of(user)
    if seat is None:
        players = " and ".join(pos.userid(s.position) for s in pos.board.seats)
        raise CommandError(
            f"{user.userid} does not play on board {pos.board.label} ({players} do).",
            board_text=board_text(pos, None),
        )
    return seat


def check_turn(pos: Position, seat: int) -> None:
    """Refuse a move by `seat` unless the board runs and the seat is to move."""
    if pos.board.status != BoardStatus.ACTIVE or pos.outcome() is not None:
        raise CommandError(
            f"Board {pos.board.label} is over; no more moves can be made.",
            board_text=board_text(pos, seat),
        )
    if seat not in pos.to_move():
        movers = " and ".join(pos.userid(s) for s in sorted(pos.to_move()))
        raise CommandError(
            f"It is not your turn on board {pos.board.label}; it is {movers}'s turn.",
            board_text=board_text(pos, seat),
        )


def resign(ctx: Context, game: AnyGame, number: str, userid: str, password: str) -> None:
    """Resign the board; out of turn it is queued (toggled) for the player's next turn, and
    before their first move it declines the challenge and removes the board."""
    board = select.load_board(ctx, number, game.info.name, to_change=True)
    pos = position(board)
    user = authenticate_on(ctx, pos, userid, password)
    seat = seat_on(pos, user)
    if board.status != BoardStatus.ACTIVE or pos.outcome() is not None:
        raise CommandError(f"Board {board.label} is already over.",
                           board_text=board_text(pos, seat))
    if seat in pos.to_move() or not play.has_moved(board, seat):
        if play.withdraw(ctx, pos, seat):
            announce_decline(ctx, pos, user)
        else:
            tell(ctx)
            send_board(ctx, pos)
        return
    queued = not board.seats[seat].resign_queued
    board.seats[seat].resign_queued = queued
    if queued:
        message = (f"Your resignation from board {board.label} is queued: it takes effect when "
                   "your turn comes. Send the resign command again to take it back.")
    else:
        message = f"Your queued resignation from board {board.label} has been taken back."
    ctx.answer(f"{pos.title} Board {board.label}", message + "\n")
