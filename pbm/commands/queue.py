"""The queue command: a move played for you when your turn comes, or replies to the
opponent's next move; `clear` takes it back."""

from __future__ import annotations

from pbm.boards import select
from pbm.boards.position import position
from pbm.boards.queue import Queued, conditional, queued_of, read_request, store
from pbm.commands.grammar import Command, Invocation, game_command, usage
from pbm.commands.seats import authenticate_on, seat_on
from pbm.context import CommandError, Context
from pbm.db.models import BoardStatus
from pbm.games import registry
from pbm.games.base import AnyGame
from pbm.views.boardmail import board_text

CLEAR = "clear"


def queue(ctx: Context, game: AnyGame, number: str, userid: str, password: str,
          text: str) -> Queued | None:
    """Queue `text` for the user's next turn on the board (replacing what was queued), or
    clear the queue; returns what is queued now.

    On the player's own turn nothing is queued: the position the move would meet is the one
    they can see, so they are asked to send it with `move` (a queued move is for a turn
    that has not come)."""
    board = select.load_board(ctx, number, game.info.name, to_change=True)
    pos = position(board)
    user = authenticate_on(ctx, pos, userid, password)
    seat = seat_on(pos, user)
    word, title = game.info.name, f"{pos.title} Board {board.label}"
    if board.status != BoardStatus.ACTIVE or pos.outcome() is not None:
        raise CommandError(f"Board {board.label} is over; nothing can be queued on it.",
                           board_text=board_text(pos, seat))
    if text.lower() == CLEAR:
        before = queued_of(board, seat)
        store(board, seat, None)
        if before is None:
            ctx.answer(title, f"Nothing was queued on board {board.label}.\n")
        else:
            ctx.answer(title, f"Your queue on board {board.label} is cleared (it held "
                              f"{before.describe()}).\n")
        return None
    request = read_request(text)
    if seat in pos.to_move():
        raise CommandError(
            f"It is your turn on board {board.label} now, so there is nothing to queue: "
            f"send your move with '{word} move {board.label} {user.userid} PASSWORD MOVE'.",
            board_text=board_text(pos, seat))
    if isinstance(request, str):
        queued = Queued(move=request)
        played = (f"{queued.move} will be played for you when your turn comes; if it is not "
                  "legal then, it is dropped and you are told why.")
    else:
        queued = conditional(pos, seat, request)
        (opponent,) = pos.to_move()
        replies = "; ".join(f"if {pos.userid(opponent)} plays {condition}, {reply} will be "
                            "played for you" for condition, reply in queued.when)
        played = (f"{replies[0].upper()}{replies[1:]}. If {pos.userid(opponent)} plays "
                  "anything else, the queue is cleared and you are told.")
    replaced = queued_of(board, seat)
    store(board, seat, queued)
    lines = [f"Queued on {pos.title} board {board.label}: {queued.describe()}.", played]
    if replaced is not None:
        lines.append(f"This replaces {replaced.describe()}, queued before.")
    if board.seats[seat].resign_queued:
        lines.append("Your resignation is queued too, and it comes first: when your turn "
                     "comes you resign and the queued move is not played.")
    lines.append(f"To take it back: {word} queue {board.label} {user.userid} PASSWORD clear")
    ctx.answer(title, "\n".join(lines) + "\n")
    return queued


def do_queue(ctx: Context, inv: Invocation) -> None:
    number, userid, password = inv.args[:3]
    text = " ".join(inv.args[3:])
    if not text:
        raise CommandError(f"No move given. Write: {usage(inv)}")
    assert inv.game is not None
    queue(ctx, registry.get(inv.game), number, userid, password, text)


QUEUE = game_command(Command(
    "queue", "board userid password move | reply if move, ... | clear",
    "Queue a move, played for you (marked (Auto)) when your turn comes; or replies to the "
    "opponent's next move ('K10 if L11, J9 if M2': anything else clears the queue; not in "
    "games with secret moves). 'clear' takes it back; a new queue replaces the old. On your "
    "turn, use move instead.",
    do_queue, aliases=("qmove", "qboard", "moveq", "boardq"), least=4, secret_args=(2,),
    login=(1, 2), board_arg=0))
