"""A reply to a board mail that holds only a move ("1C3", typed on a phone): answered with
the whole command that would play it, since a move needs the board, the userid and the
password, and a mail client's reply carries none of them."""

from __future__ import annotations

from pbm.accounts.users import users_at
from pbm.boards import select
from pbm.boards.position import position, seat_of
from pbm.context import CommandError, Context, shorten
from pbm.db.models import Board, BoardStatus
from pbm.games.base import IllegalMove, InvalidMove
from pbm.views.to_move import PASSWORD, move_command, queue_command


def offer_command(ctx: Context, game: str, name: str, text: str,
                  board_id: int | None = None) -> bool:
    """Answer the sender with the command that plays `text` on the board, when they play
    on it and `text` reads as a move of its game; False (nothing answered) otherwise, so
    that an auto-responder's one line is not answered (that is how mail loops start).

    The board is the one `board_id` names when the reply's threading ids gave it (they
    carry the number alone, without a tournament's prefix), else the one named `name`."""
    board = _board(ctx, game, name, board_id)
    if board is None:
        return False
    seats = [(user, seat_of(board, user)) for user in users_at(ctx, ctx.sender)]
    mine = [(user, seat) for user, seat in seats if seat is not None]
    if not mine or board.status != BoardStatus.ACTIVE:
        return False
    user, seat = mine[0]
    assert seat is not None
    pos = position(board)
    if pos.outcome() is not None:
        return False
    move = text.split("#")[0].strip()
    try:
        pos.game.parse(pos.state, seat, move)
    except InvalidMove:
        return False  # not written as a move: prose, or a robot's
    except IllegalMove:
        pass  # a move, not a legal one: the command, once sent, will say why
    title = pos.title
    if seat in pos.to_move():
        command = move_command(pos, seat, move)
        how = f"To play {shorten(move)} on {title} board {board.label}, send this"
    else:
        command = queue_command(pos, seat, move)
        how = (f"It is not your turn on {title} board {board.label}. To have {shorten(move)} "
               "played for you when it comes, send this")
    ctx.answer(f"{title} Board {board.label}: the command to send",
               f"Your reply held a move but no command, so nothing was played.\n\n"
               f"{how} as the Subject of a mail (or as a line of a reply), with your "
               f"password in place of {PASSWORD}:\n\n  {command}\n\n"
               "Lines you write under it are shown to the other players as your comment.\n")
    return True


def _board(ctx: Context, game: str, name: str, board_id: int | None) -> Board | None:
    if board_id is not None:
        board = ctx.session.get(Board, board_id)
        if board is None or board.game != game or board.status == BoardStatus.DECLINED:
            return None
        return board
    try:
        return select.load_board(ctx, name, game)
    except CommandError:
        return None
