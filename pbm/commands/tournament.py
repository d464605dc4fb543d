"""`GAME tournament create|join|leave|start|cancel|show NAME ...` and `GAME tournaments`:
the service functions the mail commands and the operator's `pbm tournament` both call."""

from __future__ import annotations

import re
import string

from sqlalchemy import select

from pbm.accounts.users import authenticate
from pbm.boards import rounds
from pbm.commands.grammar import Command, Invocation, game_command
from pbm.context import CommandError, Context, shorten
from pbm.db.models import Tournament, TournamentEntry, User
from pbm.db.statuses import BoardStatus, TournamentStatus
from pbm.games import registry
from pbm.games.base import AnyGame
from pbm.tournaments import swiss
from pbm.views.boardmail import announce_decline, send_board, wants_html
from pbm.views.tournament_page import (
    FORMAT_NAMES,
    list_html,
    list_text,
    tournament_html,
    tournament_text,
)
from pbm.width import fit

NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}\Z")
MAX_POOL = 20
MAX_ROUNDS = 20
MAX_DAYS = 99
ACTIONS = ("create", "join", "leave", "start", "cancel", "show")


def _game(inv: Invocation) -> AnyGame:
    assert inv.game is not None
    return registry.get(inv.game)


def find(ctx: Context, game: AnyGame, name: str) -> Tournament:
    """The tournament of `game` by that name; a clear error when there is none."""
    tournament = ctx.session.scalar(select(Tournament).where(
        Tournament.game == game.info.name, Tournament.name == name.lower()))
    if tournament is None:
        raise CommandError(f"There is no {game.info.title} tournament '{shorten(name)}'. "
                           f"'{game.info.name} tournaments' lists them.")
    return tournament


def _prefix(ctx: Context, game: str) -> str:
    """The next free letters for a tournament's boards: a, b, ... z, then aa, ab, ..."""
    taken = set(ctx.session.scalars(select(Tournament.prefix).where(Tournament.game == game)))
    letters = string.ascii_lowercase
    for size in (1, 2, 3):
        for index in range(len(letters) ** size):
            word, rest = "", index
            for _ in range(size):
                rest, digit = divmod(rest, len(letters))
                word = letters[digit] + word
            if word not in taken:
                return word
    raise CommandError("This game has as many tournaments as it can name.")


def _options(words: list[str], ctx: Context) -> dict[str, int | str]:
    """-format=roundrobin|swiss|knockout, -rounds=N, -pool=N, -nagtime=N, -forfeittime=N
    (one dash or two)."""
    chosen: dict[str, int | str] = {
        "format": rounds.ROUND_ROBIN, "pool": 10,
        "nagtime": ctx.time.tournament_nag_days, "forfeittime": ctx.time.tournament_forfeit_days}
    bounds = {"rounds": MAX_ROUNDS, "pool": MAX_POOL, "nagtime": MAX_DAYS, "forfeittime": MAX_DAYS}
    for word in words:
        name, _, value = word.lower().lstrip("-").partition("=")
        if name == "format":
            if value not in rounds.FORMATS:
                raise CommandError(f"-format is one of {', '.join(rounds.FORMATS)}, not "
                                   f"'{shorten(value)}'.")
            chosen[name] = value
        elif name in bounds:
            least = 3 if name == "pool" else 1
            if not (value.isascii() and value.isdigit()) or not least <= int(value) <= bounds[name]:
                raise CommandError(f"-{name} takes a number from {least} to {bounds[name]}, "
                                   f"not '{shorten(value)}'.")
            chosen[name] = int(value)
        else:
            raise CommandError(f"A tournament has no option '{shorten(word)}'. Its options: "
                               "-format=roundrobin|swiss|knockout -rounds=N -pool=N "
                               "-nagtime=N -forfeittime=N.")
    if int(chosen["forfeittime"]) <= int(chosen["nagtime"]):
        raise CommandError("The forfeit time must be longer than the nag time: a player is "
                           "reminded before they lose on time.")
    return chosen


