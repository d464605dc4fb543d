"""A tournament's page and a game's ladder: the tables their mails hold, with links."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbm.db.models import Board, Tournament
from pbm.games import registry
from pbm.views import urls
from pbm.views.ladder_page import ladder_page, ladder_text
from pbm.views.tournament_page import tournament_text
from pbm.web.lookup import NotFound
from pbm.web.render import Page, html_page


def tournament_page(session: Session, game: str, name: str, site: str) -> Page:
    tournament = None
    if name.isascii() and 0 < len(name) <= 32:
        tournament = session.scalar(select(Tournament).where(
            Tournament.game == game, Tournament.name == name.lower()))
    title = registry.get(game).info.title
    if tournament is None:
        raise NotFound(f"There is no {title} tournament {name[:32]!r}.")
    boards = session.execute(select(Board.prefix, Board.number).where(
        Board.game == game, Board.prefix == tournament.prefix).order_by(Board.number)).all()
    links = [(f"{prefix}{number}", urls.board_path(game, f"{prefix}{number}"))
             for prefix, number in boards]
    heading = f"{title} tournament {tournament.name}"
    return html_page("text.html", title=f"{heading} on {site}", heading=heading,
                     game=registry.get(game).info, game_href=urls.game_path(game),
                     text=tournament_text(session, tournament), links=links,
                     og={"title": heading, "description": f"{heading} on {site}",
                         "site": site, "url": ""})


def ladder(session: Session, game: str, reach: int, site: str) -> Page:
    info = registry.get(game).info
    heading = f"The {info.title} ladder"
    return html_page("text.html", title=f"{heading} on {site}", heading=heading, game=info,
                     game_href=urls.game_path(game),
                     text=ladder_text(ladder_page(session, game, info.title, reach)),
                     links=[], og={"title": heading, "description": f"{heading} on {site}",
                                   "site": site, "url": ""})
