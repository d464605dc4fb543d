"""Atom feeds (RFC 4287) of a board's moves and of a player's boards, as a spectator sees them."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import Select, select
from sqlalchemy.orm import Session, aliased, defer, selectinload

from pbm.boards.position import LoggedMove, move_seen
from pbm.db.models import Board, BoardStatus, Move, Seat, User
from pbm.games import registry
from pbm.views.urls import absolute, board_path, player_path, record_path

ATOM = "http://www.w3.org/2005/Atom"
FEED_ENTRIES = 50  # entries per feed, newest first: a feed is news, the page is the record
SERVER = "pbm"  # the feeds' author

# What XML 1.0 allows in a document (its `Char` production): anything else, a control
# character in a comment or a lone surrogate, would leave the feed unreadable.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """`text` without the characters XML 1.0 forbids (escaping is the serializer's job)."""
    return _NOT_XML.sub("", text)


def sub_element(parent: ET.Element, tag: str, text: str | None = None,
                **attrs: str) -> ET.Element:
    """A child element; its text and attributes are cleaned here and escaped by ET."""
    child = ET.SubElement(parent, tag, {key: xml_text(value) for key, value in attrs.items()})
    if text is not None:
        child.text = xml_text(text)
    return child


@dataclass(frozen=True)
class Entry:
    """One feed entry: a move, or how a board ended."""

    id: str
    title: str
    published: datetime  # when it happened: the feed's order
    updated: datetime  # later than published where the text changed since (a secret shown)
    link: str
    content: str
    order: tuple[int, int]  # (board id, move number) breaks ties of time, newest first


@dataclass(frozen=True)
class Row:
    """A logged move with what its entry says besides: its comment and time, its board."""

    move: LoggedMove
    comment: str | None
    created_at: datetime
    board_id: int
    game: str
    label: str
    status: BoardStatus
    finished_at: datetime | None
    mover: str


def board_feed(session: Session, board: Board, base_url: str, now: datetime) -> bytes:
    """The feed of one board: its last moves and, once it has ended, its result.

    `now` is not written anywhere: the same board gives the same bytes however often it is
    asked for, so the web layer may answer with an ETag. A declined board has no feed
    (LookupError): it is gone."""
    _check_base(base_url)
    if board.status == BoardStatus.DECLINED:
        raise LookupError(f"{board.game} board {board.label} was declined")
    title = f"{_game_title(board.game)} Board {board.label}"
    names = [seat.user.userid for seat in board.seats]
    query = _move_rows().where(Move.board_id == board.id) \
        .order_by(Move.number.desc()).limit(FEED_ENTRIES)
    entries = [_move_entry(row, base_url, "") for row in _rows(session, query)]
    if board.status == BoardStatus.FINISHED:
        entries.append(_result_entry(board, base_url, ""))
    entries = _newest(entries)
    updated = max([board.updated_at, *(e.updated for e in entries)])
    return _feed(
        feed_id=absolute(base_url, record_path(board.game, board.label, "atom")),
        title=f"{title}: {' vs '.join(names)}",
        updated=updated,
        alternate=absolute(base_url, board_path(board.game, board.label)),
        base_url=base_url,
        entries=entries,
    )


def player_feed(session: Session, user: User, base_url: str, now: datetime) -> bytes:
    """The feed of a player: the last moves on every board they sit on, and the results of
    their finished boards, newest first. Three statements however many boards they have:
    the moves, the finished boards, those boards' seats.

    `now` is not written anywhere (see board_feed); a player with nothing yet has a feed
    dated from their signup."""
    _check_base(base_url)
    theirs = select(Seat.board_id).where(Seat.user_id == user.id)
    moves = _move_rows().where(Move.board_id.in_(theirs),
                               Board.status != BoardStatus.DECLINED) \
        .order_by(Move.created_at.desc(), Move.board_id.desc(), Move.number.desc()) \
        .limit(FEED_ENTRIES)
    entries = [_move_entry(row, base_url, f"{_game_title(row.game)} Board {row.label}: ")
               for row in _rows(session, moves)]
    finished = session.scalars(
        select(Board).where(Board.id.in_(theirs), Board.status == BoardStatus.FINISHED)
        # The result needs the players' names: not the position, nor their addresses.
        .options(defer(Board.state), defer(Board.recent_moves),
                 selectinload(Board.seats).joinedload(Seat.user).lazyload(User.addresses))
        .order_by(Board.finished_at.desc(), Board.id.desc()).limit(FEED_ENTRIES))
    entries += [_result_entry(board, base_url,
                              f"{_game_title(board.game)} Board {board.label}: ")
                for board in finished]
    entries = _newest(entries)
    updated = max((e.updated for e in entries), default=user.created_at)
    return _feed(
        feed_id=absolute(base_url, player_path(user.userid, "atom")),
        title=f"{user.userid}'s boards",
        updated=updated,
        alternate=absolute(base_url, player_path(user.userid)),
        base_url=base_url,
        entries=entries,
    )


def _check_base(base_url: str) -> None:
    # An Atom id must be an absolute IRI, so a feed cannot be written with paths alone: the
    # web layer passes [web] base_url, or the request's own scheme and host where it is "".
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"a feed needs the site's absolute address, not {base_url!r}")


