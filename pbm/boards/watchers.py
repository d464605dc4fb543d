"""Who watches boards: spectators of one board, and users to tell when boards end."""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import ColumnElement, SQLColumnExpression, and_, delete, exists, func, or_, select
from sqlalchemy.orm import Session

from pbm.db.models import Address, Board, EndNotice, Subscription, User


class Spectators(NamedTuple):
    """A board's spectators as its mails need them: their userids (the `Subscribers:`
    line) and the addresses to mail, each with whether its owner takes the drawn board."""

    userids: tuple[str, ...] = ()
    addresses: tuple[tuple[str, bool], ...] = ()


def board_spectators(session: Session, board: Board) -> Spectators:
    """The board's spectators who are active users, by userid, with the addresses that
    receive mail (and users.html for each), in one query.

    On the connection, as plain rows: every board mail asks, and subscribe() flushes its
    row at once, so the ORM has nothing to write first (its autoflush and objects cost
    more than the query on the move path). No query at all for a board its query found
    unwatched (Board.has_spectators)."""
    if board.has_spectators is False:
        return Spectators()
    # An outer join: a spectator with no address that receives mail is still one.
    receives = and_(Address.user_id == User.id,
                    # The same test as addresses.receives_mail, written as SQL.
                    Address.confirmed.is_(True), Address.stopped.is_(False))
    rows = session.connection().execute(
        select(User.userid, Address.address, User.html)
        .join(Subscription, Subscription.user_id == User.id)
        .outerjoin(Address, receives)
        .where(Subscription.board_id == board.id, User.active.is_(True))
        .order_by(User.userid, Address.position))
    userids: dict[str, None] = {}
    found: dict[str, bool] = {}
    for userid, address, html in rows:
        userids[userid] = None
        if address is not None:  # an address two users share: plain if either asked
            found[address] = found.get(address, True) and bool(html)
    return Spectators(tuple(userids), tuple(found.items()))


def is_spectator(session: Session, board: Board, user: User) -> bool:
    return session.get(Subscription, (board.id, user.id)) is not None


def spectators_of(session: Session, board: Board) -> list[User]:
    """The board's spectators who are active users, by userid (`chat` writes to them);
    no query for a board its query found unwatched."""
    if board.has_spectators is False:
        return []
    return list(session.scalars(
        select(User).join(Subscription, Subscription.user_id == User.id)
        .where(Subscription.board_id == board.id, User.active.is_(True))
        .order_by(User.userid)))


def spectators(session: Session, board: Board) -> int:
    return session.scalar(select(func.count()).select_from(Subscription)
                          .where(Subscription.board_id == board.id)) or 0


def subscribe(session: Session, board: Board, user: User) -> None:
    session.add(Subscription(board_id=board.id, user_id=user.id))
    session.flush()
    board.has_spectators = True  # as a query would find it now


def unsubscribe(session: Session, board: Board, user: User) -> None:
    session.execute(delete(Subscription).where(Subscription.board_id == board.id,
                                               Subscription.user_id == user.id))


# ----- end notices ------------------------------------------------------------------------
def notices_for(game: SQLColumnExpression[str] | str,
                board_id: SQLColumnExpression[int] | int) -> ColumnElement[bool]:
    """The end notices that apply to a board: named for it, or for any board of its game.
    With columns, boards.select asks it of each board it loads (Board.has_notifiers)."""
    return and_(EndNotice.game == game,
                or_(EndNotice.board_id.is_(None), EndNotice.board_id == board_id))


def notifier_userids(session: Session, board: Board) -> tuple[str, ...]:
    """The userids of active users to be told when the board ends (its `Notifiers:`
    line), by userid, each once; no query for a board its query found nobody waiting for
    (Board.has_notifiers)."""
    if board.has_notifiers is False:
        return ()
    rows = session.connection().execute(
        select(User.userid).distinct()
        .join(EndNotice, EndNotice.user_id == User.id)
        .where(notices_for(board.game, board.id), User.active.is_(True))
        .order_by(User.userid))
    return tuple(rows.scalars())


def notices_added(session: Session, game: str) -> None:
    """After new end notices in `game`: its boards this session holds ask again (their
    Board.has_notifiers was read before), as subscribe() marks its board."""
    for obj in list(session.identity_map.values()):
        if isinstance(obj, Board) and obj.game == game:
            obj.has_notifiers = True


def notices_of(session: Session, user: User, game: str) -> list[EndNotice]:
    """The user's end notices in `game`: the game-wide one (board None) first."""
    rows = session.scalars(select(EndNotice).where(EndNotice.user_id == user.id,
                                                   EndNotice.game == game))
    return sorted(rows, key=lambda n: (n.board_id is not None, n.board_id or 0))


def notices_on(session: Session, game: str, board: Board | None) -> int:
    """How many users are to be told when this board (None: any board of the game) ends."""
    where = EndNotice.board_id.is_(None) if board is None else EndNotice.board_id == board.id
    return session.scalar(select(func.count()).select_from(EndNotice)
                          .where(EndNotice.game == game, where)) or 0


def to_notify(session: Session, board: Board) -> tuple[list[User], bool]:
    """Users to tell that `board` ended, each once: not its players nor its spectators
    (the final board mail tells them), nor the signed off; and whether any notice named
    this board (those go now). One query: it runs at every ending."""
    players = {seat.user_id for seat in board.seats}
    watching = exists().where(Subscription.board_id == board.id,
                              Subscription.user_id == User.id)
    rows = session.execute(
        select(User, EndNotice.board_id, watching)
        .join(EndNotice, EndNotice.user_id == User.id)
        .where(notices_for(board.game, board.id))
        .order_by(User.userid))
    found: dict[int, User] = {}
    named = False
    for user, board_id, spectator in rows:
        named = named or board_id is not None
        if user.active and not spectator and user.id not in players:
            found[user.id] = user
    return list(found.values()), named


def forget_board_notices(session: Session, board: Board) -> None:
    """Notices asked for this board by number have fired: they go."""
    session.execute(delete(EndNotice).where(EndNotice.board_id == board.id))
