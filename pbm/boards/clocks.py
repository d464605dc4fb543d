"""Each seat's clock: since when it has been to move, reset as turns pass.

Housekeeping (pbm.boards.housekeeping) reads these to nag and to forfeit; here they are only
kept true as boards start, moves are played and games end, and here it is decided which
limits apply and whether running out of time loses the game or declines the board.

Challenges need no password, so anyone may challenge two players with short clocks: no
player loses rating on a board they never moved on (their time running out declines it, as
resigning before a first move does), and limits shorter than the server's apply only once
every player has moved, that is, once everyone has taken the board up.

A total-time board (--totaltime=N) is a chess clock besides: each seat may use N days over
the whole game. Seat.time_used sums the seat's finished turns, kept here as turns end;
vacations are left out of it as they are out of the wait that nags."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import NamedTuple

from sqlalchemy import func, select
from sqlalchemy.orm import Session, object_session

from pbm.accounts import vacations
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
    if board.prefix:  # a tournament's board: its players joined it, clocks and all
        return nag, forfeit
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


def on_turn(seat: Seat, now: datetime) -> timedelta:
    """How long the seat has been to move in its running turn (nothing when it is not),
    its player's vacations left out.

    The vacations are asked for only when the player's latest one ended after the turn
    began (User.vacation_until keeps that end): on the move path, almost never."""
    since = seat.waiting_since
    if since is None or now <= since:
        return timedelta()
    waited = now - since
    latest = seat.user.vacation_until
    if latest is not None and latest > since:
        waited -= vacations.away(vacations.periods(_session(seat), seat.user_id, since, now),
                                 since, now)
    return max(waited, timedelta())


def used(seat: Seat, now: datetime) -> timedelta:
    """The time the seat has used over the whole game, its running turn included."""
    return timedelta(seconds=seat.time_used or 0) + on_turn(seat, now)


def total_time(board: Board) -> timedelta | None:
    """What each seat may use in all (--totaltime=N), or None: no chess clock."""
    return None if board.total_days is None else board.total_days * DAY


def time_left(board: Board, seat: Seat, now: datetime) -> timedelta | None:
    """What is left of the seat's total time (negative: past it), or None: no limit."""
    total = total_time(board)
    return None if total is None else total - used(seat, now)


def out_of_time(board: Board, seat: Seat, now: datetime) -> bool:
    """Whether the seat, to move, has used up its total time (a move arriving now is
    too late: it loses on time instead)."""
    left = time_left(board, seat, now)
    return left is not None and left <= timedelta()


def exceeded_reason(board: Board, seat: Seat) -> str:
    return f"{seat.user.userid} exceeded the total time limit of {board.total_days} days."


def _end_turn(seat: Seat, now: datetime) -> None:
    """Add the running turn, if any, to the seat's time used."""
    if seat.waiting_since is not None:
        seat.time_used = (seat.time_used or 0) + int(on_turn(seat, now).total_seconds())


def start(seat: Seat, board: Board, now: datetime, time: TimeSettings) -> None:
    """The seat's turn begins now (a turn it was in, having moved and moving again, ends)."""
    _end_turn(seat, now)
    seat.waiting_since = now
    seat.nags = 0
    seat.first_nag_wait = seat.last_nag_wait = None
    check = timedelta(days=nag_days(board, time))
    total = total_time(board)
    if total is not None:
        # Housekeeping looks again when a day of the total time is left (a reminder) or,
        # with less left, at once (it then waits for the flag to fall).
        check = min(check, max(total - timedelta(seconds=seat.time_used or 0) - DAY, timedelta()))
    seat.next_check_at = now + check


def stop(seat: Seat, now: datetime) -> None:
    """The seat is not to move (any more): its turn, if one ran, ends now."""
    if seat.waiting_since is None and seat.next_check_at is None:
        return  # unchanged: no UPDATE for it
    _end_turn(seat, now)
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
            stop(seat, now)
        elif seat.position == mover or seat.position not in before:
            start(seat, pos.board, now, time)


DAY = timedelta(days=1)
# pbmserv writes them with two dashes (--nagtime=7), one dash is read too; game options
# take one (-size=11).
TIME_OPTIONS = {"nagtime": "nag", "forfeittime": "forfeit", "totaltime": "total"}
MAX_DAYS = 9999


class TimeLimits(NamedTuple):
    """A challenge's time options: nag and forfeit days (both None, or both set, so that a
    later change of the server's defaults cannot make them contradict), total days per
    player (None: no chess clock), and the words left for the game's own options."""

    nag: int | None
    forfeit: int | None
    total: int | None
    game_words: list[str]


def time_options(words: Sequence[str], time: TimeSettings) -> TimeLimits:
    """Split --nagtime=N, --forfeittime=N and --totaltime=N (days) from a challenge's
    options."""
    given: dict[str, int] = {}
    rest = []
    for word in words:
        name, _, value = word.partition("=")
        option = name.lower().lstrip("-")
        key = TIME_OPTIONS.get(option) if name.startswith("-") else None
        if key is None:
            rest.append(word)
            continue
        if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= MAX_DAYS:
            raise CommandError(f"{shorten(word)}: --{option} takes a number of days from 1 "
                               f"to {MAX_DAYS}, for example --{option}=7.")
        given[key] = int(value)
    total = given.pop("total", None)
    if not given:
        return TimeLimits(None, None, total, rest)
    nag = given.get("nag", time.nag_days)
    forfeit = given.get("forfeit", time.forfeit_days)
    if forfeit <= nag:
        raise CommandError(f"The forfeit time ({forfeit} days) must be longer than the nag time "
                           f"({nag} days): a player is reminded before they lose on time. "
                           "For example: --nagtime=5 --forfeittime=14.")
    return TimeLimits(nag, forfeit, total, rest)
