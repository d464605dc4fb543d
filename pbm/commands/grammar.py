"""Email commands as small objects: the parser, the dispatcher and the help come from them."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass

from pbm.context import CommandError, Context, shorten
from pbm.games import registry

Handler = Callable[[Context, "Invocation"], None]


@dataclass(frozen=True)
class Command:
    """One email command: how it is written, what it does, and which words are secret.

    The mail handler turns the words into typed arguments and calls the command's function,
    which the operator's command line calls directly."""

    name: str  # "move", or "change password" for two-word account commands
    syntax: str  # arguments after the command words, as shown in help
    description: str
    handler: Handler
    aliases: tuple[str, ...] = ()
    least: int = 0  # arguments it needs
    most: int | None = None  # arguments it takes at most (None: a list of any length)
    secret_args: tuple[int, ...] = ()  # argument positions holding passwords
    # Positions of the userid and the password it is checked against, for commands that
    # authenticate: their password is verified ahead of the writer and throttled.
    login: tuple[int, int] | None = None
    # Where the board number stands, for commands whose errors are about one board
    # ("Trou Board 101 Error" rather than "Trou error").
    board_arg: int | None = None
    takes_comment: bool = False  # the mail body is a comment shown to the other players


@dataclass(frozen=True)
class Invocation:
    """A parsed command line: which command, for which game, with which arguments."""

    command: Command
    game: str | None  # canonical game name for game commands
    words: tuple[str, ...]  # the command words as typed ("trou", "move")
    args: tuple[str, ...]

    def masked(self, hide: tuple[int, ...] = (), at: tuple[int, ...] | None = None) -> str:
        """The line as typed with every password (wherever it stands again, and the arguments
        at `hide`) replaced, and long words cut, fit to quote back in a reply. `at`: where
        the passwords stand, when words are missing (commands/missing_words.py finds it).

        With words missing and `at` not known, the password may stand up to that many places
        earlier: every argument from there on is hidden."""
        secret = set(self.command.secret_args if at is None else at) | set(hide)
        missing = self.command.least - len(self.args)
        if self.command.secret_args and missing > 0 and at is None:
            secret |= set(range(max(0, min(self.command.secret_args) - missing), len(self.args)))
        # The password typed twice (`message alice pw pw bob`) is hidden in both places.
        typed = {self.args[i] for i in secret if i < len(self.args)}
        secret |= {i for i, arg in enumerate(self.args) if arg in typed}
        args = ["********" if i in secret else arg for i, arg in enumerate(self.args)]
        return " ".join(shorten(word) for word in [*self.words, *args])


GAME_COMMANDS: dict[str, Command] = {}
ACCOUNT_COMMANDS: dict[str, Command] = {}


def game_command(command: Command) -> Command:
    GAME_COMMANDS[command.name] = command
    return command


def account_command(command: Command) -> Command:
    ACCOUNT_COMMANDS[command.name] = command
    return command


def _find_verb(table: dict[str, Command], verb: str) -> Command | None:
    verb = verb.lower()
    for command in table.values():
        if verb == command.name or verb in command.aliases:
            return command
    # pbmserv lets `chall...` abbreviate challenge; allow any unambiguous prefix of 5+ letters.
    if len(verb) >= 5:
        matches = [c for c in table.values() if c.name.startswith(verb)]
        if len(matches) == 1:
            return matches[0]
    return None


def _spellings(table: dict[str, Command]) -> dict[str, str]:
    """Every way a command of `table` is written, to the command's name."""
    return {spelling: command.name for command in table.values()
            for spelling in (command.name, *command.aliases)}


def _nearest(word: str, spellings: dict[str, str]) -> str | None:
    """The name of the command (or game) a mistyped `word` was most likely meant as."""
    found = difflib.get_close_matches(word.lower(), list(spellings), n=1, cutoff=0.6)
    return spellings[found[0]] if found else None


def did_you_mean(word: str) -> str:
    """The words "; did you mean trou?" for a first word near a game's name or an account
    command; "" when none is near."""
    spellings = {name: name for name in registry.names()}
    spellings.update({name.split()[0]: name for name in ACCOUNT_COMMANDS})
    nearest = _nearest(word, spellings)
    return f"; did you mean {nearest}?" if nearest else ""


