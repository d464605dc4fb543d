"""Confirmed addresses: an address gets nothing but its confirmation request until its owner
mails the token back as a command.

Anyone may name any address in `signup` or `change address`, so without this the server
would mail boards to strangers on anyone's say-so. The request is the one mail such an
address gets, and it is a mail to a stranger on a stranger's word, so it is bounded every
way one can be forged: one per inbound mail, one a day to one address, a bounded number a
day per sender and an hour for the whole server; and its Subject holds no word the asker
chose. Only a person confirms: the token counts as a command written by hand (mail/inbound.py
drops it from a Subject a reply keeps, and never reads automatic mail).
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
# The Subject of every request: the same words for all, none of them the asker's (a userid
# there would be a line of an attacker's text in a stranger's inbox), and no command, so a
# reply that keeps it confirms nothing (mail/inbound.py knows it as one of ours).
REQUEST_SUBJECT = "pbm: please confirm this address"
EVERYONE = "confirms-all"  # the rate key of all requests, whoever asks


def vouched(ctx: Context, address: str) -> bool:
    """Whether an address is confirmed as it is named: the operator typed it, or the mail
    naming it came from it."""
    return ctx.admin or (bool(ctx.sender) and address == ctx.sender.lower())


def when(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M} UTC"


def request(ctx: Context, user: User, row: Address) -> str:
    """Mail `row` its confirmation request, unless one went there within a day; what to
    tell the sender. Refused (CommandError) when another request went to the address within
    a day, this mail has caused one already, or this sender (today) or the whole server (this
    hour) has asked for as many as allowed."""
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
    if ctx.mailed_unasked():
        # One inbound mail, at most one mail to an address that did not write it: else one
        # mail of fifty signups is fifty mails to strangers.
        raise CommandError(
            "One mail may cause only one mail to an address that did not write to us (a "
            "confirmation request, to spare addresses that did not ask for mail), and this "
            f"one has caused one already, so the request to {row.address} was not sent and "
            "this command was not carried out: nothing was changed by it. Send it in a mail "
            "of its own, naming at most one new address besides the one you write from (an "
            "address you write from needs no confirmation); add the next one by another mail.")
    limit = ctx.limits.confirmations_per_sender_per_day
    allowed = rates.take(ctx.session, f"confirms-from:{ctx.sender}", limit, rates.DAY, now)
    if not allowed.allowed:
        raise CommandError(
            f"{ctx.sender} has asked for {limit} confirmation mails in the last day, the most "
            f"allowed. Nothing was changed; send the command again after "
            f"{when(allowed.resets_at)}, or send it from the address itself (an address you "
            "write from needs no confirmation).")
    # A sender's address is forged at will: the server's own hourly count bounds them all.
    hourly = ctx.limits.confirmations_per_hour
    allowed = rates.take(ctx.session, EVERYONE, hourly, rates.HOUR, now)
    if not allowed.allowed:
        raise CommandError(
            f"The server has mailed {hourly} confirmation requests in the last hour, the most "
            "it sends in an hour. Nothing was changed; send the command again after "
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


def _request_mail(ctx: Context, user: User, address: str, token: str) -> Reply:
    asker = ctx.sender or "the operator"
    # The command is never the first line: a program that mails the text back whole (an
    # echo, a vacation notice quoting it) does not confirm (only a first line counts).
    body = (
        f"Someone writing from {asker} asked this game server to send the board mails of the "
        f"player '{user.userid}' to {address}.\n\n"
        "If that was you and you want them here, send a mail with the Subject:\n\n"
        f"  confirm {token}\n\n"
        "or reply to this mail and write that line, confirm and the token, as the first line "
        "of your text. Nothing else confirms: a reply that only keeps the Subject does not, "
        "nor does an automatic answer (an out-of-office notice).\n\n"
        f"This works until {when(ctx.now + VALID_FOR)}.\n\n"
        "If it was not you, ignore this mail; that is safe: nothing more will be sent to "
        "this address unless it is confirmed, and no other request comes here for a day.\n"
    )
    return Reply((address,), REQUEST_SUBJECT, body, "notice", unasked=True)


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
