"""The contract every rule module fulfils: pure functions of state, seat and move.

A rule module knows nothing of the database, mail, click or the clock. The server keeps the
move log (canonical notation per move) as the source of truth and a snapshot of the state
(`encode`/`decode`) as a cache that replaying the log can always rebuild.

Seats are numbered 0, 1, ... in challenge order; seat 0 moves first. A viewer is a seat
number, or None for a spectator. Hidden information is decided here and only here: `render`
and `move_text` choose what a viewer may see; the mail code never filters anything itself.
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, Generic, Protocol, TypeVar, final

State = TypeVar("State")
Move = TypeVar("Move")

Viewer = int | None

PICTURE_WIDTH = 360  # CSS pixels: the narrowest common phone screen (Picture below)


class Picture(Protocol):
    """A game's board drawn in HTML, for the text/html part of mails: a function of the
    state and the viewer, in a module of its own beside the rules (`registry.picture()`
    finds it), so the rules never import it and a mail without HTML never loads it.

    It returns a fragment (no <html> or <body>): no script, no images, no fonts, no links
    to anything outside the mail; at most PICTURE_WIDTH pixels wide so it fits a phone. Its
    looks are the classes of the module's SHEET (games/kit.py), which the mail writes once
    in its <style> block (a picture with inline styles and no SHEET works too, heavier). It
    shows no more than render() shows this viewer, and highlights the last move. Every cell
    carries data-cell="<its name>" (as in move notation), so tests and tools can find it,
    or is found by its place: a kit.grid() with a data-board (Pipeline's boards), or as
    the game says (Loophole: in a row's table). A game with no picture has plain-text
    mails."""

    def __call__(self, state: Any, viewer: Viewer, /) -> str: ...


class UserError(Exception):
    """An error the player caused; its message is fit to mail back to them as it is."""


class InvalidMove(UserError):
    """The move text cannot be read at all (bad syntax); the message says how to write it."""


class IllegalMove(UserError):
    """The move is well formed but the rules forbid it here; the message says why."""


class InvalidOption(UserError):
    """A challenge option is unknown or its value is out of range."""


@dataclass(frozen=True)
class Option:
    """A challenge option such as `-size=19`: its name, default and what it does."""

    name: str
    default: int | str | bool
    description: str
    choices: tuple[Any, ...] = ()


@dataclass(frozen=True)
class GameInfo:
    """What the server needs to know about a game before playing it."""

    name: str  # the command word, lower case: "loophole"
    title: str  # as in mail subjects: "Loophole"
    seats: tuple[str, ...]  # seat names in challenge order: ("Black", "White")
    rules_version: int  # bumped whenever a rule change would replay old logs differently
    aliases: tuple[str, ...] = ()
    options: tuple[Option, ...] = ()
    summary: str = ""  # one line for `list`
    # Something is secret from some player while the game runs (a hidden pipeline, a
    # guess): the server then refuses what would let a player learn it (a preview of the
    # opponent's replies, a move conditional on a secret move).
    hidden: bool = False
    # The move list gives each move a line of its own instead of a column per seat: for
    # notations too long for columns (a whole Outguess turn, a Pipeline pipeline). Decided
    # per game, never by what a viewer sees, so every mail of a board keeps one shape.
    one_line_per_move: bool = False

    @property
    def players(self) -> int:
        return len(self.seats)


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winning seats (empty for a draw) and why, in words."""

    winners: frozenset[int]
    reason: str = ""

    @property
    def is_draw(self) -> bool:
        return not self.winners


class Game(ABC, Generic[State, Move]):
    """Base class of a rule module. Subclasses are stateless; one instance is registered."""

    info: GameInfo

    # ----- starting -------------------------------------------------------------------
    def parse_options(self, words: Iterable[str]) -> dict[str, Any]:
        """Turn `-name=value` words into the options dict; unknown names are refused."""
        known = {opt.name: opt for opt in self.info.options}
        options: dict[str, Any] = {opt.name: opt.default for opt in self.info.options}
        for word in words:
            name, _, raw = word.lstrip("-").partition("=")
            name = name.lower()
            opt = known.get(name)
            if opt is None:
                if known:
                    names = ", ".join(f"-{n}" for n in known)
                    raise InvalidOption(
                        f"{self.info.title} has no option '-{name}'. Its options are: {names}."
                    )
                raise InvalidOption(f"{self.info.title} takes no options (got '-{name}').")
            options[name] = _coerce_option(self.info.title, opt, raw)
        return options

    @abstractmethod
    def start(self, options: dict[str, Any], seed: int) -> State:
        """The position before the first move."""

    # ----- playing --------------------------------------------------------------------
    @abstractmethod
    def to_move(self, state: State) -> frozenset[int]:
        """Seats that may act now: usually one, two during simultaneous steps, none at the end."""

    @abstractmethod
    def parse(self, state: State, seat: int, text: str) -> Move:
        """Read a move for `seat` and check it fully against the rules.

        Raises InvalidMove for text that is not a move at all and IllegalMove for a move the
        rules forbid now. The server has already checked that `seat` is in to_move(state).
        """

    @abstractmethod
    def play(self, state: State, seat: int, move: Move) -> State:
        """The position after `seat` plays the (already validated) move. Never mutates state."""

    @abstractmethod
    def notation(self, move: Move) -> str:
        """The canonical full spelling of a move; parse() reads it back to the same move."""

    def move_text(self, state: State, seat: int, move: Move, viewer: Viewer) -> str:
        """How the move made by `seat` from `state` shows in the move list for `viewer`.

        Secret moves show '...' (or a partial text) to everyone but their author while the
        game runs; once it has ended, the server shows notation() to everyone.
        """
        return self.notation(move)

    @abstractmethod
    def result(self, state: State) -> Outcome | None:
        """None while the game runs; the outcome once it has ended by the rules."""

    def conclude(self, state: State, outcome: Outcome) -> State:
        """The state once the game has ended outside the rules (a resignation or forfeit).

        Games with secrets return a state whose render() reveals them, as at a normal end;
        result() may stay None (the server keeps the outcome). By default nothing changes.
        """
        return state

    @abstractmethod
    def render(self, state: State, viewer: Viewer) -> str:
        """The ASCII board and game-specific status, as `viewer` may see it."""

    def render_full(self, state: State, viewer: Viewer) -> str:
        """render() with nothing abridged, for `show`: a board mail may shorten what grows
        without end (Pipeline's log), and this gives all of it. By default render()."""
        return self.render(state, viewer)

    @abstractmethod
    def legal_moves(self, state: State, seat: int) -> Iterable[Move]:
        """Every legal move of `seat` (may be a lazy iterator where there are very many)."""

    def random_move(self, state: State, seat: int, rng: random.Random) -> Move:
        """A uniformly chosen legal move; for playouts, bots and property tests."""
        moves = list(self.legal_moves(state, seat))
        return rng.choice(moves)

    # ----- bots -----------------------------------------------------------------------
    def seat_view(self, state: State, seat: int) -> Any:
        """All that `seat` may know of the game, and nothing more: what a bot playing the
        seat is given, never the state itself. Two states that differ only in what the
        rules hide from the seat give equal views.

        By default the state, for a game that hides nothing; a game with `info.hidden`
        says what its seats see, or it has no bots that look beyond the legal moves."""
        if self.info.hidden:
            raise TypeError(f"{self.info.title} hides information: it must define seat_view")
        return state

    def sample_state(self, view: Any, seat: int, rng: random.Random) -> State:
        """A whole state that `seat` cannot tell from the real one by its `view`: what is
        hidden from it guessed with `rng`, all else as the view says. A bot searches such
        states (and plays only moves legal in all of them). By default the view itself."""
        if self.info.hidden:
            raise TypeError(f"{self.info.title} hides information: it must define sample_state")
        return view  # type: ignore[no-any-return]

    # A tighter budget for the general Monte Carlo bots (games/bots.py) where their
    # positions are too wide or their playouts too long for the default: strength ->
    # positions a search plays to at most. Data, not bots, so a rule module that only
    # tunes the search never imports it (a move's mail does not pay for loading it).
    bot_positions: Mapping[str, int] = {}

    def own_bots(self) -> Mapping[str, Any]:
        """Bots of the game's own by strength ("easy", "good", "best"), each a
        games.bots.Bot, where it has a better player than the general ones (an exact
        solution, a deduction): games.bots.bots_of() lays them over its defaults."""
        return {}

    def prompt(self, state: State, seat: int) -> str | None:
        """An optional hint for a seat to move ("Place the head coin."), shown in its mail."""
        return None

    # ----- storing --------------------------------------------------------------------
    @abstractmethod
    def encode(self, state: State) -> Any:
        """The state as JSON-compatible data (the snapshot cache)."""

    @abstractmethod
    def decode(self, data: Any) -> State:
        """Inverse of encode()."""

    # ----- helping --------------------------------------------------------------------
    def help_template(self) -> str:
        """The help page as written, with its [[figure]] marks: by default the file
        `help.txt` beside the game's rules, in the package its class comes from.

        A game with no such file (one defined in a single module, a test game) overrides
        this. The file name is fixed here, never taken from a mail."""
        package = type(self).__module__.rpartition(".")[0]
        return (files(package) / "help.txt").read_text(encoding="utf-8")

    def help_figures(self) -> Mapping[str, str]:
        """Figure name -> text drawn into the help page where it says [[name]]; none by default.

        Figures come from the rule module itself (render() of a worked example, say), so the
        page can never show a board the game would draw differently.
        """
        return {}

    @final
    def help_page(self) -> str:
        """The help page: help_template() with every [[name]] mark filled from help_figures()."""
        return fill_figures(self.help_template(), self.help_figures(), self.info.name)


class HelpTemplateError(ValueError):
    """A help page and its game's figures disagree: a bug in the game, caught by the tests."""


# A mark stands alone on its line; its indentation is put before every line of the figure.
_MARK_LINE = re.compile(r"^(?P<indent>[ \t]*)\[\[(?P<name>[^\[\]\n]+)\]\][ \t]*$", re.M)
_ANY_MARK = re.compile(r"\[\[[^\[\]\n]*\]\]")


def fill_figures(template: str, figures: Mapping[str, str], page: str) -> str:
    """Help page `page` from its template: each [[name]] line becomes figure `name`, indented
    like the mark; the figure's trailing newline and its lines' trailing blanks are dropped.

    A mark with no figure, a mark that does not stand alone on its line, and a figure no
    mark uses are all errors: each means the page and the code have drifted apart.
    """
    used: set[str] = set()

    def figure(match: re.Match[str]) -> str:
        name, indent = match["name"], match["indent"]
        if name not in figures:
            raise HelpTemplateError(
                f"the {page} help page marks [[{name}]] but has no such figure"
            )
        used.add(name)
        return "\n".join((indent + line).rstrip() for line in figures[name].splitlines())

    filled = _MARK_LINE.sub(figure, template)
    # Figures are drawn from code and could contain `[[` themselves: look in the template.
    stray = [m.group() for m in _ANY_MARK.finditer(_MARK_LINE.sub("", template))]
    if stray:
        raise HelpTemplateError(f"the {page} help page has {stray[0]} inside a line of text")
    unused = sorted(set(figures) - used)
    if unused:
        raise HelpTemplateError(f"the {page} help page has no mark for figure [[{unused[0]}]]")
    return filled


# A game of any state and move types: what the layers above the rule modules handle.
AnyGame = Game[Any, Any]


def _coerce_option(title: str, opt: Option, raw: str) -> int | str | bool:
    default = opt.default
    if isinstance(default, bool):
        if raw == "":
            return True
        if raw.lower() in ("yes", "true", "on", "1"):
            return True
        if raw.lower() in ("no", "false", "off", "0"):
            return False
        raise InvalidOption(f"Option -{opt.name} of {title} takes yes or no, not '{raw}'.")
    if isinstance(default, int):
        try:
            value: int | str = int(raw)
        except ValueError:
            raise InvalidOption(
                f"Option -{opt.name} of {title} takes a whole number, e.g. -{opt.name}={default}."
            ) from None
    else:
        value = raw
    if opt.choices and value not in opt.choices:
        allowed = ", ".join(str(c) for c in opt.choices)
        raise InvalidOption(f"Option -{opt.name} of {title} must be one of: {allowed}.")
    return value

