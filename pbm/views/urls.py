"""Where things live on the web view (pbm/web), for its pages and for links in mail.

Paths only: the site's own address (web.base_url) is the caller's to put in front."""

from __future__ import annotations

from urllib.parse import quote


def board_path(game: str, label: str, move: int | None = None) -> str:
    """A board's page (`/trou/101`), or its position after `move` moves."""
    path = f"/{game}/{label}"
    return path if move is None else f"{path}?move={move}"


def record_path(game: str, label: str, kind: str) -> str:
    """A board's record or feed: kind is json, txt or atom."""
    return f"/{game}/{label}.{kind}"


def game_path(game: str) -> str:
    return f"/{game}"


def player_path(userid: str, kind: str = "") -> str:
    """A player's page, or with kind "atom" their feed. Userids are letters and digits,
    but quoted all the same: a path is never built from unchecked text."""
    return f"/players/{quote(userid, safe='')}" + (f".{kind}" if kind else "")


def tournament_path(game: str, name: str) -> str:
    return f"/{game}/tournaments/{quote(name, safe='')}"


def ladder_path(game: str) -> str:
    return f"/{game}/ladder"


def absolute(base_url: str, path: str) -> str:
    """`path` on the site at `base_url` (with or without its closing slash)."""
    return base_url.rstrip("/") + path
