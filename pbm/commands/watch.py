"""Watching games you do not play: `subscribe`/`unsubscribe` a board, `notify` of endings."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sql

from pbm.accounts.users import authenticate
from pbm.boards import select, watchers
from pbm.boards.position import position, seat_of
from pbm.commands.grammar import Command, Invocation, game_command
from pbm.context import CommandError, Context
from pbm.db.models import Board, BoardStatus, EndNotice, User
from pbm.games import registry
from pbm.games.base import AnyGame
from pbm.views.boardmail import Pictures, answer_board, board_page
from pbm.width import fit


def _watchable(board: Board, user: User, what: str) -> None:
    """Only a running board someone does not play on can be watched."""
    if seat_of(board, user) is not None:
        raise CommandError(f"{user.userid} plays on board {board.label} and gets its board "
                           f"mails anyway; there is no need to {what}.")
    if board.status != BoardStatus.ACTIVE:
        raise CommandError(f"Board {board.label} is over: there is nothing more to {what}. "
                           f"Send '{board.game} show {board.label}' to see how it ended.")


# ----- subscribe / unsubscribe ------------------------------------------------------------
def subscribe(ctx: Context, game: AnyGame, number: str, userid: str,
              password: str | None) -> None:
    """From now on the user gets every board mail of the board, as the public sees it."""
    board = select.load_board(ctx, number, game.info.name)
    user = authenticate(ctx, userid, password or "", [seat.user for seat in board.seats])
    title = f"{game.info.title} Board {board.label}"
    _watchable(board, user, "subscribe")
    stop = f"To stop: {game.info.name} unsubscribe {board.label} {user.userid} PASSWORD\n"
    if watchers.is_spectator(ctx.session, board, user):
        ctx.answer(f"{title} subscribed", f"{user.userid} already watches {title}. {stop}")
        return
    most = ctx.limits.watchers_per_board
    if most and watchers.spectators(ctx.session, board) >= most:
        raise CommandError(f"{title} has {most} spectators, the most one board may have; "
                           f"{user.userid} was not added. Send '{game.info.name} show "
                           f"{board.label}' to look at it now and then.")
    watchers.subscribe(ctx.session, board, user)
    pos = position(board)
    page = board_page(pos, None, now=ctx.now).after(
        fit(f"{user.userid} now watches {title}: every board mail of it comes to you too, "
            f"as the public sees it (no player's secrets). {stop}").rstrip("\n"))
    answer_board(ctx, f"{title} subscribed", page.linked(ctx, pos),
                 Pictures(pos.game, pos.state), None)


def unsubscribe(ctx: Context, game: AnyGame, number: str, userid: str,
                password: str | None) -> None:
    board = select.load_board(ctx, number, game.info.name)
    user = authenticate(ctx, userid, password or "", [seat.user for seat in board.seats])
    title = f"{game.info.title} Board {board.label}"
    if not watchers.is_spectator(ctx.session, board, user):
        raise CommandError(f"{user.userid} does not watch {title}, so there is nothing to "
                           "stop.")
    watchers.unsubscribe(ctx.session, board, user)
    ctx.answer(f"{title} unsubscribed",
               f"{user.userid} no longer watches {title}: its board mails stop.\n")


def do_subscribe(ctx: Context, inv: Invocation) -> None:
    assert inv.game is not None
    subscribe(ctx, registry.get(inv.game), *inv.args)


def do_unsubscribe(ctx: Context, inv: Invocation) -> None:
    assert inv.game is not None
    unsubscribe(ctx, registry.get(inv.game), *inv.args)


# ----- notify -----------------------------------------------------------------------------
def _boards(ctx: Context, game: AnyGame, numbers: Sequence[str]) -> list[Board]:
    limit = ctx.limits.boards_per_command
    if limit and len(numbers) > limit:
        raise CommandError(f"One command may name at most {limit} boards; this one named "
                           f"{len(numbers)}. Name the others in another command.")
    found = {board.id: board for board in
             (select.load_board(ctx, number, game.info.name) for number in numbers)}
    return list(found.values())


def notify(ctx: Context, game: AnyGame, userid: str, password: str | None,
           words: Sequence[str] = ()) -> None:
    """Be mailed when the boards named end, or (none named) when any board of the game does;
    asked for again, a notice stops, as pbmserv's toggle does. `off` first only stops them
    (all of this game's, with no board named)."""
    user = authenticate(ctx, userid, password or "")
    off = bool(words) and words[0].lower() == "off"
    numbers = list(words[1:] if off else words)
    boards = _boards(ctx, game, numbers)
    mine = watchers.notices_of(ctx.session, user, game.info.name)
    by_board = {notice.board_id: notice for notice in mine}
    if off:
        gone = [by_board.get(board.id) for board in boards] if boards else mine
        if not gone or None in gone:
            which = "those boards" if boards else f"{game.info.title} games"
            raise CommandError(f"{user.userid} is not told when {which} end, so there is "
                               f"nothing to stop. {_listing(ctx, user, game, mine)}")
        said = [_told(game, boards, False)]
        stopped = [notice for notice in gone if notice is not None]
        started: list[Board | None] = []
    else:
        # None stands for the notice of any board of the game.
        targets: list[Board | None] = list(boards) or [None]
        kept = [board for board in targets if _id(board) in by_board]
        started = [board for board in targets if _id(board) not in by_board]
        for board in started:
            if board is not None:
                _watchable(board, user, "be told of its end")
        stopped = [by_board[_id(board)] for board in kept]
        said = [_told(game, group, on) for group, on in ((started, True), (kept, False))
                if group]
    for notice in stopped:
        ctx.session.delete(notice)
    ctx.session.flush()
    for board in started:
        _check_room(ctx, game, board)
        ctx.session.add(EndNotice(user_id=user.id, game=game.info.name,
                                  board_id=_id(board)))
    ctx.session.flush()
    if started:  # a move later in this mail lists the new notifier
        watchers.notices_added(ctx.session, game.info.name)
    now = watchers.notices_of(ctx.session, user, game.info.name)
    ctx.answer(f"{game.info.title} notify",
               "".join(f"{line}\n" for line in said) + "\n" +
               _listing(ctx, user, game, now) + "\n")


def _id(board: Board | None) -> int | None:
    return None if board is None else board.id


def _told(game: AnyGame, targets: Sequence[Board | None], on: bool) -> str:
    """Which way notices went, in words: for the boards, or (None) for any board."""
    title = game.info.title
    boards = [board for board in targets if board is not None]
    if not boards:
        return f"You will be told when any {title} board ends." if on else \
            f"You will no longer be told when {title} boards end."
    numbers = ", ".join(board.label for board in
                        sorted(boards, key=lambda board: (board.prefix, board.number)))
    which = f"{title} board {numbers} ends" if len(boards) == 1 else \
        f"{title} boards {numbers} end"
    return f"You will {'' if on else 'no longer '}be told when {which}."


def _check_room(ctx: Context, game: AnyGame, board: Board | None) -> None:
    """End notices are mailed at an ending another player causes: bounded per board and
    per game."""
    most = ctx.limits.watchers_per_board
    if most and watchers.notices_on(ctx.session, game.info.name, board) >= most:
        what = f"board {board.label}" if board is not None else \
            f"any {game.info.title} board"
        raise CommandError(f"{most} users are told when {what} ends, the most allowed; "
                           "nothing was changed.")


def _listing(ctx: Context, user: User, game: AnyGame, notices: list[EndNotice]) -> str:
    """What the user is told of now, in words."""
    name, title = game.info.name, game.info.title
    if not notices:
        return (f"{user.userid} is told of no {title} game's end. To be: {name} notify "
                f"{user.userid} PASSWORD [board ...]")
    ids = [n.board_id for n in notices if n.board_id is not None]
    numbers = [f"{prefix}{number}" for prefix, number in ctx.session.execute(
        sql.select(Board.prefix, Board.number).where(Board.id.in_(ids))
        .order_by(Board.prefix, Board.number))] if ids else []
    parts = []
    if any(n.board_id is None for n in notices):
        parts.append(f"any {title} board")
    if numbers:
        parts.append(f"{title} board{'s' if len(numbers) > 1 else ''} {', '.join(numbers)}")
    ends = "end" if len(numbers) > 1 else "ends"  # the verb agrees with the nearest part
    return (f"{user.userid} is mailed when {' or '.join(parts)} {ends}. Asked for again, a "
            f"notice stops; {name} notify {user.userid} PASSWORD off stops them all.")


def do_notify(ctx: Context, inv: Invocation) -> None:
    assert inv.game is not None
    notify(ctx, registry.get(inv.game), inv.args[0], inv.args[1], inv.args[2:])


SUBSCRIBE = game_command(Command(
    "subscribe", "board userid password",
    "Watch a board you do not play on: you get every board mail of it, as the public sees "
    "it.", do_subscribe, aliases=("sub",), least=3, most=3, secret_args=(2,), login=(1, 2),
    board_arg=0))
UNSUBSCRIBE = game_command(Command(
    "unsubscribe", "board userid password", "Stop watching a board.", do_unsubscribe,
    aliases=("unsub",), least=3, most=3, secret_args=(2,), login=(1, 2), board_arg=0))
NOTIFY = game_command(Command(
    "notify", "userid password [off] [board ...]",
    "Be mailed when those boards end (named by number), or when any board of this game ends "
    "(none named). Sent again, it stops that notice. 'off' only stops: for the boards "
    "named, or every notice of this game.",
    do_notify, least=2, secret_args=(1,), login=(0, 1)))
