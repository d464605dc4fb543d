"""Password checks that resist guessing without locking the owner out: wrong passwords pause
an account's checks, but not for its owner's own mail when the operator's MTA vouches for it;
they are counted per sender and per source too, and the owner is told at most once a day."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from pbm.accounts.addresses import addresses_of
from pbm.accounts.passwords import check_password, hash_password, outdated
from pbm.config import LimitSettings
from pbm.context import CommandError, Context, Reply, shorten
from pbm.db import rates
from pbm.db.models import User


def sender_key(sender: str, authenticated: bool = False) -> str:
    # Mail the operator's MTA vouched for counts apart: wrong passwords sent with a forged
    # From: must not use up the allowance of the address's real owner.
    return f"wrong-passwords-from{'-authenticated' if authenticated else ''}:{sender}"


def source_key(source: str) -> str:
    return f"wrong-passwords-via:{source}"


def notice_key(userid: str) -> str:
    return f"wrong-passwords-told:{userid}"


def _clock(when: datetime) -> str:
    return when.strftime("%Y-%m-%d %H:%M UTC")


def owners_own(ctx: Context, user: User) -> bool:
    """Whether the mail is the account owner's own: sent from one of its confirmed addresses,
    and vouched for by the operator's MTA (so its From: is not forged)."""
    if not ctx.authenticated or not ctx.sender:
        return False
    sender = ctx.sender.lower()
    return any(row.confirmed and row.address == sender for row in user.addresses)


def throttled(session: Session, limits: LimitSettings, sender: str, authenticated: bool,
              source: str, now: datetime) -> str | None:
    """Why password checks are refused for mail from `sender` via `source` (too many wrong
    passwords from there this hour), or None. Mail vouched for is judged by its sender
    alone: the source of a big provider's mail is shared by all its users."""
    if sender:
        until = rates.reached(session, sender_key(sender, authenticated),
                              limits.wrong_passwords_per_sender_per_hour, rates.HOUR, now)
        if until is not None:
            return (f"Too many wrong passwords came from {shorten(sender, 80)} in the last "
                    "hour; commands that need a password are refused from this address until "
                    f"{_clock(until)}.")
    if source and not authenticated:
        until = rates.reached(session, source_key(source),
                              limits.wrong_passwords_per_source_per_hour, rates.HOUR, now)
        if until is not None:
            return (f"Too many wrong passwords came from the network address {source} in the "
                    "last hour, in mails from any address; commands that need a password are "
                    f"refused from there until {_clock(until)}.")
    return None


def check(ctx: Context, user: User, password: str) -> None:
    """Raise CommandError unless `password` is `user`'s and checks are not paused."""
    limits = ctx.limits
    paused = user.password_paused_until
    paused_now = paused is not None and paused > ctx.now
    if paused_now and not owners_own(ctx, user):
        assert paused is not None
        own = (" Mail from the account's own address gets through meanwhile when its mail "
               "provider authenticates it (DKIM or SPF)." if ctx.authentication_checked else "")
        raise CommandError(
            f"Password checks for {user.userid} are paused until {_clock(paused)} after "
            f"{user.wrong_passwords} wrong passwords in a row, so this command was refused "
            f"without looking at the password. Send it again after that time.{own}"
        )
    refusal = throttled(ctx.session, limits, ctx.sender, ctx.authenticated, ctx.source, ctx.now)
    if refusal is not None:
        raise CommandError(refusal)
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
    # The owner let through a pause leaves it as it is: the guesser stays paused, rather
    # than getting a fresh run of free guesses after each of the owner's moves.
    if (user.wrong_passwords or user.password_paused_until is not None) and not paused_now:
        user.wrong_passwords, user.password_paused_until = 0, None
    if outdated(user.password_hash):
        user.password_hash = hash_password(password)


def record_failures(ctx: Context) -> None:
    """Count the wrong passwords of the command just refused (its own savepoint is rolled
    back by then): for the account, pausing it when they pile up (and telling its owner),
    and for the sender and the source of the mail."""
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
            _tell_owner(ctx, user)
        if ctx.sender:
            rates.count(ctx.session, sender_key(ctx.sender, ctx.authenticated), rates.HOUR,
                        ctx.now)
        if ctx.source and not ctx.authenticated and limits.wrong_passwords_per_source_per_hour:
            rates.count(ctx.session, source_key(ctx.source), rates.HOUR, ctx.now)
    ctx.unrecorded_failures.clear()


def _tell_owner(ctx: Context, user: User) -> None:
    """Mail the owner that the account is paused: at most once a day per account, at most
    one such mail per inbound mail, and never about the owner's own mistyping (the answers
    to that mail said it all)."""
    assert user.password_paused_until is not None
    if owners_own(ctx, user):
        return
    sender = ctx.sender.lower()
    to = tuple(a for a in addresses_of(user) if a != sender)  # the sender has its answer
    if not to or ctx.mailed_unasked():
        return  # another day's, or another mail's, notice tells the owner
    if not rates.take(ctx.session, notice_key(user.userid), 1, rates.DAY, ctx.now).allowed:
        return
    source = ""
    if ctx.sender:
        where = f", sent from the network address {ctx.source}" if ctx.source else ""
        source = f" The latest came in a mail from {shorten(ctx.sender, 80)}{where}."
    if ctx.authentication_checked:
        meanwhile = (
            "Mail from your own address still gets through the pause when this server's mail "
            "system finds it authenticated by your mail provider (a DKIM signature or SPF, "
            "which most providers give), so you can go on playing; mail from anywhere else is "
            "refused until then, even with the right password."
        )
        when = ""
    else:
        meanwhile = (
            "Until then every command with your password is refused, even with the right "
            "one and from your own address: this server cannot tell your mail from a forgery "
            "of it. Send such commands again after that time."
        )
        when = " once the pause is over"
    body = (
        f"There have been {user.wrong_passwords} wrong passwords in a row for your account "
        f"{user.userid}.{source}\n\n"
        f"To protect the account, its password checks are paused until "
        f"{_clock(user.password_paused_until)}, and each further wrong password makes the "
        f"pause longer. {meanwhile}\n\n"
        "If this was not you, someone may be guessing your password. A long one they cannot "
        "guess is the defence: send 'change password userid oldpassword newpassword'"
        f"{when}. The guesser's mail is slowed down on its own as well, by the address it "
        "comes from and the network it is sent from. Nothing else needs doing.\n\n"
        "This is the only such notice today, however long the guessing goes on.\n"
    )
    ctx.replies.append(Reply(to, f"pbm: wrong passwords for {user.userid}", body, "notice",
                             unasked=True))
