"""Listings: the games on offer and the boards of a game."""

from __future__ import annotations

import textwrap

from pbm.boards.position import Position, position
from pbm.boards.select import Which, archive_cutoff, boards
from pbm.config import BotSettings
from pbm.context import Context
from pbm.db.models import Board, BoardStatus, User
from pbm.games import registry
from pbm.games.base import AnyGame
from pbm.views.board_table import Columns, board_table
from pbm.views.boardmail import turn_line
from pbm.width import WIDTH, fit

# Lines one listing mail holds at most: a player with hundreds of boards gets the first ones
# and a note, not a mail that grows with the store.
LISTED_LINES = 200


def board_line(board: Board, pos: Position | None = None) -> str:
    """One line per board: number, players by seat, and whose turn it is or how it ended."""
    pos = pos or position(board)
    info = pos.game.info
    players = ", ".join(f"{pos.userid(i)} ({info.seats[i]})" for i in range(info.players))
    return f"{board.label:>5}  {players}  {turn_line(pos)}"


# A listing row too long for a mail goes on under its players (the board number's 5 columns
# and 2 spaces): the numbers stay alone at the left edge, to be read down the list.
ROW_HANG = 7


def list_boards(ctx: Context, game: AnyGame | None, users: list[User], which: Which,
                limit: int | None = None,
                first: tuple[str, int] | None = None) -> list[Board]:
    """The boards `which` of them that a listing shows (archived ones are gone), of one game
    or all, of the named players or of everyone; the first `limit` of them, from the board
    named `first` (prefix, number) on: ordinary boards first, then each tournament's."""
    name = game.info.name if game is not None else None
    cutoff = archive_cutoff(ctx)
    if not users:
        return boards(ctx.session, game=name, which=which, archived_before=cutoff, limit=limit,
                      first=first)
    seen = {board.id: board for user in users
            for board in boards(ctx.session, game=name, user=user, which=which,
                                archived_before=cutoff, limit=limit, first=first)}
    return sorted(seen.values(), key=lambda board: (board.prefix, board.id))[:limit]


def listed(ctx: Context, game: AnyGame | None, users: list[User],
           which: Which) -> tuple[list[Board], list[str]]:
    """The boards a listing mail shows, at most LISTED_LINES, and a note when there are more."""
    found = list_boards(ctx, game, users, which, LISTED_LINES + 1)
    if len(found) <= LISTED_LINES:
        return found, []
    return found[:LISTED_LINES], ["", f"More than {LISTED_LINES} boards: the first "
                                      f"{LISTED_LINES} are listed. Ask for fewer, for "
                                      "example with 'next'."]


def send_listing(ctx: Context, game: AnyGame, users: list[User], which: Which,
                 first: tuple[str, int] | None = None) -> None:
    """pbmserv's `GAME games`: the table of the boards `which` of them, of the named players
    or of everyone, from board `first` on; at most LISTED_LINES, and how to ask for more."""
    info = game.info
    found = list_boards(ctx, game, users, which, LISTED_LINES + 1, first)
    shown = [position(board) for board in found[:LISTED_LINES]]
    columns = Columns.fitting(info, shown)
    whose = f" of {', '.join(u.userid for u in users)}" if users else ""
    if which is Which.ACTIVE:
        # Boards that ended lately stay listed (pbmserv's active list) under their own
        # heading: a finished board is not an active one.
        playing = [pos for pos in shown if pos.board.status == BoardStatus.ACTIVE]
        ended = [pos for pos in shown if pos.board.status != BoardStatus.ACTIVE]
        lines = [fit(f"Active {info.title} boards{whose}:"), "", *board_table(columns, playing)]
        if ended:
            days = ctx.time.archive_days
            lines += ["", fit(f"{info.title} boards{whose} finished in the last {days} days:"),
                      "", *board_table(columns, ended)]
    else:
        lines = [fit(f"{which.capitalize()} {info.title} boards{whose}:"), "",
                 *board_table(columns, shown)]
    if len(found) > LISTED_LINES:
        words = [info.name, "games", *(u.userid for u in users)]
        words += [] if which is Which.ACTIVE else [which.value]
        lines += ["", fit(f"More than {LISTED_LINES} boards: the first {LISTED_LINES} are "
                          "listed. For the next ones send:"),
                  fit("  " + " ".join([*words, found[LISTED_LINES].label]), hang=2)]
    ctx.answer(f"List of {info.title} games", "\n".join(lines) + "\n")


def games_on_offer(bots: BotSettings) -> str:
    lines = ["Games on offer:", ""]
    for name in registry.names():
        info = registry.get(name).info
        aliases = f" (also: {', '.join(info.aliases)})" if info.aliases else ""
        seats = " / ".join(info.seats)
        # The name's column, then the rest wrapped under the summary's indent to fit a mail.
        lines += textwrap.wrap(f"{name:<12} {info.title}{aliases}, {info.players} players:"
                               f" {seats}", WIDTH, initial_indent="  ",
                               subsequent_indent=" " * 15, break_on_hyphens=False)
        if info.summary:  # under the title, in lines that fit a mail
            lines += textwrap.wrap(info.summary, WIDTH, initial_indent=" " * 15,
                                   subsequent_indent=" " * 15)
    played = [registry.get(name).info.title for name in registry.names() if bots.plays(name)]
    if played:
        lines += [""] + textwrap.wrap(
            "Nobody to play? The computer players easybot, goodbot and bestbot play "
            + ", ".join(played) + ": 'help bots' says how strong each is.", WIDTH)
    lines += ["", "Send '<game> help' for the rules of a game, 'list <game>' for its boards."]
    return "\n".join(lines) + "\n"