def is_command(line: str) -> bool:
    """Whether a line starts like a command (used to tell a command Subject from chatter)."""
    words = line.split()
    if not words:
        return False
    first = words[0].lower()
    if first in _first_words():
        # "change of plans", "all done": such a word starts a command only with its second.
        second = words[1].lower() if len(words) > 1 else ""
        return f"{first} {second}" in ACCOUNT_COMMANDS
    return _is_account_word(first) or first == "multiple" or \
        registry.canonical(first) is not None


def reads_as_command(line: str) -> bool:
    """Whether a line of a reply's body is meant as a command, not as words to the other
    players: a game's name (or a near miss of one: `tru move ...` is answered, so the mover
    learns why nothing moved) followed by one of its commands or a near miss of one; an
    account command's word only with the number of words it takes ("Message received",
    "Help me out here" are prose)."""
    words = line.split()
    if len(words) >= 2 and not _is_account_word(words[0].lower()):
        game = registry.canonical(words[0])
        if game is None and _nearest(words[0], {n: n for n in registry.names()}) is None:
            return False
        # "Trou is fun" is prose; "trou mvoe ..." and "trou qmov ..." are commands.
        return _find_verb(GAME_COMMANDS, words[1]) is not None or (
            game is not None and _nearest(words[1], _spellings(GAME_COMMANDS)) is not None)
    if not is_command(line):
        return False
    try:
        invocation = parse(line)
    except CommandError:
        return True  # a game's name and a verb it does not have: a command gone wrong
    command, count = invocation.command, len(invocation.args)
    return invocation.game is not None or \
        command.least <= count and (command.most is None or count <= command.most)


def _first_words() -> set[str]:
    """The first words of two-word account commands ("change password", "all show")."""
    return {name.split()[0] for name in ACCOUNT_COMMANDS if " " in name}


def _is_account_word(first: str) -> bool:
    """Account commands are looked up before games added by other packages: finding those
    reads every installed package's entry points, which `help` should not wait for."""
    return first in _first_words() or _find_verb(ACCOUNT_COMMANDS, first) is not None


def parse(line: str) -> Invocation:
    """Read one command line; CommandError says how to write it when it is not a command."""
    words = line.split()
    if not words:
        raise CommandError("An empty line is not a command.")
    first = words[0].lower()
    game = None if _is_account_word(first) else registry.canonical(first)
    if game is not None:
        title = registry.get(game).info.title
        if len(words) < 2:
            verbs = ", ".join(GAME_COMMANDS)
            raise CommandError(
                f"'{shorten(words[0])}' needs a command after it, one of: {verbs}. "
                f"For example: {game} help",
                subject=f"{title} error",
            )
        command = _find_verb(GAME_COMMANDS, words[1])
        if command is None:
            verbs = ", ".join(GAME_COMMANDS)
            nearest = _nearest(words[1], _spellings(GAME_COMMANDS))
            guess = f"; did you mean {nearest}?" if nearest else "."
            raise CommandError(
                f"'{shorten(words[1])}' is not a {title} command{guess} "
                f"The {title} commands are: {verbs}. "
                f"Send '{game} help' for the rules and 'help commands' for the syntax.",
                subject=f"{title} error",
            )
        return Invocation(command, game, (first, command.name), tuple(words[2:]))
    if first in _first_words():
        sub = words[1].lower() if len(words) > 1 else ""
        command = ACCOUNT_COMMANDS.get(f"{first} {sub}")
        if command is None:
            ways = " or ".join(f"'{c.name} {c.syntax}'" for c in ACCOUNT_COMMANDS.values()
                               if c.name.split()[0] == first)
            raise CommandError(f"Write {ways}.")
        return Invocation(command, None, (first, sub), tuple(words[2:]))
    command = _find_verb(ACCOUNT_COMMANDS, first)
    if command is None:
        games = ", ".join(registry.names())
        raise CommandError(
            f"'{shorten(words[0])}' is not a command{did_you_mean(words[0]) or '.'} "
            f"Commands start with a game name ({games}) "
            "or are one of: "
            + ", ".join(ACCOUNT_COMMANDS)
            + ". Send 'help commands' for the full list."
        )
    return Invocation(command, None, (command.name,), tuple(words[1:]))


def usage(invocation: Invocation) -> str:
    """How to write the command that was attempted."""
    return " ".join([*invocation.words, invocation.command.syntax]).strip()
