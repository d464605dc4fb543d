"""Find rule modules by name or alias: the built-in games plus the `pbm.games` entry points."""

from __future__ import annotations

import importlib
from functools import cache
from importlib.metadata import entry_points

from pbm.games.base import AnyGame, Game, Picture, UserError

# Built-in games: command word -> module exposing GAME, and their aliases. Imported lazily,
# because `pbm process` handles one mail and should only import the rule module it needs;
# a test keeps BUILTIN_ALIASES equal to what the modules declare.
BUILTIN: dict[str, str] = {
    "trou": "pbm.games.trou",
    "outguess": "pbm.games.outguess",
    "loophole": "pbm.games.loophole",
    "pipeline": "pbm.games.pipeline",
    "synapse-ice": "pbm.games.synapse_ice",
    "hex": "pbm.games.hex",
    "reversi": "pbm.games.reversi",
    "breakthrough": "pbm.games.breakthrough",
    "amazons": "pbm.games.amazons",
    "loa": "pbm.games.loa",
    "battleship": "pbm.games.battleship",
}
BUILTIN_ALIASES: dict[str, str] = {
    "synapse": "synapse-ice",
    "lines-of-action": "loa",
    "linesofaction": "loa",
    "battleships": "battleship",
}

# Game name -> module whose `draw` is the game's Picture (pbm.games.base): beside the rules,
# imported only when a mail carries HTML. A plugin names its picture in its own group.
PICTURES: dict[str, str] = {
    "trou": "pbm.games.trou.picture",
    "outguess": "pbm.games.outguess.picture",
    "loophole": "pbm.games.loophole.picture",
    "pipeline": "pbm.games.pipeline.picture",
    "synapse-ice": "pbm.games.synapse_ice.picture",
    "hex": "pbm.games.hex.picture",
    "reversi": "pbm.games.reversi.picture",
    "breakthrough": "pbm.games.breakthrough.picture",
    "amazons": "pbm.games.amazons.picture",
    "loa": "pbm.games.loa.picture",
    "battleship": "pbm.games.battleship.picture",
}

ENTRY_POINT_GROUP = "pbm.games"
PICTURE_ENTRY_POINT_GROUP = "pbm.pictures"


class UnknownGame(UserError):
    """The game word names no game this server offers."""


@cache
def _plugin_aliases() -> dict[str, str]:
    """alias (lower case) -> canonical name for games added through entry points."""
    table = {}
    for name in _plugins():
        for alias in get(name).info.aliases:
            table[alias.lower()] = name
    return table


@cache
def _plugins() -> dict[str, str]:
    return {ep.name.lower(): ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def names() -> list[str]:
    """Canonical names of every game on offer, sorted."""
    return sorted(set(BUILTIN) | set(_plugins()))


@cache
def get(name: str) -> AnyGame:
    """The game registered under this canonical name."""
    if name in BUILTIN:
        target = BUILTIN[name]
    else:
        found = _plugins().get(name)
        if found is None:
            raise UnknownGame(f"There is no game called '{name}'.")
        target = found
    module_name, _, attr = target.partition(":")
    game = getattr(importlib.import_module(module_name), attr or "GAME")
    if not isinstance(game, Game):
        raise TypeError(f"game {name} = {target} is not a pbm Game")
    return game


@cache
def picture(name: str) -> Picture | None:
    """How the game registered under this canonical name draws its board in HTML, or None
    when it draws none (its mails stay plain text)."""
    target = PICTURES.get(name) or next(
        (ep.value for ep in entry_points(group=PICTURE_ENTRY_POINT_GROUP)
         if ep.name.lower() == name), None)
    if target is None:
        return None
    module_name, _, attr = target.partition(":")
    drawing: Picture = getattr(importlib.import_module(module_name), attr or "draw")
    return drawing


@cache
def picture_style(name: str) -> str:
    """The class rules the game's picture draws with (its module's SHEET, games/kit.py), as
    a mail's <style> block holds them; '' for a picture with inline styles, or none."""
    if picture(name) is None:
        return ""
    target = PICTURES.get(name) or next(
        ep.value for ep in entry_points(group=PICTURE_ENTRY_POINT_GROUP)
        if ep.name.lower() == name)
    sheet = getattr(importlib.import_module(target.partition(":")[0]), "SHEET", None)
    return "" if sheet is None else str(sheet.css())


def canonical(word: str) -> str | None:
    """The canonical game name for a command word or alias, or None if it names no game."""
    word = word.lower()
    if word in BUILTIN:
        return word
    if word in BUILTIN_ALIASES:
        return BUILTIN_ALIASES[word]
    if word in _plugins():
        return word
    return _plugin_aliases().get(word)


def lookup(word: str) -> AnyGame:
    """The game a command word or alias names; UnknownGame with the list otherwise."""
    name = canonical(word)
    if name is None:
        offered = ", ".join(names())
        raise UnknownGame(f"There is no game called '{word}'. Games on offer: {offered}.")
    return get(name)
