"""Each seat's clock: since when it has been to move, reset as turns pass.

Housekeeping (pbm.boards.housekeeping) reads these to nag and to forfeit; here they are only
kept true as boards start, moves are played and games end, and here it is decided which
limits apply and whether running out of time loses the game or declines the board.

Challenges need no password, so anyone may challenge two players with short clocks: no
player loses rating on a board they never moved on (their time running out declines it, as
resigning before a first move does), and limits shorter than the server's apply only once
every player has moved, that is, once everyone has taken the board up."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session, object_session

from pbm.boards.position import Position
from pbm.config import TimeSettings
from pbm.context import CommandError, shorten
from pbm.db.models import Board, Move, Seat


def nag_days(board: Board, time: TimeSettings) -> int:
    """The nag time chosen for the board (see limits() for the one that applies)."""
    return board.nag_days or time.nag_days


def forfeit_days(board: Board, time: TimeSettings) -> int:
    """The forfeit time chosen for the board (see limits() for the one that applies)."""
    return board.forfeit_days or time.forfeit_days


def limits(board: Board, time: TimeSettings) -> tuple[int, int]:
    """(nag days, forfeit days) that apply now: a limit shorter than the server's applies
    only once every player has moved; until then the server's. (Each is at least the
    server's then, so the forfeit time stays longer than the nag time.)"""
    nag, forfeit = nag_days(board, time), forfeit_days(board, time)
    if (nag >= time.nag_days and forfeit >= time.forfeit_days) or everyone_moved(board):
        return nag, forfeit
    return max(nag, time.nag_days), max(forfeit, time.forfeit_days)


def everyone_moved(board: Board) -> bool:
    """Whether every player of the board has made a move on it."""
    query = select(func.count(func.distinct(Move.seat))).where(Move.board_id == board.id)
    return (_session(board).scalar(query) or 0) >= len(board.seats)


def declines_on_time(seat: Seat) -> bool:
    """Whether the seat's time running out declines its board (removed, unrated) rather
    than losing it: its player has not made a move on it, so never agreed to play it."""
    query = select(Move.number).where(Move.board_id == seat.board_id,
                                      Move.seat == seat.position).limit(1)
    return _session(seat).scalar(query) is None


def _session(row: Board | Seat) -> Session:
    session = object_session(row)
    assert session is not None
    return session


def start(seat: Seat, board: Board, now: datetime, time: TimeSettings) -> None:
    """The seat's turn begins now."""
    seat.waiting_since = now
    seat.nags = 0
    seat.first_nag_wait = seat.last_nag_wait = None
    seat.next_check_at = now + timedelta(days=nag_days(board, time))


def stop(seat: Seat) -> None:
    """The seat is not to move (any more)."""
    if seat.waiting_since is None and seat.next_check_at is None:
        return  # unchanged: no UPDATE for it
    seat.waiting_since = seat.next_check_at = None
    seat.nags = 0
    seat.first_nag_wait = seat.last_nag_wait = None


def after_turn(pos: Position, mover: int | None, before: frozenset[int], now: datetime,
               time: TimeSettings) -> None:
    """Clocks after `mover` played (None: the board just started): a seat that is to move
    now and was not, or that moved and moves again, starts its turn; a seat still waiting
    keeps its time; the others stop."""
    movers = pos.to_move()
    for seat in pos.board.seats:
        if seat.position not in movers:
            stop(seat)
        elif seat.position == mover or seat.position not in before:
            start(seat, pos.board, now, time)


TIME_OPTIONS = {"-nagtime": "nag", "-forfeittime": "forfeit"}


def time_options(words: Sequence[str], time: TimeSettings
                 ) -> tuple[int | None, int | None, list[str]]:
    """Split -nagtime=N and -forfeittime=N (days) from a challenge's options: (nag days,
    forfeit days, the game's own options). Both are None when neither was given, else both
    are set, so a later change of the server's defaults cannot make them contradict."""
    given: dict[str, int] = {}
    rest = []
    for word in words:
        name, _, value = word.partition("=")
        key = TIME_OPTIONS.get(name.lower())
        if key is None:
            rest.append(word)
            continue
        if not (value.isascii() and value.isdigit()) or int(value) < 1 or len(value) > 4:
            raise CommandError(f"{shorten(word)}: {name.lower()} takes a number of days from 1 "
                               f"to 9999, for example {name.lower()}=7.")
        given[key] = int(value)
    if not given:
        return None, None, rest
    nag = given.get("nag", time.nag_days)
    forfeit = given.get("forfeit", time.forfeit_days)
    if forfeit <= nag:
        raise CommandError(f"The forfeit time ({forfeit} days) must be longer than the nag time "
                           f"({nag} days): a player is reminded before they lose on time. "
                           "For example: -nagtime=5 -forfeittime=14.")
    return nag, forfeit, rest
