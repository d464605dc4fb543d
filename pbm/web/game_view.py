"""A game's page: its help page, its boards (running and finished, a page at a time), its
standings, ladder and tournaments."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, defer

from pbm.boards.position import position
from pbm.db.models import Board, BoardStatus, LadderRung, Tournament
from pbm.games import registry
from pbm.views import urls
from pbm.views.boardmail import turn_line
from pbm.views.history import history_cells
from pbm.views.standings import DEFINITIONS, standings, standings_tables
from pbm.views.tournament_page import FORMAT_NAMES, status_cell
from pbm.web.paging import Pager, page_number, pager
from pbm.web.render import Page, html_page


@dataclass(frozen=True)
class BoardRow:
    """A board in a list: its link, players and whose turn it is or how it ended."""

    label: str
    href: str
    players: str
    status: str
    when: str


def running_rows(boards: list[Board]) -> list[BoardRow]:
    rows = []
    for board in boards:
        pos = position(board)
        info = pos.game.info
        players = ", ".join(f"{pos.userid(i)} ({info.seats[i]})" for i in range(info.players))
        rows.append(BoardRow(board.label, urls.board_path(board.game, board.label), players,
                             turn_line(pos), f"{board.updated_at:%Y-%m-%d}"))
    return rows


def finished_rows(boards: list[Board]) -> list[BoardRow]:
    """As the history mail has them: only what the final board mail shows everyone."""
    rows = []
    for board in boards:
        finished, label, result, players, moves, reason = history_cells(board)
        status = "tie" if result == "TIE" else f"won by {result}"
        rows.append(BoardRow(label, urls.board_path(board.game, label), players,
                             f"{status}, {moves}" + (f": {reason}" if reason else ""), finished))
    return rows


def _page_of(session: Session, game: str, status: BoardStatus, number: int, size: int,
             what: str) -> tuple[Pager, list[Board]]:
    where = (Board.game == game, Board.status == status)
    total = session.scalar(select(func.count()).select_from(Board).where(*where)) or 0
    found = pager(number, total, size, what)
    order = (Board.finished_at.desc(), Board.id.desc()) if status == BoardStatus.FINISHED \
        else (Board.updated_at.desc(), Board.id.desc())
    query = select(Board).where(*where).order_by(*order).offset(found.offset).limit(size)
    if status == BoardStatus.FINISHED:
        query = query.options(defer(Board.state))  # the history never needs the position
    return found, list(session.scalars(query))


def game_page(session: Session, game: str, query: dict[str, str], now: datetime,
              size: int, site: str, base: str) -> Page:
    info = registry.get(game).info
    path = urls.game_path(game)
    running_pager, running = _page_of(session, game, BoardStatus.ACTIVE,
                                      page_number(query.get("active"), "active"), size,
                                      "running boards")
    finished_pager, finished = _page_of(session, game, BoardStatus.FINISHED,
                                        page_number(query.get("finished"), "finished"), size,
                                        "finished boards")
    tournaments = list(session.scalars(select(Tournament).where(Tournament.game == game)
                                       .order_by(Tournament.created_at.desc()).limit(20)))
    has_ladder = session.scalar(select(LadderRung.rank).where(LadderRung.game == game)
                                .limit(1)) is not None
    description = info.summary or f"{info.title}, played by mail."
    return html_page(
        "game.html", title=f"{info.title}", game=info, help=registry.get(game).help_page(),
        running=running_rows(running), finished=finished_rows(finished),
        running_pager=running_pager, finished_pager=finished_pager, path=path,
        standings=standings_tables(standings(session, game, now)), definitions=DEFINITIONS,
        tournaments=[(t.name, urls.tournament_path(game, t.name), FORMAT_NAMES[t.format],
                      status_cell(t), len(t.entries)) for t in tournaments],
        ladder=urls.ladder_path(game) if has_ladder else None,
        og={"title": f"{info.title} on {site}", "description": description, "site": site,
            "url": urls.absolute(base, path) if base else ""})
