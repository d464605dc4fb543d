"""The standings of one game: established players, provisionals and the inactive, ranked."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pbm.accounts import policies
from pbm.db.models import Board, BoardStatus, ChallengePolicy, Rating, Seat, User
from pbm.ratings.formulas import PROVISIONAL_GAMES, is_provisional

INACTIVE_AFTER = timedelta(days=180)
BOT_MARK = "*"
INACTIVE_DAYS = INACTIVE_AFTER.days
DEFINITIONS = (f"Provisionals have finished fewer than {PROVISIONAL_GAMES} games. Inactive: "
               "signed off, or with no active board of this game and none of it finished in "
               f"the last {INACTIVE_DAYS} days.")


class Section(StrEnum):
    ESTABLISHED = "Established"
    PROVISIONALS = "Provisionals"
    INACTIVE = "Inactive"


@dataclass(frozen=True)
class Standing:
    """One player's line: their record in the game and how many of its boards they play."""

    userid: str
    rating: int
    won: int
    lost: int
    tied: int
    active: int  # active boards of this game
    section: Section
    limit: str = ""  # what the player takes: "/ 5" (at most 5 active boards), "/reject", ""
    seeking: int = 0  # more games the player wants (`GAME seek`)
    bot: bool = False  # a computer player (help bots): marked in the table

    @property
    def name(self) -> str:
        return self.userid + BOT_MARK if self.bot else self.userid


def standings(session: Session, game: str, now: datetime) -> list[Standing]:
    """Every rated player of `game`, by section, best rating first (equal ones by userid).

    Inactive: signed off, or with no active board of the game and no game of it finished
    in the last 180 days. Whoever is not inactive is provisional below 20 finished games."""
    active = {user_id: count for user_id, count in session.execute(
        select(Seat.user_id, func.count())
        .join(Board, Board.id == Seat.board_id)
        .where(Board.game == game, Board.status == BoardStatus.ACTIVE)
        .group_by(Seat.user_id))}
    last_finished = {user_id: when for user_id, when in session.execute(
        select(Seat.user_id, func.max(Board.finished_at))
        .join(Board, Board.id == Seat.board_id)
        .where(Board.game == game, Board.status == BoardStatus.FINISHED)
        .group_by(Seat.user_id))}
    rows = session.execute(
        select(Rating, User.userid, User.active, User.bot)
        .join(User, User.id == Rating.user_id)
        .where(Rating.game == game))
    said = policies.marks(session, game)
    found = []
    for rating, userid, signed_on, bot in rows:
        boards = active.get(rating.user_id, 0)
        last = last_finished.get(rating.user_id)
        recent = last is not None and now - last < INACTIVE_AFTER
        if not signed_on or not (boards or recent):
            section = Section.INACTIVE
        elif is_provisional(rating.finished):
            section = Section.PROVISIONALS
        else:
            section = Section.ESTABLISHED
        policy = said.get(rating.user_id)
        found.append(Standing(userid, rating.rating, rating.won, rating.lost, rating.tied,
                              boards, section, *_limit_and_seeking(policy), bot=bool(bot)))
    order = list(Section)
    return sorted(found, key=lambda s: (order.index(s.section), -s.rating, s.userid))


def _limit_and_seeking(policy: ChallengePolicy | None) -> tuple[str, int]:
    if policy is None:
        return "", 0
    limit = "/reject" if policy.refuses else \
        "" if policy.board_limit is None else f"/ {policy.board_limit}"
    return limit, policy.seeking


def ranks(players: list[Standing]) -> list[int]:
    """Competition ranks of players sorted best first: equal ratings share a rank (1, 2, 2, 4)."""
    result: list[int] = []
    for i, player in enumerate(players):
        same = i > 0 and players[i - 1].rating == player.rating
        result.append(result[-1] if same else i + 1)
    return result


def standings_tables(players: list[Standing]) -> list[tuple[str, list[str], list[list[str]]]]:
    """The standings as (section, headings, rows of cells) with the text part's figures,
    for the drawn (HTML) tables."""
    ties = any(p.tied for p in players)
    said = any(p.limit or p.seeking for p in players)
    headings = ["Rank", "Name", "Rating", "Won", "Lost", *(["Ties"] if ties else []),
                *(["Active/Limit", "Seeking"] if said else ["Active"])]
    found = []
    for section in Section:
        members = [p for p in players if p.section is section]
        if not members:
            continue
        rows = []
        for rank, p in zip(ranks(members), members):
            cells = [str(rank), p.name, str(p.rating), str(p.won), str(p.lost)]
            cells += [str(p.tied)] if ties else []
            cells += ([f"{p.active}{p.limit}", str(p.seeking) if p.seeking else ""] if said
                      else [str(p.active)])
            rows.append(cells)
        found.append((section.value, headings, rows))
    return found


def standings_text(title: str, players: list[Standing]) -> str:
    """The standings mail: a table per section, a Ties column only when any game was tied,
    and pbmserv's Active/Limit and Seeking only when any player set a limit or seeks."""
    if not players:
        return f"{title} Standings\n\nNo games have finished yet.\n"
    ties = any(p.tied for p in players)
    name_width = max(len("Name"), *(len(p.name) for p in players))
    header = ["Rank", "Name".ljust(name_width), "Rating", " Won", "Lost"]
    header += ["Ties"] if ties else []
    said = any(p.limit or p.seeking for p in players)
    header += ["Active/Limit".ljust(13), "Seeking"] if said else ["Active"]
    lines = [f"{title} Standings"]
    for section in Section:
        members = [p for p in players if p.section is section]
        if not members:
            continue
        lines += ["", section.value, "  ".join(header)]
        for rank, p in zip(ranks(members), members):
            cells = [f"{rank:>4}", p.name.ljust(name_width), f"{p.rating:>6}",
                     f"{p.won:>4}", f"{p.lost:>4}"]
            cells += [f"{p.tied:>4}"] if ties else []
            if said:
                seeking = str(p.seeking) if p.seeking else ""
                cells += [f"{p.active:>6}{p.limit:<7}", f"{seeking:>7}"]
            else:
                cells += [f"{p.active:>6}"]
            lines.append("  ".join(cells).rstrip())
    lines += ["", *textwrap.wrap(DEFINITIONS, 76)]
    if any(p.bot for p in players):
        lines.append(f"{BOT_MARK} A bot, a computer player: 'help bots' says how it plays.")
    return "\n".join(lines) + "\n"
