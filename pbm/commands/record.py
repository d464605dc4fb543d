"""`record`: a board's record (its players, dates and every move, as PGN-like text), mailed
to whoever asks."""

from __future__ import annotations

from pbm.boards import select
from pbm.commands.grammar import Command, Invocation, game_command
from pbm.context import Context
from pbm.games import registry
from pbm.games.base import AnyGame
from pbm.views.record import record_text


def mail_record(ctx: Context, game: AnyGame, name: str) -> str:
    """Answer the asker with the record of the board named `name`: the public one while
    the game runs, the full one (secrets and seed) once it is over. Returns its text."""
    # A declined board is no board to load_board: "There is no Trou board 101."
    board = select.load_board(ctx, name, game.info.name)
    text = record_text(board)
    ctx.answer(f"{game.info.title} Board {board.label} Record", text)
    return text


def do_record(ctx: Context, inv: Invocation) -> None:
    assert inv.game is not None
    mail_record(ctx, registry.get(inv.game), inv.args[0])


RECORD = game_command(Command(
    "record", "board",
    "Mail the record of a board: its players, dates, result and every move with its "
    "comments, as text in the manner of PGN. Anyone may ask, without a password; while "
    "the game runs it holds only what everyone sees, once it is over every secret too.",
    do_record, least=1, most=1, board_arg=0))
