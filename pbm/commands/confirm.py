"""`confirm TOKEN`: show that an address named for an account is its owner's."""

from __future__ import annotations

from pbm.accounts import confirmations
from pbm.accounts.addresses import addresses_of
from pbm.commands.grammar import Command, Invocation, account_command
from pbm.context import Context


def confirm(ctx: Context, token: str) -> None:
    """Confirm the address the token was mailed to: board mails go there from now on."""
    row = confirmations.confirm(ctx, token)
    user = row.user
    ctx.answer("Address confirmed",
               f"{row.address} is confirmed for {user.userid}. Board mails for {user.userid} "
               f"now go to: {', '.join(addresses_of(user))}\n")


def do_confirm(ctx: Context, inv: Invocation) -> None:
    # Words after the token are the rest of the request's Subject in a reply to it.
    confirm(ctx, inv.args[0])


account_command(Command("confirm", "token",
                        "Confirm an address named for an account, with the token mailed to "
                        "it (or reply to that mail).", do_confirm, least=1,
                        secret_args=(0,)))
