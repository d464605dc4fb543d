"""A game's ladder as its mail shows it: rank, player, rating, ladder wins and losses, and
the challenge each has in play. Bounded: the top of the ladder and the asker's place."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from pbm.db.models import Board, LadderGame, LadderRung, Rating, User
from pbm.ratings.formulas import START
from pbm.views.boardhtml import table_document
from pbm.width import fit

TOP = 200  # ranks shown from the top, whoever asks
NEAR = 10  # ... and this many either side of the asker's own rank
HEADER = f"{'Rank':>4}  {'Player':<16} {'Rating':>6} {'Won':>4} {'Lost':>4}  Challenge"


GAP = "..."  # a row standing for ranks not shown
HEADINGS = ["Rank", "Player", "Rating", "Won", "Lost", "Challenge"]
FIGURES = (0, 2, 3, 4)  # the columns of numbers, right-aligned in the drawn table


@dataclass(frozen=True)
class LadderPage:
    """What the ladder mail says: its first line, the rows (cells as the text shows them;
    a row of GAP alone for ranks left out) and the note after them (none when empty)."""

    intro: str
    rows: list[list[str]]
    note: str


def ladder_page(session: Session, game: str, title: str, reach: int,
                asker: User | None = None) -> LadderPage:
    """The ladder of `game` for `asker` (None: the top only)."""
    size = session.scalar(select(LadderRung.rank).where(LadderRung.game == game)
                          .order_by(LadderRung.rank.desc()).limit(1)) or 0
    intro = fit(f"The {title} ladder: {size} player{'s' if size != 1 else ''}. A player "
                f"may challenge someone up to {reach} places above.")
    if not size:
        return LadderPage(intro, [], f"Nobody yet. Join: {game} ladder join userid password")
    mine = session.get(LadderRung, (game, asker.id)) if asker is not None else None
    shown = LadderRung.rank <= TOP
    if mine is not None:
        shown = or_(shown, LadderRung.rank.between(mine.rank - NEAR, mine.rank + NEAR))
    found = list(session.execute(
        select(LadderRung, User.userid, Rating.rating).join(User, User.id == LadderRung.user_id)
        .outerjoin(Rating, (Rating.user_id == LadderRung.user_id) & (Rating.game == game))
        .where(LadderRung.game == game, shown).order_by(LadderRung.rank)))
    challenges = _challenges(session, game, [rung.user_id for rung, _, _ in found])
    rows: list[list[str]] = []
    last = 0
    for rung, userid, rating in found:
        if rung.rank > last + 1:
            rows.append([GAP])
        last = rung.rank
        rows.append([str(rung.rank), userid, str(rating or START), str(rung.wins),
                     str(rung.losses), challenges.get(rung.user_id, "")])
    if last < size:
        rows.append([GAP])
    note = fit(f"Challenge: {game} ladder challenge userid password OTHER. A win "
               "takes the other's place (those between move one down); a challenged "
               "player who never moves on the board loses it.")
    return LadderPage(intro, rows, note)


def ladder_text(page: LadderPage) -> str:
    """The ladder mail's text: within 76 columns (a userid is at most 16 letters)."""
    lines = [page.intro, ""]
    if not page.rows:
        return "\n".join([*lines, page.note]) + "\n"
    lines.append(HEADER)
    for row in page.rows:
        if row == [GAP]:
            lines.append(f"{GAP:>4}")
            continue
        rank, userid, rating, wins, losses, challenge = row
        lines.append(f"{rank:>4}  {userid:<16} {rating:>6} {wins:>4} {losses:>4}  "
                     f"{challenge}".rstrip())
    return "\n".join([*lines, "", page.note]) + "\n"


def ladder_html(page: LadderPage) -> str | None:
    """The ladder mail's HTML part: the same rows as a drawn table (a gap as a row of
    GAP); None for an empty ladder, which has no table."""
    if not page.rows:
        return None
    cells = [row if row != [GAP] else [GAP] + [""] * (len(HEADINGS) - 1) for row in page.rows]
    return table_document(page.intro, [(HEADINGS, cells)], page.note, figures=FIGURES)


def _challenges(session: Session, game: str, user_ids: list[int]) -> dict[int, str]:
    """What the Challenge column says for each of `user_ids` that has one in play."""
    if not user_ids:
        return {}
    found = session.execute(
        select(LadderGame.challenger_id, LadderGame.challenged_id, Board.prefix, Board.number)
        .join(Board, Board.id == LadderGame.board_id)
        .where(LadderGame.game == game, LadderGame.outcome.is_(None),
               or_(LadderGame.challenger_id.in_(user_ids),
                   LadderGame.challenged_id.in_(user_ids))))
    pairs = [(up, down, f"{prefix}{number}") for up, down, prefix, number in found]
    names: dict[int, str] = {user_id: userid for user_id, userid in session.execute(
        select(User.id, User.userid).where(
            User.id.in_({i for up, down, _ in pairs for i in (up, down)})))} if pairs else {}
    said: dict[int, str] = {}
    for up, down, label in pairs:
        # At most 5 + 16 + 4 + a board's number: within 76 columns after the others.
        said[up] = f"to {names[down]} on {label}"
        said[down] = f"from {names[up]} on {label}"
    return said
