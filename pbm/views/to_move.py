"""The exact command a player sends to move, filled in: what board mails end with, and what
a reply holding only a move ("1C3") is answered with."""

from __future__ import annotations

from pbm.boards.position import Position

PASSWORD = "PASSWORD"  # never the password itself: mails are not where passwords belong


def move_command(pos: Position, seat: int, move: str) -> str:
    """`trou move 101 bob PASSWORD 2A2#4`: the board, the seat's userid and the #n guard
    (the number this move would be: a resent or stale mail then never moves twice)."""
    board = pos.board
    guard = "" if "#" in move else f"#{board.move_count + 1}"
    return f"{board.game} move {board.number} {pos.userid(seat)} {PASSWORD} {move}{guard}"


def queue_command(pos: Position, seat: int, move: str) -> str:
    """`trou queue 101 bob PASSWORD 2A2`: played for the seat when its turn comes."""
    board = pos.board
    return f"{board.game} queue {board.number} {pos.userid(seat)} {PASSWORD} {move}"
