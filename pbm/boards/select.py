"""Choosing boards: one by its number, or a player's boards by what they ask for."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from enum import StrEnum
from functools import cache

from sqlalchemy import ColumnElement, Select, and_, bindparam, exists, or_, select
from sqlalchemy.orm import Session, joinedload, with_expression

from pbm.boards import names
from pbm.boards.position import position
from pbm.boards.watchers import notices_for
from pbm.context import CommandError, Context, shorten
from pbm.db.models import Board, BoardStatus, Seat, Subscription, User
from pbm.games import registry


def load_board(ctx: Context, name_text: str, game_name: str | None = None, *,
               to_change: bool = False) -> Board:
    """The board of `game_name` with this name (boards are numbered from 101 in each game,
    a tournament's from a101 apart from them: boards.names); a clear error if there is
    none. Without a game (the operator's tools), the name must name one board of all games.

    `to_change`: the command may change the board, so its row is locked until the commit
    (a move on the same board at another node waits, then finds it as this one left it)."""
    name = names.parse(name_text)
    if name is None:
        raise CommandError(f"'{shorten(name_text)}' is not a board number (boards are "
                           "numbered 101, 102, ..., a tournament's a101, a102, ...).")
    text = name.written  # errors name the board as it was written
    what = registry.get(game_name).info.title + " board" if game_name else "board"
    if not name.storable:  # numbers past what the database can store name no board either
        raise CommandError(f"There is no {what} {shorten(text)}.")
    query = _board_query(by_game=game_name is not None, to_change=to_change)
    found = list(ctx.session.scalars(query, {"number": name.number, "prefix": name.prefix,
                                             "game": game_name}).unique())
    if not found and game_name:
        elsewhere = sorted(ctx.session.scalars(select(Board.game).where(
            Board.number == name.number, Board.prefix == name.prefix,
            Board.status != BoardStatus.DECLINED)))
        if elsewhere:  # a player who wrote the wrong game word
            others = " and ".join(registry.get(other).info.title for other in elsewhere)
            raise CommandError(f"There is no {what} {text}; boards are numbered per game, and "
                               f"{text} is a {others} board: send '{elsewhere[0]} ...' for it.")
    if not found:
        raise CommandError(f"There is no {what} {shorten(text)}.")
    if len(found) > 1:
        games = " and ".join(sorted(board.game for board in found))
        raise CommandError(f"There is a board {text} in {games}: say which game.")
    return found[0]


def names_a_tournament(session: Session, game: str, prefix: str) -> bool:
    """Whether `game` has boards named with `prefix` (a tournament's): where a word such as
    `bob1` may be a userid or a board name, it is a board's only then."""
    return session.scalar(select(Board.id).where(Board.game == game, Board.prefix == prefix)
                          .limit(1)) is not None


@cache
def _board_query(*, by_game: bool, to_change: bool) -> Select[Board]:
    """load_board's query, built once for each of its shapes (on the move path, building it
    cost as much as running it): the number, its prefix and the game are bound at each call."""
    query = (select(Board).where(Board.number == bindparam("number"),
                                 Board.prefix == bindparam("prefix"),
                                 Board.status != BoardStatus.DECLINED)
             # The board with its players and their addresses in one query: every use
             # needs them. And whether anyone watches it or waits for its end: most
             # boards' mails go to their players alone, and then need no query for their
             # spectators nor for their `Notifiers:` line.
             .options(joinedload(Board.seats).joinedload(Seat.user).joinedload(User.addresses),
                      with_expression(Board.has_spectators,
                                      exists().where(Subscription.board_id == Board.id)),
                      with_expression(Board.has_notifiers,
                                      exists().where(notices_for(Board.game, Board.id)))))
    if to_change:
        query = _locked(query)
    if by_game:
        query = query.where(Board.game == bindparam("game"))
    return query


def _locked(query: Select[Board]) -> Select[Board]:
    """The boards' rows locked until the commit and read afresh, even if this transaction
    has them already: another node may have changed them since. Only the boards' rows (their
    players' sit on an outer join's nullable side). Nothing on SQLite, whose one writer
    holds everything already."""
    return query.with_for_update(of=Board).execution_options(populate_existing=True)


CHUNK = 500  # boards read at once where a listing streams


class Which(StrEnum):
    """Which of a player's boards (or a game's) a listing or `show` means."""

    # In play; in a listing, also finished but not yet archived (pbmserv's active list),
    # which the listing puts under a heading of their own, never under "Active".
    ACTIVE = "active"
    INACTIVE = "inactive"  # finished
    NEXT = "next"  # active, and the player's turn
    ALL = "all"


def boards(session: Session, *, game: str | None = None, user: User | None = None,
           which: Which = Which.ACTIVE, archived_before: datetime | None = None,
           limit: int | None = None, to_change: bool = False,
           first: tuple[str, int] | None = None) -> list[Board]:
    """Boards in order (see `_query`): of one game or all, of one player or everyone, `which`
    of them, the first `limit` of them (from the board named `first`, (prefix, number), on,
    where a listing goes on from a board).
    Declined boards are gone for everyone (see `_query`).

    With `archived_before` the boards are for a listing: boards finished before then are
    archived and left out, and ACTIVE ("the active list") also holds those finished since.
    Without it, ACTIVE means boards in play and finished boards are kept forever.
    `to_change`: locked until the commit, as `load_board` locks one."""
    query = _query(game=game, user=user, which=which, archived_before=archived_before)
    if first is not None:
        prefix, number = first
        query = query.where(or_(Board.prefix > prefix,
                                and_(Board.prefix == prefix, Board.number >= number)))
    if to_change:
        query = _locked(query)
    if which is Which.NEXT and user is not None:
        # Whose turn it is lives in the game state, which only the rule module reads: the
        # player's boards are read in chunks until `limit` of them are found.
        found = []
        with session.scalars(query.execution_options(yield_per=CHUNK)) as chunks:
            for board in chunks:
                if _is_turn_of(board, user):
                    found.append(board)
                    if limit is not None and len(found) >= limit:
                        break
        return found
    return list(session.scalars(query.limit(limit)))


def every_board(session: Session, *, user: User | None = None, which: Which = Which.ACTIVE,
                archived_before: datetime | None = None) -> Iterator[Board]:
    """The boards `boards` would list without a limit, read in chunks as they are used: the
    operator's full listing of a store of 100,000 boards never holds them all at once."""
    query = _query(user=user, which=which, archived_before=archived_before)
    with session.scalars(query.execution_options(yield_per=CHUNK)) as chunks:
        yield from chunks


def _query(*, game: str | None = None, user: User | None = None, which: Which = Which.ACTIVE,
           archived_before: datetime | None = None) -> Select[Board]:
    """The one place the filter of `boards` is written, ordered by board: the ordinary boards
    first, then each tournament's (by prefix), each lot in the order they were started
    (which, within a game, is by number)."""
    query = select(Board).where(Board.status != BoardStatus.DECLINED)
    if user is not None:
        # Start from the player's seats (indexed by user): joining them to boards let the
        # planner scan every active board of the game instead, which grows with the store.
        query = query.where(Board.id.in_(select(Seat.board_id).where(Seat.user_id == user.id)))
    if game is not None:
        # Of one player's boards, the seats already leave a few: `game || ''` keeps the
        # planner off the (game, status, finished_at) index, which it would otherwise take
        # to walk every board of the game (7x slower `games USERID` at 100,000 boards).
        of_game = Board.game + "" if user is not None else Board.game
        query = query.where(of_game == game)
    in_play = Board.status == BoardStatus.ACTIVE
    finished: ColumnElement[bool] = Board.status == BoardStatus.FINISHED
    if archived_before is not None:
        finished = and_(finished, Board.finished_at >= archived_before)
    if which is Which.NEXT or (which is Which.ACTIVE and archived_before is None):
        query = query.where(in_play)
    elif which is Which.INACTIVE:
        query = query.where(finished)
    elif archived_before is not None:  # a listing's active or all: in play or not archived
        query = query.where(in_play | finished)
    return query.order_by(Board.prefix, Board.id)


def archive_cutoff(ctx: Context) -> datetime:
    """Boards that finished before this moment have left the lists (`archive_days`)."""
    return ctx.now - timedelta(days=ctx.time.archive_days)


def _is_turn_of(board: Board, user: User) -> bool:
    pos = position(board)
    seat = pos.seat_of(user)
    return seat is not None and seat in pos.to_move()
