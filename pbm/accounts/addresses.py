"""Where a user's mail may go: the confirmed addresses whose mail has not bounced too often."""

from __future__ import annotations

from pbm.db.models import Address, User


def receives_mail(address: Address) -> bool:
    """Whether mail for the user may go to this address: its owner has confirmed it, and
    its mail has not bounced too often."""
    return address.confirmed and not address.stopped


def addresses_of(user: User) -> tuple[str, ...]:
    return tuple(a.address for a in user.addresses if receives_mail(a))
