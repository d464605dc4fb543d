"""What challenges a player takes in a game: at all (accept/reject), how many boards at once
(limit), and how many more they are looking for (seek)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pbm.context import CommandError, Context
from pbm.db.models import Board, BoardStatus, ChallengePolicy, Seat, User
from pbm.games.base import AnyGame


def policy_of(session: Session, user: User, game: str) -> ChallengePolicy:
    """The user's policy in `game`; a new default one (not yet stored) when they have none."""
    found = session.get(ChallengePolicy, (user.id, game))
    if found is not None:
        return found
    return ChallengePolicy(user_id=user.id, game=game, refuses=False, board_limit=None,
                           seeking=0, seeking_since=None)


def store(session: Session, policy: ChallengePolicy) -> None:
    """Keep the policy, or drop its row when it says nothing (the defaults): standings show
    the Limit and Seeking columns only while some row says something."""
    is_default = not policy.refuses and policy.board_limit is None and not policy.seeking
    stored = policy in session
    if is_default and stored:
        session.delete(policy)
    elif not is_default and not stored:
        session.add(policy)
    session.flush()


def active_boards(session: Session, game: str, user_ids: Sequence[int]) -> dict[int, int]:
    """Active boards of `game` of each user, in one query."""
    rows = session.execute(
        select(Seat.user_id, func.count())
        .join(Board, Board.id == Seat.board_id)
        .where(Board.game == game, Board.status == BoardStatus.ACTIVE,
               Seat.user_id.in_(user_ids))
        .group_by(Seat.user_id))
    return {user_id: count for user_id, count in rows}


def check_challenge(ctx: Context, game: AnyGame, users: Sequence[User],
                    challengers: Sequence[User]) -> None:
    """Refuse a challenge that a challenged player (not one who sent it) rejects in this
    game, or that would take them past their limit of active boards; else count it against
    what they seek (the challenge runs in one transaction: if the board is not started after
    all, this is undone with it). The operator's command line passes reject and limit."""
    name, title = game.info.name, game.info.title
    sent_by = {user.id for user in challengers}
    challenged = [user for user in users if user.id not in sent_by]
    if not challenged:
        return
    policies = {policy.user_id: policy for policy in ctx.session.scalars(
        select(ChallengePolicy).where(ChallengePolicy.game == name,
                                      ChallengePolicy.user_id.in_([u.id for u in challenged])))}
    if not ctx.admin:
        for user in challenged:
            policy = policies.get(user.id)
            if policy is not None and policy.refuses:
                raise CommandError(
                    f"{user.userid} does not accept {title} challenges (they sent '{name} "
                    f"reject'); this challenge was not made. Ask {user.userid} to start the "
                    "board, or choose another opponent.")
        limited = [user for user in challenged if user.id in policies
                   and policies[user.id].board_limit is not None]
        if limited:
            counts = active_boards(ctx.session, name, [user.id for user in limited])
            for user in limited:
                most = policies[user.id].board_limit
                assert most is not None
                playing = counts.get(user.id, 0)
                if playing >= most:
                    raise CommandError(
                        f"{user.userid} plays {playing} active {title} boards, the most they "
                        f"take at once ('{name} limit {most}'); this challenge was not made. "
                        "Try again when one of those boards has ended.")
    for user in challenged:
        policy = policies.get(user.id)
        if policy is not None and policy.seeking > 0:
            count_down(policy, ctx.now)
            store(ctx.session, policy)


def count_down(policy: ChallengePolicy, now: datetime) -> None:
    """One board started for a seeker: one fewer sought; a wait for the next starts now."""
    policy.seeking -= 1
    policy.seeking_since = now if policy.seeking > 0 else None


def seekers(session: Session, game: str) -> list[tuple[str, int]]:
    """Active users seeking boards of `game`, with how many: by userid."""
    rows = session.execute(
        select(User.userid, ChallengePolicy.seeking)
        .join(User, User.id == ChallengePolicy.user_id)
        .where(ChallengePolicy.game == game, ChallengePolicy.seeking > 0,
               User.active.is_(True))
        .order_by(User.userid))
    return [(userid, seeking) for userid, seeking in rows]


def marks(session: Session, game: str) -> dict[int, ChallengePolicy]:
    """Every stored policy of `game`, by user id (the standings' Limit and Seeking)."""
    return {policy.user_id: policy for policy in session.scalars(
        select(ChallengePolicy).where(ChallengePolicy.game == game))}