def create(ctx: Context, game: AnyGame, name: str, organiser: User | None,
           option_words: list[str]) -> Tournament:
    """A new open tournament; `organiser` None: the operator's."""
    if game.info.players != 2:
        raise CommandError(f"Tournaments are for two-player games; {game.info.title} is not.")
    if organiser is not None and not ctx.limits.players_create_tournaments:
        raise CommandError("On this server only the operator creates tournaments.")
    name = name.lower()
    if not NAME.match(name):
        raise CommandError(f"'{shorten(name)}' cannot name a tournament: a letter, then up to "
                           "31 letters, digits, - or _.")
    if ctx.session.scalar(select(Tournament.id).where(Tournament.game == game.info.name,
                                                      Tournament.name == name)):
        raise CommandError(f"There is a {game.info.title} tournament '{name}' already; "
                           "choose another name.")
    options = _options(option_words, ctx)
    t = Tournament(game=game.info.name, name=name, prefix=_prefix(ctx, game.info.name),
                   format=str(options["format"]), pool_size=int(options["pool"]),
                   rounds=int(options["rounds"]) if "rounds" in options else None,
                   nag_days=int(options["nagtime"]), forfeit_days=int(options["forfeittime"]),
                   organiser_id=organiser.id if organiser else None,
                   status=TournamentStatus.OPEN, round=0, created_at=ctx.now)
    if t.format != rounds.SWISS and t.rounds is not None:
        raise CommandError("-rounds is for Swiss tournaments: a round robin plays every "
                           "pairing, a knockout until one player is left.")
    ctx.session.add(t)
    ctx.session.flush()
    ctx.answer(f"Tournament {name} created", fit(
        f"The {game.info.title} tournament {name} ({FORMAT_NAMES[t.format]}) is open. Its "
        f"boards will be named {t.prefix}101, {t.prefix}102, ...; a reminder comes after "
        f"{t.nag_days} day(s) without a move, a forfeit after {t.forfeit_days}. Players "
        f"join with: {game.info.name} tournament join {name} userid password. "
        f"Then start it with: {game.info.name} tournament start {name} userid password.")
        + "\n")
    return t


def join(ctx: Context, t: Tournament, user: User) -> None:
    if t.status != TournamentStatus.OPEN:
        raise CommandError(f"The tournament {t.name} has {t.status.value}; it takes no new "
                           "players.")
    if any(e.user_id == user.id for e in t.entries):
        raise CommandError(f"{user.userid} has joined the tournament {t.name} already.")
    if user.bot:
        raise CommandError("Bots do not play in tournaments.")
    if len(t.entries) >= ctx.limits.tournament_players:
        raise CommandError(f"The tournament {t.name} is full "
                           f"({ctx.limits.tournament_players} players).")
    t.entries.append(TournamentEntry(user=user, user_id=user.id, joined_at=ctx.now))
    ctx.session.flush()
    ctx.answer(f"Tournament {t.name}", f"{user.userid} has joined the tournament {t.name} "
               f"({len(t.entries)} players).\n")


def leave(ctx: Context, t: Tournament, user: User) -> None:
    entry = next((e for e in t.entries if e.user_id == user.id), None)
    if entry is None or entry.withdrawn_at is not None:
        raise CommandError(f"{user.userid} is not in the tournament {t.name}.")
    if t.status == TournamentStatus.OPEN:
        t.entries.remove(entry)
        ctx.answer(f"Tournament {t.name}", f"{user.userid} has left the tournament {t.name}.\n")
        return
    if t.status != TournamentStatus.RUNNING:
        raise CommandError(f"The tournament {t.name} has {t.status.value}; there is nothing "
                           "to leave.")
    for pos in rounds.withdraw(ctx, t, user):  # its players see how their board ended
        if pos.board.status == BoardStatus.DECLINED:
            announce_decline(ctx, pos, user)
        else:
            send_board(ctx, pos)
    ctx.answer(f"Tournament {t.name}", fit(
        f"{user.userid} has withdrawn from the tournament {t.name}: their boards in play "
        "are lost, their later games go to their opponents, their finished games stand.")
        + "\n")


def _organises(ctx: Context, t: Tournament, user: User | None) -> None:
    if ctx.admin or (user is not None and t.organiser_id == user.id):
        return
    raise CommandError(f"Only the organiser of the tournament {t.name} (or the operator) may "
                       "start or cancel it.")


