"""A player's page: their boards in every game, their rating in each with its history
drawn, and their finished games a page at a time."""

from __future__ import annotations

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session, defer

from pbm.db.models import Board, BoardStatus, Rating, Seat, User
from pbm.games import registry
from pbm.views import urls
from pbm.web.chart import rating_chart, rating_history
from pbm.web.game_view import finished_rows, running_rows
from pbm.web.paging import page_number, pager
from pbm.web.render import Page, html_page

RUNNING_SHOWN = 200  # a player's running boards on one page at most, newest change first


def _theirs(user: User, status: BoardStatus) -> tuple[ColumnElement[bool], ...]:
    return (Board.status == status,
            Board.id.in_(select(Seat.board_id).where(Seat.user_id == user.id)))


def player_page(session: Session, user: User, query: dict[str, str], size: int, site: str,
                base: str) -> Page:
    path = urls.player_path(user.userid)
    running = list(session.scalars(select(Board).where(*_theirs(user, BoardStatus.ACTIVE))
                                   .order_by(Board.updated_at.desc(), Board.id.desc())
                                   .limit(RUNNING_SHOWN)))
    where = _theirs(user, BoardStatus.FINISHED)
    total = session.scalar(select(func.count()).select_from(Board).where(*where)) or 0
    finished_pager = pager(page_number(query.get("finished"), "finished"), total, size,
                           "finished games")
    finished = list(session.scalars(
        select(Board).where(*where).options(defer(Board.state))
        .order_by(Board.finished_at.desc(), Board.id.desc())
        .offset(finished_pager.offset).limit(size)))
    records = list(session.scalars(select(Rating).where(Rating.user_id == user.id)
                                   .order_by(Rating.game)))
    history = rating_history(session, user)
    ratings = []
    for record in records:
        if record.game not in registry.names():
            continue  # a game this server no longer offers
        title = registry.get(record.game).info.title
        ratings.append({"title": title, "href": urls.game_path(record.game),
                        "rating": record.rating, "won": record.won, "lost": record.lost,
                        "tied": record.tied,
                        "chart": rating_chart(history.get(record.game, []),
                                              f"{user.userid}'s {title} rating")})
    games = {board.game: registry.get(board.game).info.title for board in [*running, *finished]}
    description = (f"{user.userid} plays {len(running)} board{'s' if len(running) != 1 else ''}"
                   f" and has finished {total} game{'s' if total != 1 else ''} on {site}.")
    return html_page(
        "player.html", title=f"{user.userid} on {site}", user=user, bot=user.bot is not None,
        running=list(zip([games[b.game] for b in running], running_rows(running))),
        running_more=len(running) == RUNNING_SHOWN,
        finished=list(zip([games[b.game] for b in finished], finished_rows(finished))),
        finished_pager=finished_pager, path=path, ratings=ratings,
        feed=urls.player_path(user.userid, "atom"),
        og={"title": f"{user.userid} on {site}", "description": description, "site": site,
            "url": urls.absolute(base, path) if base else ""})
