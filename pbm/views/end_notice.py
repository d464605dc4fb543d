"""The mail to users who asked to be told when a board ends (`GAME notify`)."""

from __future__ import annotations

from pbm.accounts.addresses import addresses_of
from pbm.boards import watchers
from pbm.boards.position import Position
from pbm.context import Context, Reply, board_thread
from pbm.views.boardmail import Pictures, board_page, turn_line


def board_ended(ctx: Context, pos: Position) -> None:
    """Tell every user waiting for this board's end (not its players: they have the final
    board mail) how it ended, with the public final board; notices for it by number go."""
    board = pos.board
    users, named = watchers.to_notify(ctx.session, board)
    if named:
        watchers.forget_board_notices(ctx.session, board)
    if not users:
        return
    title = f"{pos.title} Board {board.label}"
    page = board_page(pos, None, now=ctx.now).after(f"{title} has ended: {turn_line(pos)}") \
        .before(f"(You asked to be told: {board.game} notify. To stop: {board.game} notify "
                "YOURID PASSWORD off)").linked(ctx, pos)
    pictures = Pictures(pos.game, pos.state)
    for user in users:
        body, html = pictures.mail(page, None, user.html)
        ctx.replies.append(Reply(addresses_of(user), f"{title} has ended", body, "notice",
                                 board_thread(board), html=html))