def start(ctx: Context, t: Tournament, user: User | None) -> None:
    _organises(ctx, t, user)
    if t.status != TournamentStatus.OPEN:
        raise CommandError(f"The tournament {t.name} has {t.status.value} already.")
    if t.format == rounds.SWISS and t.rounds is not None and \
            t.rounds >= len(t.entries):
        raise CommandError(f"{t.rounds} Swiss rounds need more than {t.rounds} players; "
                           f"{t.name} has {len(t.entries)}.")
    if t.format == rounds.SWISS and t.rounds is None:
        t.rounds = swiss.recommended_rounds(len(t.entries))
    rounds.start(ctx, t)
    _answer_table(ctx, f"Tournament {t.name} started", t)


def cancel(ctx: Context, t: Tournament, user: User | None) -> None:
    _organises(ctx, t, user)
    if t.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise CommandError(f"The tournament {t.name} has {t.status.value} already.")
    rounds.cancel(ctx, t)
    ctx.answer(f"Tournament {t.name} cancelled", fit(
        f"The tournament {t.name} is cancelled: no more rounds. Its boards in play go on "
        "and are rated as any board.") + "\n")


def show(ctx: Context, t: Tournament) -> None:
    _answer_table(ctx, f"Tournament {t.name}", t)


def _answer_table(ctx: Context, subject: str, t: Tournament) -> None:
    """The tournament's text, and its table drawn for a reader who takes HTML."""
    text = tournament_text(ctx.session, t)
    html = tournament_html(ctx.session, t, text) if wants_html(ctx, ctx.sender) else None
    ctx.answer(subject, text, html)


def _listed(ctx: Context, game: AnyGame) -> list[Tournament]:
    """The game's newest 50 tournaments, newest first."""
    return list(ctx.session.scalars(select(Tournament).where(
        Tournament.game == game.info.name).order_by(Tournament.created_at.desc(),
                                                    Tournament.id.desc()).limit(50)))


def listing(ctx: Context, game: AnyGame) -> str:
    return list_text(game.info.title, game.info.name, _listed(ctx, game))


def do_tournament(ctx: Context, inv: Invocation) -> None:
    game = _game(inv)
    action = inv.args[0].lower()
    if action not in ACTIONS:
        raise CommandError(f"'{shorten(action)}' is not a tournament command: write "
                           f"{game.info.name} tournament {'|'.join(ACTIONS)} NAME ...")
    name = inv.args[1]
    if action == "show":
        show(ctx, find(ctx, game, name))
        return
    if len(inv.args) < 4:
        raise CommandError(f"Write: {game.info.name} tournament {action} {shorten(name)} "
                           "userid password")
    user = authenticate(ctx, inv.args[2], inv.args[3])
    if action == "create":
        create(ctx, game, name, user, list(inv.args[4:]))
        return
    if len(inv.args) > 4:
        raise CommandError(f"Too many words: write {game.info.name} tournament {action} "
                           f"{shorten(name)} userid password")
    # Locked: two nodes taking the last place, or starting it twice, wait for each other.
    t = rounds.locked(ctx.session, find(ctx, game, name).id)
    if action == "join":
        join(ctx, t, user)
    elif action == "leave":
        leave(ctx, t, user)
    elif action == "start":
        start(ctx, t, user)
    else:
        cancel(ctx, t, user)


def do_tournaments(ctx: Context, inv: Invocation) -> None:
    game = _game(inv)
    title, name = game.info.title, game.info.name
    found = _listed(ctx, game)
    text = list_text(title, name, found)
    html = list_html(title, name, found, text) if wants_html(ctx, ctx.sender) else None
    ctx.answer(f"{title} tournaments", text, html)


TOURNAMENT = game_command(Command(
    "tournament", "ACTION NAME [userid password] [options]",
    "Tournaments, ACTION one of these: 'create NAME userid password "
    "[-format=roundrobin|swiss|knockout] [-rounds=N] [-pool=N] [-nagtime=N "
    "-forfeittime=N]' opens one; players 'join' and "
    "'leave' it; its organiser 'start's (or 'cancel's) it; 'show NAME' mails the standings "
    "and pairings. Its boards are named a101, a102, ...",
    do_tournament, least=2, secret_args=(3,), login=(2, 3)))
TOURNAMENTS = game_command(Command(
    "tournaments", "", "The game's tournaments, newest first, with where each stands.",
    do_tournaments, most=0))
