"""Who may challenge you: `accept`/`reject` challenges of a game, `limit` your active boards,
`seek` more games (and `GAME games seek`, the list of seekers)."""

from __future__ import annotations

from pbm.accounts import policies
from pbm.accounts.users import authenticate
from pbm.commands import pairing
from pbm.commands.grammar import Command, Invocation, game_command, usage
from pbm.context import CommandError, Context
from pbm.db.models import ChallengePolicy, User
from pbm.games import registry
from pbm.games.base import AnyGame

MOST_BOARDS = 999  # a limit above this is no limit worth storing
MOST_SEEKING = 99


def _game(inv: Invocation) -> AnyGame:
    assert inv.game is not None
    return registry.get(inv.game)


def summary(ctx: Context, user: User, game: AnyGame, policy: ChallengePolicy) -> str:
    """The user's settings for `game`, in words, with how to change them."""
    name, title = game.info.name, game.info.title
    playing = policies.active_boards(ctx.session, name, [user.id]).get(user.id, 0)
    lines = [f"{user.userid}'s {title} settings:"]
    if policy.refuses:
        lines.append(f"- Challenges naming {user.userid} are refused ({name} accept "
                     f"{user.userid} PASSWORD takes them again).")
    else:
        lines.append(f"- Challenges naming {user.userid} are accepted ({name} reject "
                     f"{user.userid} PASSWORD refuses them).")
    if policy.board_limit is None:
        lines.append(f"- No limit of active boards ({playing} now).")
    else:
        lines.append(f"- At most {policy.board_limit} active boards ({playing} now); a "
                     "challenge beyond it is refused.")
    if policy.seeking:
        lines.append(f"- Seeking {policy.seeking} more game{'s' if policy.seeking > 1 else ''}"
                     f" (listed by '{name} games seek'; each board paired or challenge "
                     "counts one).")
    else:
        lines.append("- Not seeking games.")
    return "\n".join(lines) + "\n"


def _change(ctx: Context, game: AnyGame, userid: str, password: str | None,
            headline: bool = False, **changes: object) -> ChallengePolicy:
    """Change the user's policy and answer with all of it (`headline`: the limit first)."""
    user = authenticate(ctx, userid, password or "")
    policy = policies.policy_of(ctx.session, user, game.info.name)
    for key, value in changes.items():
        setattr(policy, key, value)
    first = f"{limit_line(game, policy)}\n\n" if headline else ""
    ctx.answer(f"{game.info.title} settings of {user.userid}",
               first + summary(ctx, user, game, policy))
    policies.store(ctx.session, policy)
    return policy


def _number(word: str, most: int, inv: Invocation, or_words: str = "") -> int:
    if not (word.isascii() and word.isdigit()) or len(word) > 4 or int(word) > most:
        # Not quoted: a word after the password may be the password, typed one place late.
        also = f",{or_words}" if or_words else ""
        raise CommandError(f"The last word must be a number from 0 to {most}{also}. Write: "
                           f"{usage(inv)}")
    return int(word)


# ----- the typed commands -----------------------------------------------------------------
def accept(ctx: Context, game: AnyGame, userid: str, password: str | None) -> ChallengePolicy:
    """Challenges naming the user in this game are made again."""
    return _change(ctx, game, userid, password, refuses=False)


def reject(ctx: Context, game: AnyGame, userid: str, password: str | None) -> ChallengePolicy:
    """Challenges naming the user in this game are refused (their own are not)."""
    return _change(ctx, game, userid, password, refuses=True)


def limit(ctx: Context, game: AnyGame, userid: str, password: str | None,
          most: int | None) -> ChallengePolicy:
    """At most `most` active boards of the game, challenges taken (None: no limit; 0: no
    challenges at all, as pbmserv's limit 0 and `reject`, the limit kept for `accept`)."""
    changes: dict[str, object] = {"refuses": True} if most == 0 else \
        {"refuses": False, "board_limit": most}
    return _change(ctx, game, userid, password, headline=True, **changes)


