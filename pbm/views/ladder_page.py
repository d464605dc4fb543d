"""A game's ladder as its mail shows it: rank, player, rating, ladder wins and losses, and
the challenge each has in play. Bounded: the top of the ladder and the asker's place."""

from __future__ import annotations

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from pbm.db.models import Board, LadderGame, LadderRung, Rating, User
from pbm.ratings.formulas import START
from pbm.width import fit

TOP = 200  # ranks shown from the top, whoever asks
NEAR = 10  # ... and this many either side of the asker's own rank
HEADER = f"{'Rank':>4}  {'Player':<16} {'Rating':>6} {'Won':>4} {'Lost':>4}  Challenge"


def ladder_text(session: Session, game: str, title: str, reach: int,
                asker: User | None = None) -> str:
    """The ladder of `game` for `asker` (None: the top only)."""
    size = session.scalar(select(LadderRung.rank).where(LadderRung.game == game)
                          .order_by(LadderRung.rank.desc()).limit(1)) or 0
    lines = [fit(f"The {title} ladder: {size} player{'s' if size != 1 else ''}. A player "
                 f"may challenge someone up to {reach} places above."), ""]
    if not size:
        lines.append(f"Nobody yet. Join: {game} ladder join userid password")
        return "\n".join(lines) + "\n"
    mine = session.get(LadderRung, (game, asker.id)) if asker is not None else None
    shown = LadderRung.rank <= TOP
    if mine is not None:
        shown = or_(shown, LadderRung.rank.between(mine.rank - NEAR, mine.rank + NEAR))
    rows = list(session.execute(
        select(LadderRung, User.userid, Rating.rating).join(User, User.id == LadderRung.user_id)
        .outerjoin(Rating, (Rating.user_id == LadderRung.user_id) & (Rating.game == game))
        .where(LadderRung.game == game, shown).order_by(LadderRung.rank)))
    challenges = _challenges(session, game, [rung.user_id for rung, _, _ in rows])
    lines.append(HEADER)
    last = 0
    for rung, userid, rating in rows:
        if rung.rank > last + 1:
            lines.append(f"{'...':>4}")
        last = rung.rank
        line = (f"{rung.rank:>4}  {userid:<16} {rating or START:>6} {rung.wins:>4} "
                f"{rung.losses:>4}  {challenges.get(rung.user_id, '')}")
        lines.append(line.rstrip())
    if last < size:
        lines.append(f"{'...':>4}")
    lines += ["", fit(f"Challenge: {game} ladder challenge userid password OTHER. A win "
                      "takes the other's place (those between move one down); a challenged "
                      "player who never moves on the board loses it.")]
    return "\n".join(lines) + "\n"


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
