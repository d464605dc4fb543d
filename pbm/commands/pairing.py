"""Automatic pairing: a `seek` pairs its sender with another seeker of the game at once, and
housekeeping pairs those left waiting (a limit that freed, a vacation that ended) and gives
a bot to a seeker who has waited `bots.seek_wait_hours`. Who is paired with whom is
pbm/accounts/pairing.py's choice; here the boards start as a challenge starts them, and the
players are told in the board mail."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select

from pbm.accounts import bots, pairing, policies
from pbm.accounts.pairing import Seeker
from pbm.boards import play
from pbm.boards.position import Position
from pbm.context import Context
from pbm.db.models import ChallengePolicy, User
from pbm.games import registry
from pbm.games.base import AnyGame
from pbm.games.bot_names import bot_userid
from pbm.views.boardmail import send_board

HOUR = timedelta(hours=1)
# Boards one housekeeping step starts in one game: what is left is paired next step.
MOST_PER_STEP = 100
AUTHOR = "pbm"  # who "writes" the board mail's note on how the board came about


@dataclass(frozen=True)
class Paired:
    """A board started by pairing: (game title, board number, the players' userids)."""

    title: str
    number: int
    userids: tuple[str, ...]


def pairs_players(game: AnyGame) -> bool:
    """Pairing makes boards of two: a game of more players keeps `seek` as a listing."""
    return game.info.players == 2


def bot_wait(ctx: Context, game: AnyGame) -> timedelta | None:
    """How long a seeker waits before a bot is paired with them (None: never)."""
    hours = ctx.bots.seek_wait_hours
    if not hours or not ctx.bots.plays(game.info.name):
        return None
    return hours * HOUR


def waiting_note(ctx: Context, game: AnyGame) -> str:
    wait = bot_wait(ctx, game)
    if wait is None:
        return ""
    hours = wait // HOUR
    return f" (or, after {hours} hour{'s' if hours != 1 else ''}, with a bot)"


# ----- a seek -----------------------------------------------------------------------------
def seek(ctx: Context, game: AnyGame, user: User) -> str:
    """Pair `user`, who has just said they seek `game`, with whoever may be paired with them
    now: as many boards as they seek, at most as many as one mail may start. What happened,
    in words for them."""
    title = game.info.title
    if not pairs_players(game):
        return f"{title} is not paired automatically: challenge a seeker yourself."
    pool = pairing.seekers(ctx.session, game, ctx.now, also=user)
    me = next((seeker for seeker in pool if seeker.user.id == user.id), None)
    if me is None:
        return ""  # not seeking (seek 0): the settings say so
    most = me.policy.seeking
    if not ctx.admin and ctx.limits.challenges_per_mail:
        most = min(most, max(0, ctx.limits.challenges_per_mail - ctx.challenges))
    lines = []
    for _ in range(most):
        if pairing.hindrance(me, game, ctx.now) is not None:
            break
        other = pairing.opponent_for(me, pool, game, ctx.now)
        if other is None:
            break
        pos = _start_between(ctx, game, me, other)
        lines.append(f"Paired with {other.user.userid}: {title} board {pos.board.number} has "
                     "started (the board comes in its own mail).")
    if me.policy.seeking <= 0:
        return "\n".join(lines)
    hindered = pairing.hindrance(me, game, ctx.now)
    if hindered is not None:
        lines.append(hindered)
    elif len(lines) == most and pairing.opponent_for(me, pool, game, ctx.now) is not None:
        lines.append("One mail starts only so many boards; the rest of your seek is paired "
                     "by the server within minutes.")
    else:
        alone = all(seeker is me or seeker.policy.seeking <= 0 for seeker in pool)
        first = (f"You are the only seeker of {title}" if alone else
                 f"No other {title} seeker can be paired with you now (nobody is paired with "
                 "the same opponent twice in a row, nor with one who could not take a board)")
        lines.append(f"{first}; you will be paired when someone else seeks"
                     f"{waiting_note(ctx, game)}.")
    return "\n".join(lines)


# ----- housekeeping -----------------------------------------------------------------------
def pair_waiting(ctx: Context) -> list[Paired]:
    """Within the caller's transaction, as of `ctx.now`: pair the seekers of every game who
    may be paired now, nearest ratings first, then give a bot to each who has waited long
    enough. Idempotent: what it leaves waiting could not be paired, and a seeker's wait for
    a bot starts again with each board they get."""
    done: list[Paired] = []
    names = ctx.session.scalars(select(ChallengePolicy.game).distinct()
                                .where(ChallengePolicy.seeking > 0)
                                .order_by(ChallengePolicy.game))
    for name in list(names):
        if name not in registry.names():
            continue  # a game no longer offered here
        game = registry.get(name)
        if pairs_players(game):
            done += _pair_game(ctx, game)
    return done


def _pair_game(ctx: Context, game: AnyGame) -> list[Paired]:
    done: list[Paired] = []
    pool = pairing.seekers(ctx.session, game, ctx.now)
    for seeker in pool:
        if seeker.policy.seeking_since is None:
            seeker.policy.seeking_since = ctx.now  # sought before pairing came: waits from now
    free = [seeker for seeker in pool if pairing.hindrance(seeker, game, ctx.now) is None]
    for one, other in pairing.pairs(free):
        if len(done) >= MOST_PER_STEP:
            return done
        if any(pairing.hindrance(seeker, game, ctx.now) is not None for seeker in (one, other)) \
                or pairing.is_repeat(one, other):
            continue  # paired already as far as they seek or may, this step
        done.append(_paired(_start_between(ctx, game, one, other)))
    wait = bot_wait(ctx, game)
    if wait is None:
        return done
    ratings = pairing.bot_ratings(ctx.session, game.info.name)
    for seeker in pool:
        if len(done) >= MOST_PER_STEP:
            break
        if pairing.hindrance(seeker, game, ctx.now) is not None \
                or ctx.now - seeker.since < wait:
            continue
        pos = _start_with_bot(ctx, game, seeker, ratings, wait)
        if pos is not None:
            done.append(_paired(pos))
    return done


def _paired(pos: Position) -> Paired:
    return Paired(pos.title, pos.board.number,
                  tuple(seat.user.userid for seat in pos.board.seats))


# ----- starting the boards ----------------------------------------------------------------
def _start_between(ctx: Context, game: AnyGame, one: Seeker, other: Seeker) -> Position:
    note = (f"{one.user.userid} and {other.user.userid} both sought {game.info.title} games, "
            f"so pbm paired them (ratings {one.rating} and {other.rating}); the seats were "
            "drawn by lot.")
    pos = _start(ctx, game, [one.user, other.user], note)
    one.paired(other.user, ctx.now)
    other.paired(one.user, ctx.now)
    _store(ctx, one, other)
    return pos


def _start_with_bot(ctx: Context, game: AnyGame, seeker: Seeker, ratings: dict[str, int],
                    wait: timedelta) -> Position | None:
    """The nearest bot by rating that takes on one more board with the seeker (each takes
    at most `bots.boards_per_player` at once); None when none does."""
    name, title = game.info.name, game.info.title
    for strength in pairing.bots_by_nearness(seeker.rating, ratings):
        bot = bots.require_player(ctx, bot_userid(strength))
        if not bot.bot:
            continue  # a person held the userid before the bots came
        if bots.boards_between(ctx.session, name, seeker.user, bot) \
                >= ctx.bots.boards_per_player:
            continue
        hours = wait // HOUR
        userid = seeker.user.userid
        note = (f"{userid} sought a {title} game and nobody else was paired with them in "
                f"{hours} hour{'s' if hours != 1 else ''}, so pbm paired them with {bot.userid}"
                f", the bot nearest their rating ({seeker.rating}; {bot.userid} counts as "
                f"{ratings[strength]}); the seats were drawn by lot. '{name} seek {userid} "
                "PASSWORD 0' stops seeking.")
        pos = _start(ctx, game, [seeker.user, bot], note)
        seeker.paired(bot, ctx.now)
        _store(ctx, seeker)
        return pos
    return None


def _start(ctx: Context, game: AnyGame, users: list[User], note: str) -> Position:
    """A board started as a challenge starts one, and its mails, with `note` as comment."""
    pos = play.start_board(ctx, game, users, game.parse_options(()), "seek", draw_seats=True)
    ctx.challenges += 1
    send_board(ctx, pos, new=True, comment=(AUTHOR, note))
    return pos


def _store(ctx: Context, *seekers: Seeker) -> None:
    for seeker in seekers:
        policies.store(ctx.session, seeker.policy)
