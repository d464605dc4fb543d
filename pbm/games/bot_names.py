"""The bots' names: a userid per strength. Apart from games/bots.py so that the accounts,
which check every signup against them, do not load the bots' search with each mail."""

from __future__ import annotations

from pbm.games.base import AnyGame, Game

STRENGTHS = ("easy", "good", "best")  # weakest first; a bot user is named <strength>bot


def bot_userid(strength: str) -> str:
    return f"{strength}bot"


def strength_of(userid: str) -> str | None:
    """The strength a bot's userid names, or None for a person's."""
    for strength in STRENGTHS:
        if userid == bot_userid(strength):
            return strength
    return None


def bots_play(game: AnyGame) -> bool:
    """Whether bots can play `game`: one that hides something must say what a seat sees
    (Game.seat_view), or a bot would have nothing it may look at."""
    return not game.info.hidden or type(game).seat_view is not Game.seat_view
