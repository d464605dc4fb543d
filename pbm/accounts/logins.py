"""Password checks that resist guessing: paused after repeated wrong passwords for an
account or from an address, and the account's owner told."""

from __future__ import annotations

from datetime import datetime, timedelta

from pbm.accounts.addresses import addresses_of
from pbm.accounts.passwords import check_password, hash_password, outdated
from pbm.context import CommandError, Context, Reply, shorten
from pbm.db import rates
from pbm.db.models import User


def sender_key(sender: str) -> str:
    return f"wrong-passwords-from:{sender}"


def _clock(when: datetime) -> str:
    return when.strftime("%Y-%m-%d %H:%M UTC")


def check(ctx: Context, user: User, password: str) -> None:
    """Raise CommandError unless `password` is `user`'s and checks are not paused."""
    limits = ctx.limits
    paused = user.password_paused_until
    if paused is not None and paused > ctx.now:
        raise CommandError(
            f"Password checks for {user.userid} are paused until {_clock(paused)} after "
            f"{user.wrong_passwords} wrong passwords in a row, so this command was refused "
            "without looking at the password. Send it again after that time."
        )
    if ctx.sender:
        until = rates.reached(ctx.session, sender_key(ctx.sender),
                              limits.wrong_passwords_per_sender_per_hour, rates.HOUR, ctx.now)
        if until is not None:
            raise CommandError(
                f"Too many wrong passwords came from {ctx.sender} in the last hour; commands "
                f"that need a password are refused from this address until {_clock(until)}."
            )
    if limits.wrong_passwords_per_mail and ctx.wrong_passwords >= limits.wrong_passwords_per_mail:
        raise CommandError(
            f"This mail already held {ctx.wrong_passwords} wrong passwords, so its other "
            "commands that need a password were not checked. Send them in a new mail."
        )
    if not check_password(user.userid, password, user.password_hash, ctx.refuted):
        ctx.wrong_passwords += 1
        ctx.unrecorded_failures.append(user.id)
        raise CommandError(
            f"Wrong password for '{user.userid}'. Passwords are case-sensitive; "
            "if you have forgotten yours, ask the operator to set a new one."
        )
    ctx.password_accepted = True
    if user.wrong_passwords or user.password_paused_until is not None:
        user.wrong_passwords, user.password_paused_until = 0, None
    if outdated(user.password_hash):
        user.password_hash = hash_password(password)


def record_failures(ctx: Context) -> None:
    """Count the wrong passwords of the command just refused (its own savepoint is rolled
    back by then), pause the account when they pile up, and tell its owner once."""
    limits = ctx.limits
    for user_id in ctx.unrecorded_failures:
        user = ctx.session.get(User, user_id)
        if user is None:
            continue
        user.wrong_passwords += 1
        over = user.wrong_passwords - limits.wrong_passwords_before_pause
        if over > 0 and limits.password_pause_seconds:
            seconds = min(limits.password_pause_seconds * 2 ** min(over - 1, 30),
                          limits.max_password_pause_seconds or limits.password_pause_seconds)
            user.password_paused_until = ctx.now + timedelta(seconds=seconds)
            if over == 1:  # a pause begins: once per run of wrong passwords
                _tell_owner(ctx, user)
        if ctx.sender:
            rates.count(ctx.session, sender_key(ctx.sender), rates.HOUR, ctx.now)
    ctx.unrecorded_failures.clear()


def _tell_owner(ctx: Context, user: User) -> None:
    assert user.password_paused_until is not None
    source = f" The latest came in a mail from {shorten(ctx.sender, 80)}." if ctx.sender else ""
    body = (
        f"There have been {user.wrong_passwords} wrong passwords in a row for your account "
        f"{user.userid}.{source}\n\n"
        f"To protect the account, its password checks are paused until "
        f"{_clock(user.password_paused_until)}: until then every command with your password "
        "is refused, even with the right one. Each further wrong password makes the pause "
        "longer.\n\n"
        "If this was not you, someone may be guessing your password. A long one they cannot "
        "guess is the defence: send 'change password userid oldpassword newpassword' once the "
        "pause is over. Nothing else needs doing.\n"
    )
    to = addresses_of(user)
    ctx.replies.append(Reply(to, f"pbm: wrong passwords for {user.userid}", body, "notice"))
