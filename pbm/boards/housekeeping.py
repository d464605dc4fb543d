"""Housekeeping: remind players who have not moved, and forfeit those who never do.

One idempotent step, run by `pbm serve` every `time.tick_seconds` and by `pbm tick`. Each
seat is looked at when its `next_check_at` comes; every look either acts (a nag, a forfeit)
or moves `next_check_at` on, in the same transaction, so running the step twice, or from
two processes at once, never nags or forfeits twice: on SQLite the second waits for the
first's write lock and then finds nothing due; on PostgreSQL one node at a time runs it
(see `pbm.mail.housekeeping`), and the rows it acts on are locked besides.

Time waited is counted without the player's vacations. The first nag comes after `nag`
days, then one every `nag` days; the forfeit comes after `forfeit` days, but never sooner
than `forfeit - nag` days after the first nag: after an outage, nobody loses on time
without the usual time to answer a reminder. Which limits apply, and whether a player who
never moved loses or declines the board, pbm.boards.clocks decides.

On a total-time board (a chess clock) a seat is looked at when its total time runs out
too, and then loses on time, or declines the board if its player never moved on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session, contains_eager, joinedload

from pbm.accounts import vacations
from pbm.boards import clocks, play
from pbm.boards.facts import DeclinedOnTime, Forfeited, Nagged
from pbm.boards.position import Position, position
from pbm.context import Context
from pbm.db.models import Board, BoardStatus, Seat, User

DAY = timedelta(days=1)
BATCH = 200  # seats looked at per transaction
LATE = timedelta(hours=1)  # a forfeit found this long after it fell due: the server was down
LAST_CALL = timedelta(days=1)  # ... and the player gets this long to move after all


@dataclass
class Report:
    """What one housekeeping step did (its mails: the facts it left on the Context)."""

    # (game, board's name, userid)
    nagged: list[tuple[str, str, str]] = field(default_factory=list)
    forfeited: list[tuple[str, str, str]] = field(default_factory=list)
    declined: list[tuple[str, str, str]] = field(default_factory=list)  # never moved
    looked: int = 0  # seats looked at

    def __str__(self) -> str:
        parts = [f"{len(self.nagged)} nag(s)", f"{len(self.forfeited)} forfeit(s)",
                 f"{len(self.declined)} declined"]
        lines = [", ".join(parts)]
        lines += [f"  nagged {userid} on {game} board {number}"
                  for game, number, userid in self.nagged]
        lines += [f"  {userid} forfeited {game} board {number}"
                  for game, number, userid in self.forfeited]
        lines += [f"  {game} board {number} declined: {userid} never moved"
                  for game, number, userid in self.declined]
        return "\n".join(lines)


def due_seats(session: Session, now: datetime, limit: int = BATCH) -> list[Seat]:
    """Seats whose clock is due for a look, oldest first; locked against another node.

    The seat's row and its board's (a forfeit ends the board) are locked; a board a move
    holds at another node is skipped, and its seat looked at next time."""
    return list(session.scalars(
        select(Seat).join(Seat.board).where(Seat.next_check_at <= now)
        .order_by(Seat.next_check_at, Seat.board_id, Seat.position)
        # Inner joins, the board's by its own name: PostgreSQL locks rows only of tables the
        # FROM names, and none on the nullable side of an outer join.
        .options(contains_eager(Seat.board),
                 joinedload(Seat.user, innerjoin=True).selectinload(User.addresses))
        .limit(limit).with_for_update(of=(Seat, Board), skip_locked=True)
        .execution_options(populate_existing=True)))


def housekeep(ctx: Context, limit: int = BATCH) -> Report:
    """Within the caller's transaction, as of `ctx.now`: act on up to `limit` due seats,
    leaving on `ctx` the facts (nags, forfeits, ends) its mails are written from."""
    report = Report()
    for seat in due_seats(ctx.session, ctx.now, limit):
        report.looked += 1
        board = seat.board
        if board.status != BoardStatus.ACTIVE or seat.waiting_since is None:
            clocks.stop(seat, ctx.now)  # a clock left running by a board that ended
            continue
        pos = position(board)
        if seat.position not in pos.to_move():
            clocks.stop(seat, ctx.now)
            continue
        _look(ctx, pos, seat, report)
    return report


def waited(session: Session, seat: Seat, now: datetime) -> timedelta:
    """How long the seat has been to move, its player's vacations left out."""
    assert seat.waiting_since is not None
    since = seat.waiting_since
    return (now - since) - vacations.away(
        vacations.periods(session, seat.user_id, since, now), since, now)


