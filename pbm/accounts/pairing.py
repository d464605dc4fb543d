"""Automatic pairing of seekers (`GAME seek`): who is waiting, whom each may be paired with,
and which bot a seeker gets who has waited too long. Only the choice is made here; the
boards are started, and the players told, by pbm/commands/pairing.py.

The rules, which `help` and the README repeat:
- Only players who could be challenged now wait: signed on, not a bot, not on vacation, not
  refusing the game's challenges (`reject`), under their `limit` of active boards, with an
  address that gets mail. The others keep their `seek` and are paired once they could be.
- Nearest rating first: a player who has finished no game of it counts as the start rating.
  Equal distances go to whoever has waited longest.
- Never the same pair twice in a row: two players are not paired when the last board
  (active or finished) of the game of either of them was against the other. They wait for
  someone else instead, or for a bot.
- A bot's strength is chosen by rating: each bot counts as its measured rating in the game
  once it has finished PROVISIONAL_GAMES games of it, and as its NOMINAL one before; the
  seeker gets the bot nearest their own rating (the stronger one on a tie). With the
  nominal ratings alone: below 1500 easybot, below 1800 goodbot, else bestbot.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pbm.accounts import policies, vacations
from pbm.accounts.addresses import addresses_of
from pbm.db.models import Board, BoardStatus, ChallengePolicy, Rating, Seat, User
from pbm.games.base import AnyGame
from pbm.games.bot_names import STRENGTHS, bot_userid
from pbm.ratings.formulas import PROVISIONAL_GAMES, START

# What each bot counts as before it has a measured rating in a game: the midpoints 1500 and
# 1800 split the seekers between them.
NOMINAL = {"easy": 1350, "good": 1650, "best": 1950}
# Seekers of one game looked at in one go, longest waiting first: a bound on the work (the
# pairs compared grow with its square); the others are looked at once these are paired.
MOST_LOOKED = 200


@dataclass
class Seeker:
    """A player seeking boards of a game, with what pairing them depends on."""

    user: User
    policy: ChallengePolicy
    rating: int
    playing: int  # active boards of the game now
    last_opponent: int | None  # user id on their last active or finished board of it

    @property
    def since(self) -> datetime:
        return self.policy.seeking_since or datetime.min

    def paired(self, opponent: User, now: datetime) -> None:
        """A board has started for them against `opponent`: counted as pairing counts it."""
        policies.count_down(self.policy, now)
        self.playing += 1
        self.last_opponent = opponent.id


def hindrance(seeker: Seeker, game: AnyGame, now: datetime) -> str | None:
    """Why `seeker` cannot be paired now, in words for them (None: they can)."""
    user, policy, name = seeker.user, seeker.policy, game.info.name
    if policy.seeking <= 0:
        return "You are not seeking games."
    if vacations.on_vacation(user, now):
        assert user.vacation_until is not None
        return (f"You are on vacation until {user.vacation_until:%Y-%m-%d %H:%M} UTC; you "
                "will be paired once you are back.")
    if policy.refuses:
        return (f"You refuse {game.info.title} challenges, so you are not paired either "
                f"('{name} accept {user.userid} PASSWORD' takes them again).")
    if policy.board_limit is not None and seeker.playing >= policy.board_limit:
        return (f"You play {seeker.playing} active {game.info.title} boards, your limit "
                f"('{name} limit'); you will be paired when one of them ends.")
    if not addresses_of(user):
        return "No mail address of yours receives mail now, so you could not get a board."
    return None


def is_repeat(one: Seeker, other: Seeker) -> bool:
    """Whether pairing them would be the same pair twice in a row."""
    return one.last_opponent == other.user.id or other.last_opponent == one.user.id


def opponent_for(seeker: Seeker, others: Iterable[Seeker], game: AnyGame,
                 now: datetime) -> Seeker | None:
    """The seeker `seeker` is paired with now: the nearest rating, then the longest wait."""
    fit = [other for other in others if other.user.id != seeker.user.id
           and hindrance(other, game, now) is None and not is_repeat(seeker, other)]
    return min(fit, default=None, key=lambda other: (
        abs(other.rating - seeker.rating), other.since, other.user.userid))


def pairs(seekers: Sequence[Seeker]) -> list[tuple[Seeker, Seeker]]:
    """Every pair that may be made, the nearest ratings first (then the longest wait)."""
    found = [(one, other) for i, one in enumerate(seekers) for other in seekers[i + 1:]
             if not is_repeat(one, other)]
    return sorted(found, key=lambda pair: (abs(pair[0].rating - pair[1].rating),
                                           min(pair[0].since, pair[1].since),
                                           pair[0].user.userid, pair[1].user.userid))


def seekers(session: Session, game: AnyGame, now: datetime,
            also: User | None = None) -> list[Seeker]:
    """The players seeking `game` (at most MOST_LOOKED, and `also` besides), longest waiting
    first: a few queries whatever their number."""
    name = game.info.name
    rows: list[tuple[ChallengePolicy, User]] = [(policy, user) for policy, user in session.execute(
        select(ChallengePolicy, User).join(User, User.id == ChallengePolicy.user_id)
        .where(ChallengePolicy.game == name, ChallengePolicy.seeking > 0,
               User.active.is_(True), User.bot.is_(None))
        # Those who sought before pairing came (no time stored) first: they waited longest.
        .order_by(ChallengePolicy.seeking_since.is_not(None), ChallengePolicy.seeking_since,
                  User.userid)
        .limit(MOST_LOOKED))]
    if also is not None and all(user.id != also.id for _, user in rows):
        mine = session.get(ChallengePolicy, (also.id, name))
        if mine is not None and mine.seeking > 0:
            rows.append((mine, also))
    ids = [user.id for _, user in rows]
    if not ids:
        return []
    ratings = {rating.user_id: rating.rating for rating in session.scalars(
        select(Rating).where(Rating.game == name, Rating.user_id.in_(ids)))}
    playing = policies.active_boards(session, name, ids)
    last = last_opponents(session, name, ids)
    return [Seeker(user, policy, ratings.get(user.id, START), playing.get(user.id, 0),
                   last.get(user.id)) for policy, user in rows]


def last_opponents(session: Session, game: str, user_ids: Sequence[int]) -> dict[int, int]:
    """Each user's opponent on their last active or finished board of `game`."""
    last_boards = {user_id: board_id for user_id, board_id in session.execute(
        select(Seat.user_id, func.max(Board.id)).join(Board, Board.id == Seat.board_id)
        .where(Board.game == game, Seat.user_id.in_(user_ids),
               Board.status.in_([BoardStatus.ACTIVE, BoardStatus.FINISHED]))
        .group_by(Seat.user_id))}
    if not last_boards:
        return {}
    players: dict[int, list[int]] = {}
    for board_id, user_id in session.execute(
            select(Seat.board_id, Seat.user_id).where(Seat.board_id.in_(
                set(last_boards.values())))):
        players.setdefault(board_id, []).append(user_id)
    found = {}
    for user_id, board_id in last_boards.items():
        others = [other for other in players.get(board_id, []) if other != user_id]
        if others:
            found[user_id] = others[0]
    return found


def bot_ratings(session: Session, game: str) -> dict[str, int]:
    """What each bot counts as in `game`, by strength: measured once established."""
    measured = {userid: rating for userid, rating in session.execute(
        select(User.userid, Rating.rating).join(Rating, Rating.user_id == User.id)
        .where(Rating.game == game, User.bot.is_not(None),
               Rating.won + Rating.lost + Rating.tied >= PROVISIONAL_GAMES))}
    return {strength: measured.get(bot_userid(strength), NOMINAL[strength])
            for strength in STRENGTHS}


def bots_by_nearness(rating: int, bots: dict[str, int]) -> list[str]:
    """The bots' strengths, the one nearest `rating` first (the stronger on a tie)."""
    order = {strength: i for i, strength in enumerate(STRENGTHS)}
    return sorted(bots, key=lambda strength: (abs(bots[strength] - rating), -order[strength]))
