"""`help bots`: the computer players, which games they play on this server and how."""

from __future__ import annotations

import textwrap

from pbm.config import BotSettings
from pbm.games import registry
from pbm.games.base import fill_figures
from pbm.games.bots import STRENGTHS, bot_userid, bots_of
from pbm.help import load_page
from pbm.width import WIDTH


def bots_page(settings: BotSettings) -> str:
    played = [name for name in registry.names() if settings.plays(name)]
    titles = [registry.get(name).info.title for name in played]
    if titles:
        where = "On this server the bots play " + _and(titles) + "."
    else:
        where = "The bots play no game on this server now."
    methods: list[str] = []
    for name in played:
        game = registry.get(name)
        methods += ["", f"  {game.info.title}"]
        by_strength = bots_of(game)
        for strength in STRENGTHS:
            methods += textwrap.wrap(by_strength[strength].method, WIDTH,
                                     initial_indent=f"    {bot_userid(strength):<9}",
                                     subsequent_indent=" " * 13)
    boards = settings.boards_per_player
    where += (f" Each bot takes on at most {boards} active board{'s' if boards != 1 else ''}"
              " of a game with any one player at a time.")
    figures = {"played": "\n".join(textwrap.wrap(where, WIDTH)),
               "methods": "\n".join(methods[1:]) if methods else "  (none here)"}
    return fill_figures(load_page("bots"), figures, "bots")


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
