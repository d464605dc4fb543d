"""The computer players' accounts: who is a bot, and which challenges a bot takes.

A bot is a user with `bot` set: easybot, goodbot and bestbot, each made the first time it
is challenged (unless a person held the userid before the bots came). It has no address and
no password: nothing is ever mailed to it, nobody logs in as it, and the
server moves for it (mail/botmoves.py). What it takes on is decided here."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session, aliased

from pbm.accounts.users import find_user, require_user
from pbm.context import CommandError, Context
from pbm.db.models import Board, BoardStatus, Seat, User, utcnow
from pbm.games import registry
from pbm.games.base import AnyGame
from pbm.games.bot_names import bots_play, strength_of

# No argon2 hash: no password ever matches it, so nobody logs in as a bot.
NO_PASSWORD = "!"


def require_player(ctx: Context, userid: str) -> User:
    """The user named, as require_user; a bot's userid names the bot, whose account is
    made the first time it is challenged (none of the bots' accounts exist before)."""
    user = find_user(ctx, userid)
    strength = strength_of(userid.lower())
    if user is None and strength is not None:
        return _make_bot(ctx.session, userid.lower(), strength)
    return require_user(ctx, userid)


def _make_bot(session: Session, userid: str, strength: str) -> User:
    # Two nodes may make it at once: the second insert does nothing, and both read the one.
    insert = postgresql_insert if session.get_bind().dialect.name == "postgresql" \
        else sqlite_insert
    session.execute(insert(User).values(userid=userid, password_hash=NO_PASSWORD, bot=strength,
                                        html=False, created_at=utcnow(), active=True,
                                        wrong_passwords=0)
                    .on_conflict_do_nothing(index_elements=["userid"]))
    user = session.scalar(select(User).where(User.userid == userid))
    assert user is not None
    return user


def games_played(ctx: Context) -> list[str]:
    """The titles of the games the bots play on this server."""
    return [registry.get(name).info.title for name in registry.names()
            if ctx.bots.plays(name)]


def check_challenge(ctx: Context, game: AnyGame, users: Sequence[User]) -> None:
    """Refuse a challenge a bot does not take: a game it does not play here, a board of
    bots alone (by mail), or one board too many between a player and a bot."""
    bots = [user for user in users if user.bot]
    if not bots:
        return
    title, name = game.info.title, game.info.name
    if not bots_play(game):
        raise CommandError(f"There are no bots for {title}: the game does not say what a "
                           "player may see of it, so a bot could not play fair; this "
                           "challenge was not made.")
    if not ctx.bots.plays(name):
        played = games_played(ctx)
        where = f"they play {', '.join(played)}" if played else "they play no game here"
        raise CommandError(f"{bots[0].userid} does not play {title} on this server ({where}; "
                           "see 'help bots'); this challenge was not made.")
    people = [user for user in users if not user.bot]
    if not people:
        if ctx.admin:
            return  # the operator may set bots on each other (to watch, or to measure)
        raise CommandError("A board needs a person on it: bots are not challenged against "
                           "each other by mail. Name yourself and a bot.")
    most = ctx.bots.boards_per_player
    for bot in bots:
        for person in people:
            playing = boards_between(ctx.session, name, person, bot)
            if playing >= most:
                raise CommandError(
                    f"{person.userid} already plays {playing} active {title} board"
                    f"{'s' if playing != 1 else ''} against {bot.userid}, the most a bot takes "
                    f"on with one player at a time; this challenge was not made. Finish one "
                    "first, or challenge another bot.")


def boards_between(session: Session, game: str, person: User, bot: User) -> int:
    """Active boards of `game` on which both play."""
    theirs = aliased(Seat)
    return session.scalar(
        select(func.count()).select_from(Seat)
        .join(Board, Board.id == Seat.board_id)
        .join(theirs, theirs.board_id == Board.id)
        .where(Board.game == game, Board.status == BoardStatus.ACTIVE,
               Seat.user_id == person.id, theirs.user_id == bot.id)) or 0


def active_boards(session: Session, bot: User) -> list[Board]:
    """The bot's active boards, of every game, oldest first."""
    return list(session.scalars(
        select(Board).join(Seat, Seat.board_id == Board.id)
        .where(Seat.user_id == bot.id, Board.status == BoardStatus.ACTIVE)
        .order_by(Board.id)))
