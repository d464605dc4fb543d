"""Run command lines: parse, call the handler inside a savepoint, turn errors into replies."""

from __future__ import annotations

import logging
from contextlib import AbstractContextManager, nullcontext

from pbm.accounts import logins
from pbm.accounts.users import find_user
from pbm.boards import names
from pbm.commands.grammar import Invocation, parse, usage
from pbm.commands.missing_words import MissingWords, missing
from pbm.context import CommandError, Context, shorten
from pbm.games import registry
from pbm.games.base import UserError
from pbm.views.news import tell

log = logging.getLogger(__name__)


def run_lines(ctx: Context, lines: list[str]) -> None:
    """Run each command line in turn; a failing command changes nothing and is answered."""
    for line in lines:
        run_line(ctx, line)


def run_line(ctx: Context, line: str) -> None:
    try:
        invocation = parse(line)
    except CommandError as err:
        # The line is not a command we know, so we cannot tell which word is a password:
        # quote only its first word.
        first = shorten(line.split()[0]) if line.split() else ""
        ctx.failures += 1
        ctx.answer(err.subject or "pbm error",
                   f"{err}\n\nYour command began with: {first}\n")
        log.debug("command ?: not a command")  # its words may be anything, a password too
        return
    replies_before = len(ctx.replies)
    ctx.password_accepted = False
    try:
        with _savepoint(ctx):
            _check_words(ctx, invocation)
            invocation.command.handler(ctx, invocation)
            tell(ctx)  # whatever the handler has not told yet
    except UserError as err:
        if not ctx.savepoints:
            raise  # nothing here can undo what it wrote: the caller rolls the mail back
        ctx.facts.clear()  # rolled back: none of it happened
        del ctx.replies[replies_before:]
        ctx.failures += 1
        ctx.answer(_error_subject(invocation), _error_body(ctx, err, invocation))
        log.debug("command %s: refused (%s), %d repl%s", _name(invocation),
                  type(err).__name__, len(ctx.replies) - replies_before,
                  "y" if len(ctx.replies) - replies_before == 1 else "ies")
    else:
        log.debug("command %s: done, %d repl%s", _name(invocation),
                  len(ctx.replies) - replies_before,
                  "y" if len(ctx.replies) - replies_before == 1 else "ies")
    if ctx.unrecorded_failures:
        logins.record_failures(ctx)


def _name(invocation: Invocation) -> str:
    """The command's name for the log ("trou move"), never its words (they hold passwords)."""
    return " ".join(filter(None, (invocation.game, invocation.command.name)))


def _savepoint(ctx: Context) -> AbstractContextManager[object]:
    """What holds a command's writes so that its failure undoes them (ctx.savepoints)."""
    return ctx.session.begin_nested() if ctx.savepoints else nullcontext()


def _check_words(ctx: Context, invocation: Invocation) -> None:
    """Too few words or too many: a command is refused rather than guessed at (an extra
    word could be a password with a space in it, taken as two)."""
    command, count = invocation.command, len(invocation.args)
    if count < command.least:
        raise missing(ctx, invocation)
    if command.most is not None and count > command.most:
        takes = "no words" if command.most == 0 else \
            f"{command.most} word{'s' if command.most > 1 else ''}"
        raise CommandError(f"Too many words: '{' '.join(invocation.words)}' takes {takes} "
                           f"after it. Write: {usage(invocation)}")


def _error_subject(invocation: Invocation) -> str:
    if invocation.game is None:
        return "pbm error"
    title = registry.get(invocation.game).info.title
    where = invocation.command.board_arg
    if where is not None and where < len(invocation.args):
        word = invocation.args[where].split("#")[0]
        # Only a plausible board name goes into the Subject: it is a header, and the word
        # comes from the mail (a 100 KB run of digits is a word too).
        name = names.parse(word)
        if name is not None and name.storable:
            return f"{title} Board {name.written} Error"
    return f"{title} error"


MAX_ERROR_CHARS = 2000  # a rule module's message may quote a move of any length


def _error_body(ctx: Context, err: UserError, invocation: Invocation) -> str:
    message = str(err)
    if len(message) > MAX_ERROR_CHARS:
        message = message[:MAX_ERROR_CHARS] + "..."
    parts = [message]
    board_text = getattr(err, "board_text", "")
    if board_text:
        parts += ["", board_text.rstrip()]
    if isinstance(err, MissingWords):  # where the password stands is known: it alone
        parts += ["", "Your command was:", f"  {invocation.masked(at=err.password_at)}"]
        return "\n".join(parts) + "\n"
    hide: tuple[int, ...] = ()
    login = invocation.command.login
    if login and len(invocation.args) > login[0] and \
            find_user(ctx, invocation.args[login[0]]) is None:
        # The userid place names nobody: the words are not where they belong, and from
        # there on any of them may be the password.
        hide = tuple(range(login[0], len(invocation.args)))
    elif login and not ctx.password_accepted:
        # Refused before a right password was seen (`trou limit alice 5 Secret1`: the word
        # in the password's place is not the password): it may stand anywhere after it.
        hide = tuple(range(login[1], len(invocation.args)))
    parts += ["", "Your command was:", f"  {invocation.masked(hide)}"]
    return "\n".join(parts) + "\n"
