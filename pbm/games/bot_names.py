"""The bots' names: a userid per strength. Apart from games/bots.py so that the accounts,
which check every signup against them, do not load the bots' search with each mail."""

from __future__ import annotations

STRENGTHS = ("easy", "good", "best")  # weakest first; a bot user is named <strength>bot


def bot_userid(strength: str) -> str:
    return f"{strength}bot"


def strength_of(userid: str) -> str | None:
    """The strength a bot's userid names, or None for a person's."""
    for strength in STRENGTHS:
        if userid == bot_userid(strength):
            return strength
    return None
