"""`replay`: a board as everyone saw it after move n, with moves tried from there; mailed to
the asker, nothing saved."""

from __future__ import annotations

from collections.abc import Sequence

from pbm.boards import select
from pbm.boards.position import position
from pbm.commands.grammar import Command, Invocation, game_command
from pbm.commands.trial import Trial, check_moves, refuse_secrets, split_moves
from pbm.context import CommandError, Context, shorten
from pbm.games import registry
from pbm.games.base import AnyGame
from pbm.views.boardmail import Pictures, answer_board, move_list


def replay(ctx: Context, game: AnyGame, number: str, upto_text: str,
           moves: Sequence[str]) -> str:
    """Answer the asker with the public view of the board after move `upto_text`, its last
    moves up to there, and `moves` tried from it (none in a game with secrets: those the
    public cannot see would decide what they do). Returns that text."""
    info = game.info
    board = select.load_board(ctx, number, info.name)
    if not (upto_text.isascii() and upto_text.isdigit() and len(upto_text) <= 9):
        raise CommandError(f"'{shorten(upto_text)}' is not a move number: write "
                           f"{info.name} replay {board.label} 5 for the board after move 5.")
    upto = int(upto_text)
    if upto > board.move_count:
        raise CommandError(f"Board {board.label} has {board.move_count} moves; there is no "
                           f"move #{upto} to replay to.")
    if moves:
        refuse_secrets(info, "Trying moves in a replay",
                       f" Without moves, a replay shows the board: {info.name} replay "
                       f"{board.label} {upto}")
    check_moves(moves, "A replay")
    pos = position(board, upto)
    trial = Trial.of(pos, None, f"Replay of {pos.title} Board {board.label} (nothing has "
                                "been played or saved)", "Replay")
    trial.play(moves)
    page = trial.page([move_list(pos, None), ""])
    return answer_board(ctx, f"{info.title} Board {board.label} Replay", page,
                        Pictures(game, trial.state), None)


def do_replay(ctx: Context, inv: Invocation) -> None:
    assert inv.game is not None
    number, upto = inv.args[:2]
    replay(ctx, registry.get(inv.game), number, upto, split_moves(inv.args[2:]))


REPLAY = game_command(Command(
    "replay", "board n [move ...]",
    "Mail the board as everyone saw it after move n (0: at its start), with its moves up "
    "to there, and the moves given tried from it; nothing is saved. Anyone may ask, without "
    "a password. Moves are separated as in preview; in games with secrets only the board is "
    "shown, as no moves may be tried there.",
    do_replay, least=2, board_arg=0))
