"""Listings: the games on offer and the boards of a game."""

from __future__ import annotations

from sqlalchemy import select

from pbm.boards.position import position
from pbm.boards.select import boards_of
from pbm.views.boardmail import turn_line
from pbm.context import Context
from pbm.db.models import Board, User
from pbm.games import registry
from pbm.games.base import Game


def board_line(board: Board) -> str:
    """One line per board: number, players by seat, and whose turn it is or how it ended."""
    pos = position(board)
    info = pos.game.info
    players = ", ".join(f"{pos.userid(i)} ({info.seats[i]})" for i in range(info.players))
    return f"{board.id:>5}  {players}  {turn_line(pos)}"


def list_boards(ctx: Context, game: Game, users: list[User], which: str) -> list[Board]:
    if users:
        seen: dict[int, Board] = {}
        for user in users:
            for board in boards_of(ctx, user, game.info.name, which):
                seen[board.id] = board
        return [seen[k] for k in sorted(seen)]
    query = select(Board).where(Board.game == game.info.name, Board.status != "declined")
    if which in ("active", "next"):
        query = query.where(Board.status == "active")
    elif which == "inactive":
        query = query.where(Board.status == "finished")
    return list(ctx.session.scalars(query.order_by(Board.id)))


def send_listing(ctx: Context, game: Game, users: list[User], which: str) -> None:
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
