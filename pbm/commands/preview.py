"""`preview`: play moves on a copy of a board, or on a new one, and mail the result to the
asker; nothing is saved."""

from __future__ import annotations

from collections.abc import Sequence

from pbm.accounts.users import USERID, find_user
from pbm.boards import select
from pbm.boards.position import position
from pbm.commands.grammar import Command, Invocation, game_command, usage
from pbm.commands.seats import authenticate_on
from pbm.commands.trial import Trial, check_moves, refuse_secrets, split_moves
from pbm.context import CommandError, Context, shorten
from pbm.games import registry
from pbm.games.base import AnyGame
from pbm.views.boardmail import Pictures, answer_board

NEW = "new"  # `preview new 2 ...`: a board number is digits, so it never reads as this
SAVED = "(nothing has been played or saved)"


def preview(ctx: Context, game: AnyGame, ref: str, userid: str | None,
            password: str | None, moves: Sequence[str]) -> str:
    """Play `moves` for whoever is to move at each point (the asker when several are) on a
    copy of the board as it is, or as it was after move n (`101#n`); answer the asker with
    the board that results: as they see it when they gave their userid and password and
    play on the board, else as the public does. Returns that text."""
    info = game.info
    refuse_secrets(info, "Preview")
    number, _, upto_text = ref.partition("#")
    if upto_text and not (upto_text.isascii() and upto_text.isdigit() and len(upto_text) <= 9):
        raise CommandError(f"'{shorten(ref)}' is not a board reference: write 101 or 101#12.")
    board = select.load_board(ctx, number, info.name)
    upto = int(upto_text) if upto_text else None
    if upto is not None and not 0 <= upto <= board.move_count:
        raise CommandError(f"Board {board.label} has {board.move_count} moves; there is no "
                           f"move #{upto} to preview from.")
    check_moves(moves, "A preview")
    pos = position(board, upto)
    seat = None
    if userid is not None and password is not None:
        # A userid that plays elsewhere sees the public view, as showas gives it.
        seat = pos.seat_of(authenticate_on(ctx, pos, userid, password))
    trial = Trial.of(pos, seat, f"Preview of {pos.title} Board {board.label} {SAVED}")
    # Without a password the first word could be one typed in the wrong place: a move
    # that cannot even be read is not quoted back.
    trial.play(moves, quote_unreadable_first=userid is not None)
    return answer_board(ctx, f"{info.title} Board {board.label} Preview", trial.page(),
                        Pictures(game, trial.state), seat)


def preview_new(ctx: Context, game: AnyGame, players: str, moves: Sequence[str]) -> str:
    """Play `moves` on a new board of `game` for `players` players (the number the game is
    played by, as the asker writes it); answer the asker with the public view of the board
    that results. Returns that text."""
    info = game.info
    refuse_secrets(info, "Preview")
    if players != str(info.players):
        raise CommandError(
            f"{info.title} is played by {info.players} players, so a new board is for "
            f"{info.players}: write {info.name} preview new {info.players} MOVE ...")
    check_moves(moves, "A preview")
    # The seed of a board that never was: the games on offer here draw nothing from it.
    state = game.start(game.parse_options([]), 0)
    trial = Trial(game, info.seats, None, state, 0, None, game.to_move(state),
                  f"Preview of a new {info.title} board {SAVED}", "a new board")
    trial.play(moves)
    return answer_board(ctx, f"{info.title} Preview", trial.page(), Pictures(game, trial.state),
                        None)


def do_preview(ctx: Context, inv: Invocation) -> None:
    assert inv.game is not None
    game = registry.get(inv.game)
    first, rest = inv.args[0], list(inv.args[1:])
    if first.lower() == NEW:
        preview_new(ctx, game, rest[0], _moves(inv, rest[1:]))
        return
    # No userid: the words are the moves (most moves cannot be one, and cost no query).
    if not USERID.match(rest[0].lower()) or find_user(ctx, rest[0]) is None:
        preview(ctx, game, first, None, None, _moves(inv, rest))
        return
    if len(rest) < 3:
        raise CommandError(f"Too few words. Write: {usage(inv)}")
    preview(ctx, game, first, rest[0], rest[1], _moves(inv, rest[2:]))


def _moves(inv: Invocation, words: Sequence[str]) -> list[str]:
    moves = split_moves(words)
    if not moves:
        raise CommandError(f"No move given. Write: {usage(inv)}")
    return moves


PREVIEW = game_command(Command(
    "preview", "board[#n] [userid password] move ... | new N move ...",
    "Try moves on a copy of a board (#n: as it was after move n), or on a new board for N "
    "players, and get the board that results; nothing is saved. Anyone may, without a "
    "password: the public view. A player who adds userid and password (read as such when "
    "the word after the board is a userid) sees their own view. Moves are separated by "
    "spaces, or by ';' when one has spaces in it. Not offered for games with secrets.",
    do_preview, aliases=("prev",), least=2, secret_args=(2,), login=(1, 2), board_arg=0))
