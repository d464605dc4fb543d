"""Recording a finished game: both players' ratings and records, and the board's changes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pbm.db import locks
from pbm.db.locks import Guarded
from pbm.db.models import Board, Rating
from pbm.ratings.formulas import LOSS, START, TIE, WIN, rate_game

# A board's rating_changes hold, per seat, [rating before, rating after, finished games
# before]: the last says whether the player was provisional going in, which the final
# board mail tells, and lets `pbm ratings rebuild` check a board on its own.
Change = list[int]


def fresh(game: str, user_id: int) -> Rating:
    """A player's record before their first finished game of `game`."""
    return Rating(game=game, user_id=user_id, rating=START, won=0, lost=0, tied=0)


def is_rated(board: Board) -> bool:
    """Only two-player games move ratings (the formulas compare two players)."""
    return len(board.seats) == 2


def outcomes(winners: Sequence[int], seats: int = 2) -> list[int]:
    """Each seat's WIN, TIE or LOSS. No winner, or every seat winning, is a tie."""
    if not winners or len(set(winners)) == seats:
        return [TIE] * seats
    return [WIN if seat in winners else LOSS for seat in range(seats)]


def apply(records: Sequence[Rating], winners: Sequence[int]) -> list[Change]:
    """Move the two seats' records (in seat order) by one finished game; the changes."""
    results = outcomes(winners)
    before = [(r.rating, r.finished) for r in records]
    after = rate_game(before[0], before[1], results[0])
    changes = []
    for record, result, (rating, games), new in zip(records, results, before, after):
        record.rating = new
        if result == WIN:
            record.won += 1
        elif result == LOSS:
            record.lost += 1
        else:
            record.tied += 1
        changes.append([rating, new, games])
    return changes


def record_finished(session: Session, board: Board) -> None:
    """Rate a game that has just finished: called once, when the board becomes finished.

    On the finishing move only, a few statements: the last rating_seq, the two players'
    records, and at the flush their rows and the board's numbers."""
    if not is_rated(board) or board.rating_seq is not None or board.winners is None:
        return
    # The last number first: its autoflush writes what is pending (the board's status, and
    # the numbers of boards finished earlier in this mail, as a signoff does), so that new
    # rating rows are inserted once, with their values, at the next flush.
    # Several nodes: one game is rated at a time, so the numbers stay unique and each
    # reads its players' ratings as the last one left them.
    locks.hold(session, Guarded.NUMBERS)
    last = session.scalar(select(func.max(Board.rating_seq)))
    user_ids = [seat.user_id for seat in board.seats]
    stored: Mapping[int, Rating] = {r.user_id: r for r in session.scalars(
        select(Rating).where(Rating.game == board.game, Rating.user_id.in_(user_ids))
        .execution_options(populate_existing=True))}
    records = []
    for user_id in user_ids:
        record = stored.get(user_id)
        if record is None:
            record = fresh(board.game, user_id)
            session.add(record)
        records.append(record)
    board.rating_changes = apply(records, board.winners)
    board.rating_seq = (last or 0) + 1
