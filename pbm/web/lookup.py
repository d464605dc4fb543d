"""Finding what a URL names: a game, a board, a player. Anything else is a NotFound."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbm.boards.select import load_board
from pbm.context import CommandError, Context
from pbm.db.models import Board, User
from pbm.games import registry


class NotFound(Exception):
    """The URL names nothing we show; the message says what, for the 404 page."""


class BadRequest(Exception):
    """The URL is not one we could answer (a move that is no number); said on a 400 page."""


def game_named(word: str) -> str:
    """The canonical name of the game `word` names (aliases too: the caller redirects)."""
    name = registry.canonical(word) if word.isascii() and len(word) <= 32 else None
    if name is None:
        raise NotFound(f"There is no game called {word[:32]!r} here.")
    return name


def board_named(session: Session, game: str, label: str) -> Board:
    """The board of `game` with this label (`101`, `a101`), found as a mail command finds
    it (with its players, and whether anyone watches it, in one query); declined boards
    were removed and name nothing, as in mail."""
    try:
        return load_board(Context(session, ""), label[:40], game)
    except CommandError as err:
        raise NotFound(str(err)) from None


def player_named(session: Session, userid: str) -> User:
    """An active account (a closed one has no page: its owner left)."""
    user = None
    if userid.isascii() and 0 < len(userid) <= 32:
        user = session.scalar(select(User).where(User.userid == userid.lower(),
                                                 User.active.is_(True)))
    if user is None:
        raise NotFound(f"There is no player {userid[:32]!r} here.")
    return user


def move_number(text: str | None, game: str, label: str, moves: int) -> int | None:
    """The position `?move=` asks for on a board of `moves` moves: None for the board as
    it is now."""
    if text is None or text == "":
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise BadRequest(f"?move= takes a move number from 0 to {moves}, not {text[:20]!r}.")
    number = int(text)
    if number > moves:
        raise NotFound(f"{registry.get(game).info.title} board {label} has {moves} moves; "
                       f"?move= takes 0 to {moves}.")
    return None if number == moves else number
