"""The front page: the games on offer, the games just finished, and who seeks a game."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session, defer

from pbm.config import BotSettings
from pbm.db.models import Board, BoardStatus, ChallengePolicy, User
from pbm.games import registry
from pbm.views import urls
from pbm.web.game_view import finished_rows
from pbm.web.render import Page, html_page

RECENT = 20  # finished games listed
SEEKERS = 50


def front_page(session: Session, bots: BotSettings, site: str, address: str,
               base: str) -> Page:
    games = registry.names()
    running = dict(session.execute(
        select(Board.game, func.count()).where(Board.status == BoardStatus.ACTIVE)
        .group_by(Board.game)).all())
    offered = [{"name": name, "title": registry.get(name).info.title,
                "summary": registry.get(name).info.summary, "href": urls.game_path(name),
                "running": running.get(name, 0), "bots": bots.plays(name)} for name in games]
    # Per game, on its (game, status, finished_at) index, then merged: one scan of the
    # newest, never a sort of every finished board.
    recent: list[Board] = []
    for name in games:
        recent += session.scalars(
            select(Board).where(Board.game == name, Board.status == BoardStatus.FINISHED)
            .options(defer(Board.state)).order_by(Board.finished_at.desc()).limit(RECENT))
    recent.sort(key=lambda b: (b.finished_at is not None, b.finished_at), reverse=True)
    recent = recent[:RECENT]
    seeking = session.execute(
        select(User.userid, ChallengePolicy.game, ChallengePolicy.seeking)
        .join(User, User.id == ChallengePolicy.user_id)
        .where(ChallengePolicy.seeking > 0, User.active.is_(True))
        .order_by(ChallengePolicy.seeking_since).limit(SEEKERS)).all()
    seekers = [{"userid": userid, "href": urls.player_path(userid),
                "title": registry.get(game).info.title, "game": game, "seeking": count}
               for userid, game, count in seeking if game in games]
    titles = {name: registry.get(name).info.title for name in games}
    return html_page(
        "front.html", title=site, site=site, address=address, games=offered,
        recent=list(zip([titles.get(b.game, b.game) for b in recent], finished_rows(recent))),
        seekers=seekers,
        og={"title": site, "description": "Board games by mail: "
            + ", ".join(titles.values()) + ".", "site": site, "url": base})
