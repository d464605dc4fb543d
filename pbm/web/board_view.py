"""A board's page: the drawn board, its players, whose turn, the clock, every move with a
link to the position after it, comments and the result. Only the public view: exactly
what a spectator's mail shows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from markupsafe import Markup
from sqlalchemy import select
from sqlalchemy.orm import Session

from pbm.boards.position import LoggedMove, Position, move_seen, position
from pbm.boards.proposal import proposal_lines
from pbm.db.models import Board, BoardStatus, Move, Rating
from pbm.games import registry
from pbm.ratings.formulas import START
from pbm.views import urls
from pbm.views.boardmail import Pictures, clock_lines, turn_line
from pbm.views.clock_block import clock_block
from pbm.views.rating_lines import rating_lines
from pbm.views.watcher_lines import board_watcher_lines
from pbm.web.render import Page, html_page


@dataclass(frozen=True)
class MoveRow:
    """One line of the page's move list."""

    number: int
    player: str
    seat: str
    text: str
    comment: str | None
    when: datetime
    href: str


@dataclass(frozen=True)
class Player:
    seat: str
    userid: str
    rating: int
    href: str
    to_move: bool


def board_title(board: Board) -> str:
    title = registry.get(board.game).info.title
    players = " vs ".join(seat.user.userid for seat in board.seats)
    return f"{title} Board {board.label}: {players}"


def move_rows(session: Session, board: Board, revealed: bool) -> list[MoveRow]:
    """Every move of the log as the public sees it (the secrets only once the game is
    over), with its comment: one query, whatever the board's length."""
    seats = registry.get(board.game).info.seats
    userids = [seat.user.userid for seat in board.seats]
    found = session.execute(
        select(Move.number, Move.seat, Move.notation, Move.shown, Move.kind, Move.auto,
               Move.comment, Move.created_at)
        .where(Move.board_id == board.id).order_by(Move.number))
    return [MoveRow(number, userids[seat], seats[seat],
                    move_seen(LoggedMove(number, seat, notation, shown, kind, auto), None,
                              revealed),
                    comment, when, urls.board_path(board.game, board.label, number))
            for number, seat, notation, shown, kind, auto, comment, when in found]


def players(session: Session, pos: Position) -> list[Player]:
    """The players by seat with their ratings in this game now."""
    board = pos.board
    ids = [seat.user_id for seat in board.seats]
    ratings = dict(session.execute(select(Rating.user_id, Rating.rating).where(
        Rating.game == board.game, Rating.user_id.in_(ids))).all())
    moving = pos.to_move()
    info = pos.game.info
    return [Player(info.seats[seat.position], seat.user.userid, ratings.get(seat.user_id, START),
                   urls.player_path(seat.user.userid), seat.position in moving)
            for seat in board.seats]


def board_page(session: Session, board: Board, upto: int | None, now: datetime,
               base: str, site: str, etag: str) -> Page:
    """The page of `board` (after `upto` moves; None: as it is now), under `etag`
    (web/freshness.py says what it depends on)."""
    current = upto is None or upto == board.move_count
    pos = position(board, None if current else upto)
    seated = players(session, pos)
    watching = board_watcher_lines(board) if current else []
    finished = board.status == BoardStatus.FINISHED
    rows = move_rows(session, board, revealed=finished)
    lines = [turn_line(pos)]
    outcome = pos.outcome()
    if outcome is not None and outcome.reason:
        lines.append(outcome.reason)
    lines += rating_lines(pos) + proposal_lines(pos, None)
    if current and pos.to_move():
        lines += clock_lines(pos, now)
    picture = Pictures(pos.game, pos.state).of(None)
    path = urls.board_path(board.game, board.label)
    title = board_title(board)
    if not current:
        title += f", after move {pos.upto}"

    def step(number: int) -> str | None:
        if not 0 <= number <= board.move_count or number == pos.upto:
            return None
        return path if number == board.move_count else urls.board_path(board.game,
                                                                        board.label, number)

    return html_page(
        "board.html", etag=etag, max_age=60 if board.status == BoardStatus.ACTIVE else 3600,
        title=title, board=board, game=pos.game.info, lines=lines, players=seated,
        picture=Markup(picture) if picture is not None else None,
        picture_style=Markup(registry.picture_style(board.game)),
        text_board=pos.game.render(pos.state, None).rstrip("\n"),
        moves=rows, upto=pos.upto, current=current, watching=watching,
        clock="\n".join(clock_block(pos, now)) if current else "",
        first=step(0), previous=step(pos.upto - 1), next=step(pos.upto + 1),
        last=step(board.move_count), path=path,
        game_href=urls.game_path(board.game),
        records={kind: urls.record_path(board.game, board.label, kind)
                 for kind in ("json", "txt", "atom")},
        og={"title": title, "description": " ".join(lines[:2]), "site": site,
            "url": urls.absolute(base, path) if base else ""},
    )
