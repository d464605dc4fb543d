"""`preview`: play moves on a copy of a board and mail the result to the asker; nothing is
saved."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbm.boards import select
from pbm.boards.position import Position, position
from pbm.commands.grammar import Command, Invocation, game_command, usage
from pbm.commands.seats import authenticate_on
from pbm.context import CommandError, Context, shorten
from pbm.games import registry
from pbm.games.base import AnyGame, UserError
from pbm.views.boardmail import BoardPage, Pictures, answer_board, board_text

MAX_MOVES = 40  # the work one command may cause stays small


def split_moves(words: Sequence[str]) -> list[str]:
    """The moves to try: separated by `;` when there is one (for a move that has spaces in
    it), else by spaces."""
    text = " ".join(words)
    parts = text.split(";") if ";" in text else text.split()
    return [part.strip() for part in parts if part.strip()]


def preview(ctx: Context, game: AnyGame, ref: str, userid: str, password: str,
            moves: Sequence[str]) -> str:
    """Play `moves` for whoever is to move at each point (the asker when several are) on a
    copy of the board as it is, or as it was after move n (`101#n`); answer the asker with
    the board that results, as they would see it. Returns that text."""
    info = game.info
    if info.hidden:
        # Even the asker's own move can depend on what is hidden from them (a Pipeline probe
        # reads the other's pipeline, an Outguess turn runs into the other's guess): a free
        # try would tell them without their ever making the move.
        raise CommandError(
            f"Preview is not offered for {info.title}: the game keeps secrets from its players "
            "while it runs, and what a move shows can depend on them, so trying moves on a "
            "copy could reveal them.")
    number, _, upto_text = ref.partition("#")
    if upto_text and not (upto_text.isascii() and upto_text.isdigit()):
        raise CommandError(f"'{shorten(ref)}' is not a board reference: write 101 or 101#12.")
    board = select.load_board(ctx, number, info.name)
    upto = int(upto_text) if upto_text else None
    if upto is not None and not 0 <= upto <= board.move_count:
        raise CommandError(f"Board {board.number} has {board.move_count} moves; there is no "
                           f"move #{upto} to preview from.")
    pos = position(board, upto)
    user = authenticate_on(ctx, pos, userid, password)
    seat = pos.seat_of(user)
    if seat is None:
        players = " and ".join(pos.userid(s.position) for s in board.seats)
        raise CommandError(f"Only the players of board {board.number} ({players}) may preview "
                           "moves on it.", board_text=board_text(pos, None))
    if len(moves) > MAX_MOVES:
        raise CommandError(f"A preview may try at most {MAX_MOVES} moves; this one has "
                           f"{len(moves)}.")
    state, tried = pos.state, list[str]()
    for count, text in enumerate(moves, start=1):
        movers = pos.to_move() if count == 1 else game.to_move(state)
        if not movers:
            raise CommandError(
                f"Preview move {count} ('{shorten(text)}') cannot be tried: the game is over "
                "at that point.", board_text=_text(pos, seat, state, tried))
        mover = seat if seat in movers else min(movers)
        try:
            move = game.parse(state, mover, text)
        except UserError as err:
            raise CommandError(
                f"Preview move {count} ('{shorten(text)}', for {pos.userid(mover)}) cannot be "
                f"played: {err}", board_text=_text(pos, seat, state, tried)) from None
        state = game.play(state, mover, move)
        tried.append(f"{pos.upto + count:>4}. {game.notation(move)} ({pos.userid(mover)})")
    return answer_board(ctx, f"{info.title} Board {board.number} Preview",
                        _page(pos, seat, state, tried), Pictures(game, state), seat)


def _text(pos: Position, viewer: int, state: Any, tried: list[str]) -> str:
    return _page(pos, viewer, state, tried).text()


def _page(pos: Position, viewer: int, state: Any, tried: list[str]) -> BoardPage:
    """The previewed board as `viewer` sees it, with the moves tried to reach it."""
    game, board = pos.game, pos.board
    start = f"after move {pos.upto}" if pos.upto else "at its start"
    lines = [f"Preview of {pos.title} Board {board.number} (nothing has been played or saved)",
             ""]
    if tried:
        lines.append(f"From the board {start}, these moves were tried:")
        lines += tried
    else:
        lines.append(f"The board {start}, before any move tried:")
    outcome = game.result(state) if tried else pos.outcome()
    if outcome is not None:
        if outcome.is_draw:
            lines.append("The game would be a tie.")
        else:
            names = " and ".join(pos.userid(s) for s in sorted(outcome.winners))
            lines.append(f"The game would be won by {names}.")
        if outcome.reason:
            lines.append(outcome.reason)
    elif tried:
        movers = " and ".join(f"{pos.userid(s)}'s" for s in sorted(game.to_move(state)))
        lines.append(f"It would be {movers} turn.")
    return BoardPage("\n".join(lines), game.render(state, viewer).rstrip("\n"))


def do_preview(ctx: Context, inv: Invocation) -> None:
    moves = split_moves(inv.args[3:])
    if not moves:
        raise CommandError(f"No move given. Write: {usage(inv)}")
    assert inv.game is not None
    ref, userid, password = inv.args[:3]
    preview(ctx, registry.get(inv.game), ref, userid, password, moves)


PREVIEW = game_command(Command(
    "preview", "board[#n] userid password move [move ...]",
    "Try moves on a copy of a board (#n: as it was after move n) and get the board that "
    "results; nothing is saved. Moves are separated by spaces, or by ';' when one has "
    "spaces in it. Only a board's players may preview; not offered for games with secrets.",
    do_preview, least=4, secret_args=(2,), login=(1, 2), board_arg=0))
