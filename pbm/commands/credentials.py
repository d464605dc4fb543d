"""Passwords of a mail's commands checked ahead of the writer (argon2 is slow on purpose)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbm.accounts.logins import throttled
from pbm.accounts.passwords import check_password, right_lately, token
from pbm.commands.grammar import parse
from pbm.config import LimitSettings
from pbm.context import CommandError
from pbm.db.models import Address, User


def verify_ahead(session: Session, lines: list[str], limits: LimitSettings,
                 sender: str, now: datetime, authenticated: bool = False,
                 source: str = "") -> frozenset[bytes]:
    """Check the passwords a mail's commands carry, before the writer takes the mail (argon2
    costs tens of milliseconds a check). Returns the tokens of the wrong ones; the right ones
    are remembered by the passwords module. Stops after as many wrong ones as a mail may
    hold: the writer refuses the rest unread.

    A userid+password that was right lately is not looked at again (most moves): then no
    database read is made at all. A paused account is checked only for mail from its own
    confirmed address that the operator's MTA vouched for (`authenticated`), as the writer
    lets only that through."""
    pending: list[tuple[str, str]] = []
    for line in lines:
        try:
            invocation = parse(line)
        except CommandError:
            continue
        login = invocation.command.login
        if login is None or len(invocation.args) <= max(login):
            continue
        pair = (invocation.args[login[0]].lower(), invocation.args[login[1]])
        if pair not in pending and not right_lately(*pair):
            pending.append(pair)
    if not pending or throttled(session, limits, sender, authenticated, source, now):
        return frozenset()
    refuted: set[bytes] = set()
    for userid, password in pending:
        user = session.execute(
            select(User.id, User.userid, User.password_hash, User.password_paused_until)
            .where(User.userid == userid, User.active.is_(True))
        ).first()
        if user is None:
            continue
        if user.password_paused_until is not None and user.password_paused_until > now and \
                not (authenticated and _confirmed(session, user.id, sender)):
            continue
        if not check_password(user.userid, password, user.password_hash):
            refuted.add(token(user.userid, password, user.password_hash))
            if limits.wrong_passwords_per_mail and len(refuted) >= limits.wrong_passwords_per_mail:
                break
    return frozenset(refuted)


def _confirmed(session: Session, user_id: int, sender: str) -> bool:
    """Whether `sender` is a confirmed address of the user."""
    return session.scalar(
        select(Address.id).where(Address.user_id == user_id, Address.confirmed.is_(True),
                                 Address.address == sender.lower())
    ) is not None