def limit_status(ctx: Context, game: AnyGame, userid: str,
                 password: str | None) -> ChallengePolicy:
    """Say the user's limit in this game, changing nothing (pbmserv's `limit` alone)."""
    user = authenticate(ctx, userid, password or "")
    policy = policies.policy_of(ctx.session, user, game.info.name)
    ctx.answer(f"{game.info.title} settings of {user.userid}",
               f"{limit_line(game, policy)}\nTo change it: {game.info.name} limit "
               f"{user.userid} PASSWORD n (a number), accept (no limit) or reject (no "
               f"challenges).\n\n{summary(ctx, user, game, policy)}")
    return policy


def limit_line(game: AnyGame, policy: ChallengePolicy) -> str:
    """The limit in one line, as pbmserv's players read it."""
    most = policy.board_limit
    said = "you refuse challenges" if policy.refuses else "no limit" if most is None else \
        f"at most {most} active board{'s' if most != 1 else ''}"
    return f"Your {game.info.title} limit: {said}."


def seek(ctx: Context, game: AnyGame, userid: str, password: str | None,
         wanted: int) -> ChallengePolicy:
    """The user wants `wanted` more games (0: no more), and is paired at once with another
    seeker where one may be (commands/pairing.py); the answer says what happened."""
    user = authenticate(ctx, userid, password or "")
    policy = policies.policy_of(ctx.session, user, game.info.name)
    policy.seeking = wanted
    # Seeking again, or for more, keeps one's place: the wait counts from the first seek.
    policy.seeking_since = (policy.seeking_since or ctx.now) if wanted else None
    policies.store(ctx.session, policy)
    said = pairing.seek(ctx, game, user) if wanted else \
        f"You no longer seek {game.info.title} games."
    ctx.answer(f"{game.info.title} settings of {user.userid}",
               (f"{said}\n\n" if said else "") + summary(ctx, user, game, policy))
    return policy


# ----- mail handlers ----------------------------------------------------------------------
def do_accept(ctx: Context, inv: Invocation) -> None:
    accept(ctx, _game(inv), *inv.args)


def do_reject(ctx: Context, inv: Invocation) -> None:
    reject(ctx, _game(inv), *inv.args)


# pbmserv's words for a limit, beside a number: no limit, or no challenges.
NO_LIMIT = ("accept", "all", "inf")
NO_CHALLENGES = ("reject",)


def do_limit(ctx: Context, inv: Invocation) -> None:
    if len(inv.args) < 3:
        limit_status(ctx, _game(inv), inv.args[0], inv.args[1])
        return
    word = inv.args[2].lower()
    if word in NO_LIMIT:
        most: int | None = None
    elif word in NO_CHALLENGES:
        most = 0
    else:
        most = _number(word, MOST_BOARDS, inv, " accept (no limit) or reject (no challenges)")
    limit(ctx, _game(inv), inv.args[0], inv.args[1], most)


def do_seek(ctx: Context, inv: Invocation) -> None:
    wanted = _number(inv.args[2], MOST_SEEKING, inv) if len(inv.args) > 2 else 1
    seek(ctx, _game(inv), inv.args[0], inv.args[1], wanted)


ACCEPT = game_command(Command(
    "accept", "userid password",
    "Take challenges of this game again (after 'reject').", do_accept, least=2, most=2,
    secret_args=(1,), login=(0, 1)))
REJECT = game_command(Command(
    "reject", "userid password",
    "Refuse challenges of this game that name you: the challenger is told. Boards you "
    "start yourself are not refused; the operator's command line is not either.",
    do_reject, least=2, most=2, secret_args=(1,), login=(0, 1)))
LIMIT = game_command(Command(
    "limit", "userid password [n|accept|reject]",
    "Play at most n active boards of this game: a challenge beyond it is refused. 'accept' "
    "(or all, inf): no limit, and challenges are taken; 'reject' (or 0): no challenges, as "
    "'reject'. No word: what your limit is now.", do_limit, least=2, most=3,
    secret_args=(1,), login=(0, 1)))
SEEK = game_command(Command(
    "seek", "userid password [n]",
    "Say you want n more games (default 1; 0: no more). You are paired at once with another "
    "seeker of the game, the nearest rating first (never the same opponent twice in a row; "
    "seats by lot), and the board starts; alone, you wait ('GAME games seek' lists you), and "
    "where the bots play, one near your rating is paired with you after a wait. Each board "
    "paired, and each challenge naming you, counts one.", do_seek, least=2, most=3,
    secret_args=(1,), login=(0, 1)))
