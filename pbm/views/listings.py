"""Listings: the games on offer and the boards of a game."""

from __future__ import annotations

from pbm.boards.position import position
from pbm.boards.select import Which, boards
from pbm.context import Context
from pbm.db.models import Board, User
from pbm.games import registry
from pbm.games.base import AnyGame
from pbm.views.boardmail import turn_line


def board_line(board: Board) -> str:
    """One line per board: number, players by seat, and whose turn it is or how it ended."""
    pos = position(board)
    info = pos.game.info
    players = ", ".join(f"{pos.userid(i)} ({info.seats[i]})" for i in range(info.players))
    return f"{board.id:>5}  {players}  {turn_line(pos)}"


def list_boards(ctx: Context, game: AnyGame, users: list[User], which: Which) -> list[Board]:
    """The game's boards `which` of them, of the named players or of everyone."""
    if not users:
        return boards(ctx.session, game=game.info.name, which=which)
    seen = {board.id: board for user in users
            for board in boards(ctx.session, game=game.info.name, user=user, which=which)}
    return [seen[number] for number in sorted(seen)]


def send_listing(ctx: Context, game: AnyGame, users: list[User], which: Which) -> None:
    title = game.info.title
    found = list_boards(ctx, game, users, which)
    whose = f" of {', '.join(u.userid for u in users)}" if users else ""
    lines = [f"{which.capitalize()} {title} boards{whose}:", ""]
    lines += [board_line(b) for b in found] or ["  (none)"]
    ctx.answer(f"List of {title} games", "\n".join(lines) + "\n")


def games_on_offer() -> str:
    lines = ["Games on offer:", ""]
    for name in registry.names():
        info = registry.get(name).info
        aliases = f" (also: {', '.join(info.aliases)})" if info.aliases else ""
        seats = " / ".join(info.seats)
        lines.append(f"  {name:<12} {info.title}{aliases}, {info.players} players: {seats}")
        if info.summary:
            lines.append(f"  {'':<12} {info.summary}")
    lines += ["", "Send '<game> help' for the rules of a game, 'list <game>' for its boards."]
    return "\n".join(lines) + "\n"
