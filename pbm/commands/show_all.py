"""`all show userid`: a player's boards of every game, each mailed as `GAME show` mails it."""

from __future__ import annotations

from pbm.accounts.users import require_user
from pbm.boards import select
from pbm.boards.select import Which
from pbm.commands.game_commands import TOO_MUCH_MAIL, send_view
from pbm.commands.grammar import Command, Invocation, account_command, usage
from pbm.context import CommandError, Context
from pbm.db.models import Board
from pbm.width import WIDTH, fit

SELECTORS = "next|active|inactive|all"


def do_all_show(ctx: Context, inv: Invocation) -> None:
    which, userids = Which.ACTIVE, []
    for word in inv.args:
        if word.lower() in set(Which):
            which = Which(word.lower())
        else:
            userids.append(word)
    if not userids:  # every board of everyone, as pbmserv refuses it
        raise CommandError(f"{TOO_MUCH_MAIL} Name the player. Write: {usage(inv)}")
    if len(userids) > 1:
        raise CommandError(f"Name one player. Write: {usage(inv)}")
    user = require_user(ctx, userids[0], signed_off_too=True)
    limit = ctx.limits.boards_per_command or None
    # The boards shown and as many again to name in the note: never all of a player's
    # thousands of boards read for one command.
    found = select.boards(ctx.session, user=user, which=which,
                          limit=None if limit is None else 2 * limit + 1)
    subject = f"Boards of {user.userid}"
    if not found:
        ctx.answer(subject, f"{user.userid} has no such boards.\n")
    for board in found[:limit]:
        send_view(ctx, board, None, None)  # the public view, as `GAME show userid` gives
    if limit is not None and len(found) > limit:
        ctx.answer(subject, _not_shown(user.userid, found[limit:2 * limit], limit,
                                       more=len(found) > 2 * limit))


def _not_shown(userid: str, boards: list[Board], limit: int, *, more: bool) -> str:
    """The note naming the boards left out, as commands that would show them."""
    lines = [fit(f"{userid} has more such boards than one command shows: the first {limit} "
                 "are shown. Send these commands for the next ones:")]
    by_game: dict[str, list[str]] = {}
    for board in boards:
        by_game.setdefault(board.game, []).append(board.label)
    for game, numbers in by_game.items():
        line, count = f"  {game} show", 0
        for number in numbers:  # each line a command that fits, naming what one may name
            if len(line) + 1 + len(number) > WIDTH or count == limit:
                lines.append(line)
                line, count = f"  {game} show", 0
            line, count = f"{line} {number}", count + 1
        lines.append(line)
    if more:
        lines.append(fit(f"And there are more: 'games {userid}' lists them."))
    return "\n".join(lines) + "\n"


account_command(Command(
    "all show", f"userid [{SELECTORS}]",
    "Mail the public view of each of the player's boards in every game, each in its own "
    "mail, as 'game show userid' does; a note names those past one command's limit.",
    do_all_show, most=2))
