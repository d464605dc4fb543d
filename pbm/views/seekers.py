"""`GAME games seek`: the players who want more games of a game, and how many."""

from __future__ import annotations

from pbm.accounts import policies
from pbm.context import Context
from pbm.games.base import AnyGame


def seekers_text(ctx: Context, game: AnyGame) -> str:
    """A table of seekers by userid, or a line saying there are none."""
    title, name = game.info.title, game.info.name
    found = policies.seekers(ctx.session, name)
    if not found:
        return (f"Nobody is seeking {title} games now.\n"
                f"To be listed: {name} seek YOURID PASSWORD [n]\n")
    width = max(len("Name"), *(len(userid) for userid, _ in found))
    lines = [f"Players seeking {title} games", "", f"{'Name'.ljust(width)}  Seeking"]
    lines += [f"{userid.ljust(width)}  {seeking:>7}" for userid, seeking in found]
    lines += ["", f"To play one: {name} seek YOURID PASSWORD pairs you with the seeker of the "
              f"nearest rating at once; or {name} challenge USERID YOURID (every board counts "
              "one of what they seek)."]
    return "\n".join(lines) + "\n"


def send_seekers(ctx: Context, game: AnyGame) -> None:
    """`GAME games seek`: who is looking for games of `game`."""
    ctx.answer(f"{game.info.title} Seekers", seekers_text(ctx, game))
