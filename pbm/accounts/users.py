"""Finding and authenticating players."""

from __future__ import annotations

import re

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbm.accounts import logins
from pbm.context import CommandError, Context, shorten
from pbm.db.models import Address, User
from pbm.games import registry

USERID = re.compile(r"^[a-z][a-z0-9_.-]{0,15}$")
ADDRESS = re.compile(r"^[^@\s<>()\[\],;:\"]+@[^@\s<>()\[\],;:\"]+\.?[^@\s<>()\[\],;:\"]*$")


def find_user(ctx: Context, userid: str) -> User | None:
    return ctx.session.scalar(select(User).where(User.userid == userid.lower()))


def require_user(ctx: Context, userid: str, *, signed_off_too: bool = False) -> User:
    """The user named; signed-off users only where their history is asked for."""
    user = find_user(ctx, userid)
    if user is None or not (user.active or signed_off_too):
        raise CommandError(
            f"There is no user '{userid}'. Players sign up with 'signup userid password'."
        )
    return user


def authenticate(ctx: Context, userid: str, password: str,
                 known: list[User] | None = None) -> User:
    """The user, if the password is right (always, from the operator's CLI).

    `known` are users already loaded (a board's players): found there, no query is made.
    """
    user = next((u for u in known or () if u.userid == userid.lower() and u.active), None)
    if user is None:
        user = find_user(ctx, userid)
    if ctx.admin or (user is not None and not user.active):
        # The operator typed it, or it is a real (signed-off) userid: safe to name.
        user = require_user(ctx, userid)
    if user is None:
        # The word may be a password typed one place too early: never quote it back.
        raise CommandError(
            "No player has the userid you gave (it is not repeated here, in case it was "
            "your password in the wrong place). Players sign up with 'signup userid password'."
        )
    if ctx.admin:
        return user
    logins.check(ctx, user, password)
    return user


def all_users(session: Session) -> list[User]:
    """Every account, by userid (signed-off ones too)."""
    return list(session.scalars(select(User).order_by(User.userid)))


def users_at(ctx: Context, address: str) -> list[User]:
    """Active users who receive mail at this address."""
    rows = ctx.session.scalars(
        select(User)
        .join(Address)
        .where(Address.address == address.lower(), User.active.is_(True),
               Address.confirmed.is_(True))
    )
    return list(rows)


def check_userid(userid: str) -> str:
    lowered = userid.lower()
    if not USERID.match(lowered):
        raise CommandError(
            f"'{shorten(userid)}' cannot be a userid: use 1 to 16 letters, digits, '.', '_' "
            "or '-', starting with a letter."
        )
    if registry.canonical(lowered) is not None or lowered in RESERVED:
        raise CommandError(f"'{userid}' is a command word and cannot be a userid.")
    return lowered


def check_addresses(addresses: list[str]) -> list[str]:
    cleaned = []
    for address in addresses:
        address = address.strip("<>,;").lower()
        if not ADDRESS.match(address):
            raise CommandError(
                f"'{shorten(address)}' is not a mail address like alice@example.org.")
        if address not in cleaned:
            cleaned.append(address)
    return cleaned


RESERVED = {
    "all", "active", "inactive", "next", "help", "list", "multiple", "change", "signup",
    "signoff", "delete", "add", "confirm", "end", "stop", "guest", "admin", "postmaster", "root",
    # Words that take a userid's place in commands: `trou games seek`, `notify ... off`.
    "seek", "off", "clear", "games", "vacation", "message", "broadcast",
}
