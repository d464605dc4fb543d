"""Choosing boards: one by its number, or a player's boards by what they ask for."""

from __future__ import annotations

from sqlalchemy import select

from pbm.boards.position import position
from pbm.context import CommandError, Context, shorten
from pbm.db.models import Board, Seat, User
from pbm.games import registry


def load_board(ctx: Context, number_text: str, game_name: str | None = None) -> Board:
    """The board with this number; a clear error if there is none (or of another game)."""
    text = number_text.lstrip("#")
    if not (text.isascii() and text.isdigit()):
        raise CommandError(f"'{shorten(number_text)}' is not a board number (boards are "
                           "numbered 101, 102, ...).")
    text = text.lstrip("0") or "0"
    # Numbers past what the database can store name no board either.
    board = ctx.session.get(Board, int(text)) if len(text) <= 9 else None
    if board is None or board.status == "declined":
        what = registry.get(game_name).info.title + " board" if game_name else "board"
        raise CommandError(f"There is no {what} {shorten(text)}.")
    if game_name and board.game != game_name:
        actual = registry.get(board.game).info.title
        raise CommandError(
            f"Board {board.id} is a {actual} board, not "
            f"{registry.get(game_name).info.title}: send '{board.game} ...' for it."
        )
    return board


def boards_of(ctx: Context, user: User, game_name: str | None, which: str) -> list[Board]:
    """A user's boards: active, inactive (finished), next (their turn) or all."""
    query = select(Board).join(Seat).where(Seat.user_id == user.id, Board.status != "declined")
    if game_name:
        query = query.where(Board.game == game_name)
    if which in ("active", "next"):
        query = query.where(Board.status == "active")
    elif which == "inactive":
        query = query.where(Board.status == "finished")
    boards = list(ctx.session.scalars(query.order_by(Board.id)).unique())
    if which == "next":
        boards = [b for b in boards if _is_turn_of(b, user)]
    return boards


def _is_turn_of(board: Board, user: User) -> bool:
    pos = position(board)
    seat = pos.seat_of(user)
    return seat is not None and seat in pos.to_move()
