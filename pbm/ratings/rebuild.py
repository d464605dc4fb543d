"""Replaying every rated game from scratch, to check (and repair) the stored ratings."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session, defer

from pbm.db.models import Board, Rating, User
from pbm.ratings.record import Change, apply, fresh

Key = tuple[str, int]  # (game, user id)


@dataclass
class Replay:
    """Ratings as the rated games, replayed in rating_seq order, make them."""

    records: dict[Key, Rating] = field(default_factory=dict)  # transient rows, never added
    # The boards in the order they were rated, with each one's changes as replayed.
    changes: list[tuple[Board, list[Change]]] = field(default_factory=list)


def replay(session: Session, game: str | None = None) -> Replay:
    """Every board with a rating_seq (of `game`), rated again from everyone at the start."""
    query = select(Board).where(Board.rating_seq.is_not(None)).options(defer(Board.state))
    if game is not None:
        query = query.where(Board.game == game)
    result = Replay()
    for board in session.scalars(query.order_by(Board.rating_seq)):
        records = []
        for seat in board.seats:
            key = (board.game, seat.user_id)
            if key not in result.records:
                result.records[key] = fresh(*key)
            records.append(result.records[key])
        result.changes.append((board, apply(records, board.winners or [])))
    return result


def _record(row: Rating | None) -> str:
    if row is None:
        return "no rating"
    return f"{row.rating} (won {row.won}, lost {row.lost}, tied {row.tied})"


def rebuild(session: Session, game: str | None = None, *, fix: bool = False) -> list[str]:
    """The differences between the stored ratings (of `game`) and a replay, one line each;
    with `fix`, the stored ones are replaced by the replay's."""
    replayed = replay(session, game)
    differences = []
    for board, changes in replayed.changes:
        if board.rating_changes != changes:
            differences.append(f"board {board.label} ({board.game}): changes stored "
                               f"{board.rating_changes}, replayed {changes}")
            if fix:
                board.rating_changes = changes
    query = select(Rating)
    if game is not None:
        query = query.where(Rating.game == game)
    stored = {(r.game, r.user_id): r for r in session.scalars(query)}
    userids = {user_id: userid for user_id, userid in session.execute(
        select(User.id, User.userid))}
    for key in sorted(stored.keys() | replayed.records.keys()):
        have, want = stored.get(key), replayed.records.get(key)
        same = have is not None and want is not None and \
            (have.rating, have.won, have.lost, have.tied) == \
            (want.rating, want.won, want.lost, want.tied)
        if same:
            continue
        differences.append(f"{key[0]} {userids.get(key[1], key[1])}: stored {_record(have)}, "
                           f"replayed {_record(want)}")
        if not fix:
            continue
        if want is None:
            session.delete(have)
            continue
        row = have
        if row is None:
            row = fresh(*key)
            session.add(row)
        row.rating, row.won, row.lost, row.tied = want.rating, want.won, want.lost, want.tied
    return differences
