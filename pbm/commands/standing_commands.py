"""Game commands about finished games: the standings (ratings) and the history."""

from __future__ import annotations

import textwrap

from pbm.accounts.users import require_user
from pbm.boards import rounds
from pbm.commands.grammar import Command, Invocation, game_command, usage
from pbm.context import CommandError, Context
from pbm.db.models import User
from pbm.games import registry
from pbm.views.boardhtml import table_document
from pbm.views.boardmail import wants_html
from pbm.views.history import PAGE, history_page, history_text
from pbm.views.standings import DEFINITIONS, standings, standings_tables, standings_text
from pbm.views.tournament_page import heading, pool_cells, running, running_tables
from pbm.width import WIDTH

MOST_DIGITS = 9  # a page number beyond this is no page (and no huge int to parse)


def _title(inv: Invocation) -> str:
    assert inv.game is not None
    return registry.get(inv.game).info.title


# ----- standings ------------------------------------------------------------------------
def standings_of(ctx: Context, game: str, html: bool = False) -> tuple[str, str | None]:
    """The standings text of `game` as of the context's moment (mail and CLI alike), and
    with `html` its tables drawn (the ratings, then the pools of running tournaments)."""
    title = registry.get(game).info.title
    players = standings(ctx.session, game, ctx.now)
    text = standings_text(title, players)
    tournaments = running(ctx.session, game)
    pools = running_tables(ctx.session, tournaments)  # after the ratings, as pbmserv's
    if pools:
        text = f"{text.rstrip()}\n\n{pools}\n"
    if not html or not players:
        return text, None
    sections = standings_tables(players)
    tables = [(headings, rows) for _, headings, rows in sections]
    captions = [section for section, _, _ in sections]
    for t in tournaments:
        tables.append(pool_cells(rounds.standing(ctx.session, t), t))
        captions.append(heading(t))
    notes = textwrap.fill(DEFINITIONS, WIDTH)
    return text, table_document(f"{title} Standings", tables, notes, captions=captions)


def do_standings(ctx: Context, inv: Invocation) -> None:
    assert inv.game is not None
    text, html = standings_of(ctx, inv.game, wants_html(ctx, ctx.sender))
    ctx.answer(f"{_title(inv)} Standings", text, html)


# ----- history --------------------------------------------------------------------------
def history(ctx: Context, game: str, user: User | None, start: int = 1) -> str:
    """Finished boards of `game` (of `user`), PAGE of them from the `start`th newest."""
    total, boards = history_page(ctx.session, game, user, start)
    command = f"{game} history" + (f" {user.userid}" if user is not None else "")
    return history_text(registry.get(game).info.title, command, user, start, total, boards)


def do_history(ctx: Context, inv: Invocation) -> None:
    assert inv.game is not None
    words = list(inv.args)
    start = 1
    if len(words) >= 2 and words[-2].lower() == "from":
        number = words[-1]
        if not (number.isascii() and number.isdigit() and len(number) <= MOST_DIGITS
                and int(number) >= 1):
            raise CommandError(f"'from' needs a number of 1 or more. Write: {usage(inv)}")
        start = int(number)
        words = words[:-2]
    if len(words) > 1:
        raise CommandError(f"Name at most one player. Write: {usage(inv)}")
    user = require_user(ctx, words[0], signed_off_too=True) if words else None
    ctx.answer(f"{_title(inv)} History", history(ctx, inv.game, user, start))


STANDINGS = game_command(Command(
    "standings", "",
    "The players' ratings and records in this game, best first. " + DEFINITIONS,
    do_standings, aliases=("ratings",), most=0))
HISTORY = game_command(Command(
    "history", "[userid] [from n]",
    f"Finished boards of this game (of one player), newest first, {PAGE} at a time: when "
    "each ended, board, winner (or TIE), players, moves and why. 'from n' starts at the nth.",
    do_history, most=3))
