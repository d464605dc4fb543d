"""The exact command a player sends to move, filled in: what board mails end with, and what
a reply holding only a move ("1C3") is answered with."""

from __future__ import annotations

from pbm.boards.position import Position
from pbm.db.models import BoardStatus

PASSWORD = "PASSWORD"  # never the password itself: mails are not where passwords belong
MOVE = "MOVE"  # where no move can be given as an example


def move_command(pos: Position, seat: int, move: str) -> str:
    """`trou move 101 bob PASSWORD 2A2#4`: the board, the seat's userid, and the #n guard
    (the number this move would be: a resent or stale mail then never moves twice) where
    it is sure, that is where one seat alone is to move."""
    board = pos.board
    sure = len(pos.to_move()) == 1 and "#" not in move
    guard = f"#{board.move_count + 1}" if sure else ""
    return f"{board.game} move {board.label} {pos.userid(seat)} {PASSWORD} {move}{guard}"


def queue_command(pos: Position, seat: int, move: str) -> str:
    """`trou queue 101 bob PASSWORD 2A2`: played for the seat when its turn comes."""
    board = pos.board
    return f"{board.game} queue {board.label} {pos.userid(seat)} {PASSWORD} {move}"


def example_move(pos: Position, seat: int) -> str:
    """A legal move of the seat, to fill in the command with. None in a game with secrets:
    what a seat may play there can follow from what it may not see."""
    if pos.game.info.hidden:
        return MOVE
    for move in pos.game.legal_moves(pos.state, seat):
        return pos.game.notation(move)
    return MOVE


def to_move_lines(pos: Position, seat: int, *, new: bool = False) -> str | None:
    """What a player's board mail ends with: the command to send when it is their turn;
    on a new board, to the player who is not to move first, how they will move and how to
    decline. None on a finished board."""
    board = pos.board
    if board.status != BoardStatus.ACTIVE or pos.outcome() is not None or \
            pos.upto != board.move_count:
        return None
    if seat in pos.to_move():
        return f"To move: {move_command(pos, seat, example_move(pos, seat))}"
    if not new:
        return None
    userid = pos.userid(seat)
    return (f"When your turn comes: {board.game} move {board.label} {userid} {PASSWORD} "
            f"{MOVE}\nTo decline: {board.game} resign {board.label} {userid} {PASSWORD}")