def _game_title(game: str) -> str:
    return registry.get(game).info.title


def _move_rows() -> Select[*tuple[Any, ...]]:
    """Moves with their board and the mover's userid, in one statement for any boards."""
    mover_seat, mover = aliased(Seat), aliased(User)
    return (select(Move.number, Move.seat, Move.notation, Move.shown, Move.kind, Move.auto,
                   Move.comment, Move.created_at, Move.board_id, Board.game, Board.prefix,
                   Board.number.label("board_number"), Board.status, Board.finished_at,
                   mover.userid)
            .join(Board, Board.id == Move.board_id)
            .join(mover_seat, (mover_seat.board_id == Move.board_id)
                  & (mover_seat.position == Move.seat))
            .join(mover, mover.id == mover_seat.user_id))


def _rows(session: Session, query: Select[*tuple[Any, ...]]) -> list[Row]:
    # Plain rows, not ORM objects, as pbm.boards.position reads a move log.
    return [Row(LoggedMove(r.number, r.seat, r.notation, r.shown, r.kind, r.auto), r.comment,
                r.created_at, r.board_id, r.game, f"{r.prefix}{r.board_number}", r.status,
                r.finished_at, r.userid)
            for r in session.execute(query)]


def _move_entry(row: Row, base_url: str, prefix: str) -> Entry:
    """A move as a spectator's mail shows it: hidden text stays hidden while the board runs."""
    move = row.move
    revealed = row.status == BoardStatus.FINISHED
    text = move_seen(move, None, revealed)
    content = text if not row.comment else f"{text}\n\n{row.mover} writes:\n{row.comment}"
    # A secret shown at the end changes the entry's text then: a reader that keeps entries
    # by id and updated sees the new text only if updated moves with it.
    updated = row.created_at
    if revealed and "none" in move.shown and row.finished_at is not None:
        updated = max(updated, row.finished_at)
    url = absolute(base_url, board_path(row.game, row.label, move.number))
    return Entry(id=url, title=f"{prefix}{move.number}. {row.mover}: {text}",
                 published=row.created_at, updated=updated, link=url, content=content,
                 order=(row.board_id, move.number))


def _result_entry(board: Board, base_url: str, prefix: str) -> Entry:
    """How a finished board ended, as its final mail's turn line and reason say."""
    names = [seat.user.userid for seat in board.seats]
    if board.winners:
        verdict = f"Game won by {' and '.join(names[seat] for seat in sorted(board.winners))}."
    else:
        verdict = "Game was a tie."
    ended = board.finished_at or board.updated_at
    page = absolute(base_url, board_path(board.game, board.label))
    reason = board.result_reason or ""
    return Entry(id=f"{page}#result", title=f"{prefix}{verdict}", published=ended,
                 updated=ended, link=page,
                 content=f"{verdict}\n{reason}".rstrip(),
                 # After the board's last move, which may share its time.
                 order=(board.id, board.move_count + 1))


def _newest(entries: Iterable[Entry]) -> list[Entry]:
    return sorted(entries, key=lambda e: (e.published, e.order), reverse=True)[:FEED_ENTRIES]


def _feed(*, feed_id: str, title: str, updated: datetime, alternate: str, base_url: str,
          entries: Sequence[Entry]) -> bytes:
    # The namespace written as a plain attribute: ET.register_namespace would change how
    # every other ElementTree user in the process writes Atom.
    feed = ET.Element("feed", xmlns=ATOM)
    sub_element(feed, "id", feed_id)
    sub_element(feed, "title", title)
    sub_element(feed, "updated", _stamp(updated))
    sub_element(feed, "link", rel="self", type="application/atom+xml", href=feed_id)
    sub_element(feed, "link", rel="alternate", type="text/html", href=alternate)
    author = sub_element(feed, "author")
    sub_element(author, "name", SERVER)
    sub_element(author, "uri", absolute(base_url, "/"))
    for entry in entries:
        item = sub_element(feed, "entry")
        sub_element(item, "id", entry.id)
        sub_element(item, "title", entry.title)
        sub_element(item, "published", _stamp(entry.published))
        sub_element(item, "updated", _stamp(entry.updated))
        sub_element(item, "link", rel="alternate", type="text/html", href=entry.link)
        sub_element(item, "content", entry.content, type="text")
    return ET.tostring(feed, encoding="utf-8", xml_declaration=True)


def _stamp(when: datetime) -> str:
    """An RFC 3339 time; the store keeps UTC without a zone."""
    return when.replace(microsecond=0, tzinfo=None).isoformat() + "Z"
