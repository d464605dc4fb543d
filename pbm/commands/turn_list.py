"""A player's turn list: every board of theirs in every game, marked where it is their turn."""

from __future__ import annotations

from collections.abc import Sequence

from pbm.accounts.users import require_user, users_at
from pbm.boards.position import position
from pbm.boards.select import Which
from pbm.commands.grammar import Command, Invocation, account_command
from pbm.context import CommandError, Context, shorten
from pbm.db.models import User
from pbm.views.listings import ROW_HANG, board_line, listed
from pbm.width import fit

MARK = "*"
GAME_COLUMN = 12
SELECTORS = "next|active|inactive|all"
SELECTOR_WORDS = frozenset(Which)
HEADINGS = {
    Which.ACTIVE: "Boards of {userid} in every game",
    Which.NEXT: "Boards where it is {userid}'s turn, in every game",
    Which.INACTIVE: "Finished boards of {userid} in every game",
    Which.ALL: "Boards of {userid} in every game",
}


def turn_list(ctx: Context, user: User, which: Which = Which.ACTIVE) -> str:
    """One line per board of the player (archived ones left out), `MARK` where they move."""
    found, note = listed(ctx, None, [user], which)
    days = ctx.time.archive_days
    lines = [HEADINGS[which].format(userid=user.userid) + ":",
             f"({MARK}: {user.userid}'s turn; finished boards stay listed {days} days)", ""]
    for board in found:
        pos = position(board)
        seat = pos.seat_of(user)
        mark = MARK if seat is not None and seat in pos.to_move() else " "
        row = f"{mark} {board.game:<{GAME_COLUMN}}{board_line(board, pos)}"
        lines.append(fit(row, hang=2 + GAME_COLUMN + ROW_HANG))
    if not found:
        lines.append("  (none)")
    return "\n".join(lines + note) + "\n"


def _which(words: Sequence[str]) -> tuple[list[str], Which]:
    """The userids among the words, and the selector (active when none is given)."""
    which, rest = Which.ACTIVE, []
    for word in words:
        if word.lower() in SELECTOR_WORDS:
            which = Which(word.lower())
        else:
            rest.append(word)
    return rest, which


def _only_user(ctx: Context, userids: list[str], usage: str) -> User:
    """The one player named, or the sender's own account when none is."""
    if len(userids) > 1:
        raise CommandError(f"Name one player. Write: {usage}")
    if userids:
        return require_user(ctx, userids[0], signed_off_too=True)
    mine = users_at(ctx, ctx.sender) if ctx.sender else []
    if len(mine) == 1:
        return mine[0]
    if mine:
        names = " and ".join(u.userid for u in mine)
        raise CommandError(f"Your address belongs to {names}: name the player. Write: {usage}")
    where = shorten(ctx.sender) if ctx.sender else "you"
    raise CommandError(f"No player receives mail at {where}, so name the player. "
                       f"Write: {usage}")


def do_turn_list(ctx: Context, inv: Invocation) -> None:
    userids, which = _which(inv.args)
    user = _only_user(ctx, userids, f"{' '.join(inv.words)} {inv.command.syntax}")
    ctx.answer(f"Boards of {user.userid}", turn_list(ctx, user, which))


account_command(Command(
    "games", f"[userid] [{SELECTORS}]",
    "List your boards (or the player's) in every game, one line each; * marks those where "
    "it is that player's turn, 'next' lists only those.", do_turn_list, most=2))
