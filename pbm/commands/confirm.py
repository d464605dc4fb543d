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
    # Words after the token are let be: a person may write "confirm TOKEN thanks". Where the
    # line may stand (a new mail's Subject, a text's first line) the mail layer decides.
    confirm(ctx, inv.args[0])


account_command(Command("confirm", "token",
                        "Confirm an address named for an account, with the token mailed to "
                        "it: as the Subject of a new mail, or as the first line of a reply "
                        "to the request (a reply that only keeps its Subject confirms "
                        "nothing).", do_confirm, least=1,
                        secret_args=(0,)))