def _look(ctx: Context, pos: Position, seat: Seat, report: Report) -> None:
    board, now = pos.board, ctx.now
    if vacations.on_vacation(seat.user, now):
        # Away: neither nagged nor forfeited; the wait stands still until they are back.
        seat.next_check_at = seat.user.vacation_until
        return
    nag, forfeit = (days * DAY for days in clocks.limits(board, ctx.time))
    wait = waited(ctx.session, seat, now)
    assert seat.next_check_at is not None
    # Housekeeping did not run when this fell due: the server (or its cron job) was down,
    # and the player's answer to their last nag may still sit in a mail queue. One last
    # call, and a day to move, instead of losing at once.
    late = now - seat.next_check_at > LATE
    total = clocks.total_time(board)
    left = None if total is None else total - timedelta(seconds=seat.time_used or 0) - wait
    if left is not None and left <= timedelta():
        if late:
            _last_call(ctx, pos, seat, wait, nag, forfeit, report)
            return
        lose_on_time(ctx, pos, seat, wait, clocks.exceeded_reason(board, seat), report)
        return
    forfeit_at = _forfeit_wait(seat, nag, forfeit)
    if forfeit_at is not None and wait >= forfeit_at:
        if late:
            _last_call(ctx, pos, seat, wait, nag, forfeit, report)
            return
        lose_on_time(ctx, pos, seat, wait, f"{seat.user.userid} forfeited: no move in "
                                            f"{wait // DAY} days.", report)
        return
    next_nag = nag if seat.nags == 0 else timedelta(seconds=seat.last_nag_wait or 0) + nag
    if left is not None:
        # A chess clock's flag may fall before any nag would come: a reminder when a day
        # of it is left, once.
        warn_at = wait + left - LAST_CALL
        if warn_at > timedelta() and (seat.last_nag_wait is None
                                      or timedelta(seconds=seat.last_nag_wait) < warn_at):
            next_nag = min(next_nag, warn_at)
    if wait >= next_nag:
        _nag(ctx, pos, seat, wait, forfeit, nag, report, left=left)
        forfeit_at = _forfeit_wait(seat, nag, forfeit)
        next_nag = wait + nag
    due = min(next_nag, forfeit_at) if forfeit_at is not None else next_nag
    if left is not None:
        due = min(due, wait + left)  # the chess clock's flag falls
    seat.next_check_at = now + max(due - wait, timedelta(seconds=1))


def _last_call(ctx: Context, pos: Position, seat: Seat, wait: timedelta, nag: timedelta,
               forfeit: timedelta, report: Report) -> None:
    _nag(ctx, pos, seat, wait, forfeit, nag, report, last_call=True)
    seat.next_check_at = ctx.now + LAST_CALL


def _forfeit_wait(seat: Seat, nag: timedelta, forfeit: timedelta) -> timedelta | None:
    """The wait at which the seat forfeits: None before its first nag."""
    if seat.nags == 0 or seat.first_nag_wait is None:
        return None
    return max(forfeit, timedelta(seconds=seat.first_nag_wait) + forfeit - nag)


def _nag(ctx: Context, pos: Position, seat: Seat, wait: timedelta, forfeit: timedelta,
         nag: timedelta, report: Report, last_call: bool = False,
         left: timedelta | None = None) -> None:
    """Remind the seat; `left`: what remains of its total time, on a total-time board (its
    flag may fall before the forfeit: the earlier of the two is the deadline)."""
    seconds = int(wait.total_seconds())
    seat.nags += 1
    if seat.first_nag_wait is None:
        seat.first_nag_wait = seconds
    seat.last_nag_wait = seconds
    if last_call:
        deadline = ctx.now + LAST_CALL
    else:
        forfeit_at = _forfeit_wait(seat, nag, forfeit)
        assert forfeit_at is not None
        deadline = ctx.now + (forfeit_at - wait)
    flag = left is not None and not last_call and ctx.now + left < deadline
    if flag:
        assert left is not None
        deadline = ctx.now + left
    declines = not last_call and clocks.declines_on_time(seat)
    ctx.facts.append(Nagged(pos, seat.position, wait, deadline, last_call, declines,
                            total_left=left, total_flag=flag))
    report.nagged.append((pos.title, pos.board.label, seat.user.userid))


def lose_on_time(ctx: Context, pos: Position, seat: Seat, wait: timedelta, reason: str,
                 report: Report | None = None) -> None:
    """The seat ran out of time (its forfeit time, or its total time): it loses the game
    with `reason`, or, having never moved on the board (so never agreed to play it), the
    board is declined, unrated. The facts for the mails are left on `ctx`."""
    userid = seat.user.userid
    if clocks.declines_on_time(seat):
        declined = play.withdraw(ctx, pos, seat.position)  # the same test: no move yet
        assert declined
        ctx.facts.append(DeclinedOnTime(pos, seat.position, wait))
        if report is not None:
            report.declined.append((pos.title, pos.board.label, userid))
        return
    play.concede(ctx, pos, seat.position, reason)
    ctx.facts.append(Forfeited(pos, seat.position))
    if report is not None:
        report.forfeited.append((pos.title, pos.board.label, userid))


def due(session: Session, now: datetime) -> bool:
    """Whether any seat waits for a look (a cheap read, for a server deciding to write)."""
    return session.scalar(select(Seat.board_id).where(Seat.next_check_at <= now).limit(1)) \
        is not None

