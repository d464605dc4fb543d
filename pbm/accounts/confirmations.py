"""Confirmed addresses: an address gets nothing but its confirmation request until its owner
mails the token back (or replies to the request).

Anyone may name any address in `signup` or `change address`, so without this the server
would mail boards to strangers on anyone's say-so. The request is the one mail such an
address gets: at most one a day to one address, and a bounded number a day per sender.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import select

from pbm.accounts.addresses import addresses_of
from pbm.context import CommandError, Context, Reply
from pbm.db import rates
from pbm.db.models import Address, User

VALID_FOR = timedelta(days=7)  # a token mailed back later than this is refused
RESEND_AFTER = rates.DAY  # one request a day to an address, whoever asks
TOKEN_BYTES = 16  # 128 random bits: 22 characters, unguessable within any rate limit


def vouched(ctx: Context, address: str) -> bool:
    """Whether an address is confirmed as it is named: the operator typed it, or the mail
    naming it came from it."""
    return ctx.admin or (bool(ctx.sender) and address == ctx.sender.lower())


def when(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M} UTC"


def request(ctx: Context, user: User, row: Address) -> str:
    """Mail `row` its confirmation request, unless one went there within a day; what to
    tell the sender. Refused (CommandError) when this sender has asked for too many today
    or another request went to the address within a day."""
    now, sent = ctx.now, row.confirm_sent_at
    if row.confirm_token is not None and sent is not None and now < sent + RESEND_AFTER:
        return (f"A confirmation request went to {row.address} at {when(sent)}; it is still "
                f"waiting for an answer (another can be sent from {when(sent + RESEND_AFTER)} "
                "on).")
    address_key = f"confirm-to:{row.address}"
    busy_until = rates.reached(ctx.session, address_key, 1, RESEND_AFTER, now)
    if busy_until is not None:
        # Someone else named the address today: one request a day is all it gets from us.
        raise CommandError(
            f"A confirmation request went to {row.address} less than a day ago; to spare that "
            f"address, no other goes there before {when(busy_until)}. Nothing was changed; send "
            "the command again after that.")
    limit = ctx.limits.confirmations_per_sender_per_day
    allowed = rates.take(ctx.session, f"confirms-from:{ctx.sender}", limit, rates.DAY, now)
    if not allowed.allowed:
        raise CommandError(
            f"{ctx.sender} has asked for {limit} confirmation mails in the last day, the most "
            f"allowed. Nothing was changed; send the command again after "
            f"{when(allowed.resets_at)}, or send it from the address itself (an address you "
            "write from needs no confirmation).")
    rates.take(ctx.session, address_key, 1, RESEND_AFTER, now)
    if row.confirm_token is None or _expired(row, now):
        row.confirm_token = secrets.token_urlsafe(TOKEN_BYTES)
    row.confirm_sent_at = now
    ctx.replies.append(_request_mail(ctx, user, row.address, row.confirm_token))
    return (f"A confirmation request has been mailed to {row.address}. Until it is answered, "
            "nothing else goes there.")


def _expired(row: Address, now: datetime) -> bool:
    return row.confirm_sent_at is None or now >= row.confirm_sent_at + VALID_FOR


def request_subject(address: str, userid: str, token: str) -> str:
    """The token leads the Subject, so that a plain reply ("Re: confirm TOKEN ...") is the
    `confirm` command itself."""
    return f"confirm {token} (pbm: {address} for {userid})"


def _request_mail(ctx: Context, user: User, address: str, token: str) -> Reply:
    asker = ctx.sender or "the operator"
    body = (
        f"Someone writing from {asker} asked this game server to send the board mails of the "
        f"player '{user.userid}' to {address}.\n\n"
        "If that was you and you want them here, reply to this mail (the Subject must stay "
        "as it is; the text does not matter), or send a mail with the Subject\n\n"
        f"  confirm {token}\n\n"
        f"This works until {when(ctx.now + VALID_FOR)}.\n\n"
        "If it was not you, ignore this mail: nothing more will be sent to this address "
        "unless it is confirmed.\n"
    )
    return Reply((address,), request_subject(address, user.userid, token), body, "notice")


def confirm(ctx: Context, token: str) -> Address:
    """Mark the address holding `token` confirmed; refused for an unknown or old token."""
    row = ctx.session.scalar(select(Address).where(Address.confirm_token == token)) \
        if token else None
    if row is None or _expired(row, ctx.now) or not row.user.active:
        # The token is never quoted: it is a secret of the address it was mailed to.
        raise CommandError(
            "That confirmation token is unknown or too old (a token works for "
            f"{VALID_FOR.days} days after it was mailed, and only once). Send 'change address' "
            "again to have a new one mailed.")
    row.confirmed = True
    row.confirm_token = None
    row.confirm_sent_at = None
    return row


def require_reachable(users: Sequence[User]) -> None:
    """Refuse a challenge naming a user whom no board mail could reach."""
    for user in users:
        if addresses_of(user):
            continue
        name = user.userid
        if not any(row.confirmed for row in user.addresses):
            raise CommandError(
                f"{name} has not confirmed any mail address yet, so {name} could not get the "
                f"board; this challenge was not made. {name} confirms an address by answering "
                "the confirmation request mailed to it.")
        raise CommandError(f"No mail address of {name} receives mail now, so {name} could not "
                           "get the board; this challenge was not made.")
