"""Each seat's clock: since when it has been to move, reset as turns pass.

Housekeeping (pbm.boards.housekeeping) reads these to nag and to forfeit; here they are only
kept true as boards start, moves are played and games end."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from pbm.boards.position import Position
from pbm.config import TimeSettings
from pbm.context import CommandError, shorten
from pbm.db.models import Board, Seat


def nag_days(board: Board, time: TimeSettings) -> int:
    return board.nag_days or time.nag_days


def forfeit_days(board: Board, time: TimeSettings) -> int:
    return board.forfeit_days or time.forfeit_days


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
