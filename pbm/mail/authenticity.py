"""What can be told of who sent a mail: whether the operator's own MTA vouched for its sender
(an Authentication-Results header, RFC 8601), and the network address it came from.

Anybody can write any From:, and any Authentication-Results header too. Only a header
with the authserv-id of the operator's MTA (`server.authserv_id`) is read here, and only
that MTA can tell its own headers from forged ones with the same id: it must remove those
(Postfix with OpenDKIM/OpenDMARC, rspamd and Exim do so for their own id).
"""

from __future__ import annotations

import ipaddress
from email.message import Message

import authres

HEADER = "authentication-results"
# An MTA's header is a few hundred characters; parsing costs about 10 ms a kilobyte, so
# hostile ones are bounded in number and length (what the MTA adds comes first).
MAX_HEADERS = 5
MAX_HEADER_CHARS = 2048
IPV6_PREFIX = 64  # one IPv6 host has a /64 to choose addresses from


def vouched(message: Message, sender: str, author: str, authserv_id: str) -> bool:
    """Whether the operator's MTA (its header named `authserv_id`) says DKIM or SPF passed for
    the domain of the mail's From: address `author` (as mail/inbound.py reads it: "" unless
    there is exactly one, and plain), and that address is `sender`, the one replies go to (so
    a Reply-To elsewhere is not vouched for). Strict alignment: the DKIM signing
    domain (header.d) or the SPF envelope domain (smtp.mailfrom) is the From: domain itself.

    The trust is in the domain, not the person: a provider that lets its users send with
    each other's From: addresses lets them pass for each other here too."""
    if not authserv_id or not sender or author != sender:
        return False
    domain = _domain(sender)
    wanted = authserv_id.strip().lower()
    values = [" ".join(str(value).split()) for name, value in message.raw_items()
              if name.lower() == HEADER]
    for value in values[:MAX_HEADERS]:
        if len(value) > MAX_HEADER_CHARS or not value.lower().startswith(wanted):
            continue  # not ours (the id leads the header): not worth parsing
        try:
            header = authres.AuthenticationResultsHeader.parse_value(value)
        except Exception:  # hostile text may break the parser in any way: not vouched
            continue
        if str(header.authserv_id or "").lower() != wanted:
            continue  # somebody else's verdict, or a forgery: it proves nothing
        for result in header.results:
            if str(result.result).lower() != "pass":
                continue
            method = str(result.method).lower()
            if method == "dkim" and _signed_by(result) == domain:
                return True
            if method == "spf" and _domain(_property(result, "smtp", "mailfrom")) == domain:
                return True
    return False


def source(peer: str, relay_networks: tuple[str, ...]) -> str:
    """The network address a mail came from, as a key for counting ("" when unknown or a
    relay in front of pbm: then it tells nothing). An IPv6 address counts as its /64."""
    try:
        address = ipaddress.ip_address(peer.strip().strip("[]"))
    except ValueError:
        return ""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if any(address in ipaddress.ip_network(network, strict=False) for network in relay_networks):
        return ""
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{address}/{IPV6_PREFIX}", strict=False))
    return str(address)


def _property(result: authres.core.AuthenticationResult, kind: str, name: str) -> str:
    for prop in result.properties:
        if str(prop.type).lower() == kind and str(prop.name).lower() == name:
            return str(prop.value or "")
    return ""


def _signed_by(result: authres.core.AuthenticationResult) -> str:
    """The signing domain of a DKIM result: header.d, else the domain of header.i."""
    return _domain(_property(result, "header", "d") or _property(result, "header", "i"))


def _domain(value: str) -> str:
    return value.strip().strip("<>").rpartition("@")[2].rstrip(".").lower()
