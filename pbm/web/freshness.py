"""What a board's page depends on, read in one small query: the page's ETag, and the key
under which a page made earlier may be served again (web/page_cache.py)."""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from sqlalchemy import Select, bindparam, func, select
from sqlalchemy.orm import Session

from pbm.boards import names
from pbm.boards.watchers import notices_for
from pbm.db.models import Board, BoardStatus, EndNotice, Subscription


class Freshness(NamedTuple):
    """A board's every change (its moves, its status, its vote: each touches the row),
    the last rated game of the server (it moves the players' ratings shown), and who
    watches the board or waits for its end (the page's Subscribers and Notifiers)."""

    board_id: int
    move_count: int
    stamp: tuple[Any, ...]

    @property
    def active(self) -> bool:
        return self.stamp[0] == BoardStatus.ACTIVE.value


@cache
def _query() -> Select[Any]:
    """Built once: the board and its game are bound at each call."""
    subscribed = Subscription.board_id == Board.id
    waiting = notices_for(Board.game, Board.id)
    return select(
        Board.id, Board.move_count, Board.status, Board.updated_at, Board.proposal,
        select(func.max(Board.rating_seq)).scalar_subquery(),
        # How many, and a sum of who: one leaving as another joins still changes it.
        select(func.count()).where(subscribed).scalar_subquery(),
        select(func.coalesce(func.sum(Subscription.user_id), 0)).where(subscribed)
        .scalar_subquery(),
        select(func.count()).select_from(EndNotice).where(waiting).scalar_subquery(),
        select(func.coalesce(func.sum(EndNotice.user_id), 0)).where(waiting)
        .scalar_subquery(),
    ).where(Board.game == bindparam("game"), Board.prefix == bindparam("prefix"),
            Board.number == bindparam("number"), Board.status != BoardStatus.DECLINED)


def freshness(session: Session, game: str, label: str) -> Freshness | None:
    """The board's freshness, or None where the label names no board (the caller then
    says why, as a mail command would)."""
    name = names.parse(label)
    if name is None or not name.storable:
        return None
    row = session.connection().execute(_query(), {"game": game, "prefix": name.prefix,
                                                  "number": name.number}).first()
    if row is None:
        return None
    board_id, moves, status, updated, proposal, *rest = row
    return Freshness(board_id, moves, (getattr(status, "value", status), str(updated),
                                       repr(proposal), *rest))
