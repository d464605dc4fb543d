"""`vacation userid password days|off`: stop your clocks while you are away."""

from __future__ import annotations

from datetime import datetime, timedelta

from pbm.accounts import vacations
from pbm.accounts.users import authenticate
from pbm.commands.grammar import Command, Invocation, account_command
from pbm.context import CommandError, Context
from pbm.db.models import User, Vacation

MOST_DAYS = 366


def when(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M} UTC"


def start_vacation(ctx: Context, userid: str, password: str | None, days: int) -> User:
    """Away from now for `days` days (a vacation under way is replaced by this one)."""
    user = authenticate(ctx, userid, password or "")
    allowance = ctx.time.vacation_days_per_year
    if not 1 <= days <= min(MOST_DAYS, max(allowance, 1)):
        raise CommandError(f"A vacation lasts from 1 to {allowance} days (the yearly "
                           f"allowance), not {days}. Write: vacation {user.userid} PASSWORD "
                           "DAYS, or ... off to come back early.")
    now, session = ctx.now, ctx.session
    under_way = vacations.current(session, user, now)
    ends = now + timedelta(days=days)
    planned = (under_way.starts_at if under_way else now, ends)
    for year in vacations.years(*planned):
        used = vacations.days_used(session, user, year, under_way, planned)
        if used > allowance:
            left = max(0, allowance - vacations.days_used(session, user, year))
            raise CommandError(
                f"That vacation would give {user.userid} {used} days of vacation in {year}; "
                f"the allowance is {allowance} days a year, and {left} are left in {year}. "
                "Nothing was changed. Ask for fewer days.")
    if under_way is not None:
        under_way.ends_at = ends
    else:
        session.add(Vacation(user_id=user.id, starts_at=now, ends_at=ends))
    user.vacation_until = ends
    left = allowance - vacations.days_used(session, user, now.year)
    ctx.answer(f"Vacation of {user.userid}",
               f"{user.userid} is on vacation until {when(ends)} ({days} days). Meanwhile "
               "your clocks stop: you are neither reminded nor forfeited, and your "
               "opponents' board mails say you are away.\n"
               f"Days of vacation left for {now.year}: {max(0, left)} of {allowance}.\n"
               f"Back early? Send: vacation {user.userid} PASSWORD off\n")
    return user


def end_vacation(ctx: Context, userid: str, password: str | None) -> User:
    """Back now: the clocks run again; unused days are not counted."""
    user = authenticate(ctx, userid, password or "")
    under_way = vacations.current(ctx.session, user, ctx.now)
    if under_way is None:
        raise CommandError(f"{user.userid} is not on vacation. To go away, write: vacation "
                           f"{user.userid} PASSWORD DAYS")
    under_way.ends_at = ctx.now
    # The end of the latest vacation, kept: clocks.on_turn asks for vacations only when
    # one ended after a turn began.
    user.vacation_until = ctx.now
    vacations.wake_clocks(ctx.session, user, ctx.now)
    ctx.answer(f"Vacation of {user.userid}",
               f"Welcome back, {user.userid}: your vacation has ended and your clocks run "
               "again from where they stopped.\n")
    return user


def do_vacation(ctx: Context, inv: Invocation) -> None:
    userid, password, length = inv.args
    if length.lower() == "off":
        end_vacation(ctx, userid, password)
        return
    if not (length.isascii() and length.isdigit()) or len(length) > 4:
        # Not quoted: with the words out of place, it may be the password.
        raise CommandError("The last word must be a number of days (for example 14) or 'off'. "
                           "Write: vacation USERID PASSWORD DAYS, or vacation USERID PASSWORD off.")
    start_vacation(ctx, userid, password, int(length))


account_command(Command(
    "vacation", "userid password days|off",
    "Go away for some days: your clocks stop, you are neither reminded nor forfeited "
    "(a yearly allowance applies). 'off' ends it early.",
    do_vacation, least=3, most=3, secret_args=(1,), login=(0, 1)))
