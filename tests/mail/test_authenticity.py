"""Which Authentication-Results headers vouch for a mail's sender, and what counts as the
network source of a mail."""

from __future__ import annotations

import pytest

from pbm.mail import authenticity
from pbm.mail.inbound import read
from tests.server.harness import mail

OURS = "mx.games.test"
ALICE = "alice@players.test"
RELAYS = ("127.0.0.0/8", "::1/128")


def vouched(*results: str, sender: str = ALICE, authserv_id: str = OURS,
            headers: dict[str, str] | None = None) -> bool:
    extra = dict(headers or {})
    raw = mail(sender, "help", headers=extra)
    # Authentication-Results headers lead the mail, as an MTA prepends them.
    raw = b"".join(f"Authentication-Results: {r}\r\n".encode() for r in results) + raw
    return read(raw, sender, authserv_id=authserv_id).authenticated


@pytest.mark.parametrize("result", [
    f"{OURS}; dkim=pass header.d=players.test header.s=s1 header.b=abc",
    f"{OURS}; spf=pass smtp.mailfrom=alice@players.test",
    f"{OURS}; spf=pass smtp.mailfrom=players.test",
    f"{OURS}; dkim=pass header.i=@players.test",
    f"{OURS.upper()}; DKIM=Pass (good signature) header.d=Players.Test",
    f"{OURS} 1; dkim=fail header.d=players.test; spf=pass smtp.mailfrom=alice@players.test",
])
def test_our_mta_saying_dkim_or_spf_passed_for_the_from_domain_vouches(result: str):
    assert vouched(result)


@pytest.mark.parametrize("result", [
    "mx.evil.test; dkim=pass header.d=players.test",  # another authserv-id: anyone's words
    f"{OURS}.evil.test; dkim=pass header.d=players.test",  # ours only as a prefix
    f"{OURS}; dkim=fail header.d=players.test",
    f"{OURS}; dkim=neutral header.d=players.test",
    f"{OURS}; dkim=pass header.d=evil.test",  # signed, but by somebody else's domain
    f"{OURS}; dkim=pass header.d=test",  # a parent domain is not the From: domain
    f"{OURS}; dkim=pass header.d=mail.players.test",  # nor is a subdomain (strict alignment)
    f"{OURS}; spf=pass smtp.mailfrom=bounce@evil.test",
    f"{OURS}; spf=pass smtp.helo=players.test",  # the HELO name says nothing of From:
    f"{OURS}; spf=softfail smtp.mailfrom=alice@players.test",
    f"{OURS}; dmarc=pass header.from=players.test",  # neither dkim nor spf
    f"{OURS}; none",
    f"{OURS}; dkim=pass header.d=players.test (" + "(" * 3000,  # unparseable: not vouched
])
def test_anything_else_does_not(result: str):
    assert not vouched(result)


def test_without_an_authserv_id_no_header_is_believed():
    assert not vouched(f"{OURS}; dkim=pass header.d=players.test", authserv_id="")


def test_a_reply_to_elsewhere_is_not_vouched_for():
    """Replies go to Reply-To, which DKIM of the From: domain says nothing about."""
    result = f"{OURS}; dkim=pass header.d=players.test"
    assert not vouched(result, headers={"Reply-To": "mallory@evil.test"})
    assert vouched(result, headers={"Reply-To": ALICE})


def test_two_from_addresses_are_not_vouched_for():
    raw = (f"Authentication-Results: {OURS}; dkim=pass header.d=players.test\r\n"
           "From: alice@players.test, mallory@evil.test\r\nSubject: help\r\n\r\nhi\r\n").encode()
    assert not read(raw, ALICE, authserv_id=OURS).authenticated


def test_our_header_among_others_still_counts():
    assert vouched("mx.evil.test; dkim=fail header.d=players.test",
                   f"{OURS}; spf=pass smtp.mailfrom=alice@players.test")


def test_only_the_first_few_headers_are_read():
    """The MTA's own come first; past a few, the rest is a hostile mail's padding."""
    padding = [f"{OURS}; dkim=fail header.d=players.test"] * authenticity.MAX_HEADERS
    assert not vouched(*padding, f"{OURS}; dkim=pass header.d=players.test")


def test_a_header_of_ours_too_long_to_be_the_mtas_is_not_read():
    """Parsing costs about 10 ms a kilobyte, so a hostile mail's giant header is skipped
    unparsed, even one that would vouch (its cost is bounded by these two limits, not
    timed here: `pbm bench` measures speed)."""
    result = f"{OURS}; dkim=pass header.d=players.test"
    other = "; spf=none smtp.mailfrom=pad.test"  # more results: valid, but nothing we need
    fits = (authenticity.MAX_HEADER_CHARS - len(result)) // len(other)
    assert vouched(result + other * fits)
    assert not vouched(result + other * (fits + 1))


@pytest.mark.parametrize(("peer", "source"), [
    ("203.0.113.7", "203.0.113.7"),
    ("127.0.0.1", ""),  # an MTA in front of pbm: not the mail's source
    ("127.8.9.10", ""),
    ("::1", ""),
    ("::ffff:127.0.0.1", ""),
    ("::ffff:203.0.113.7", "203.0.113.7"),
    ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),  # one host has its /64 to pick from
    ("[2001:db8::1]", "2001:db8::/64"),
    ("unknown", ""),  # what Postfix passes when it does not know
    ("", ""),
])
def test_the_source_of_a_mail(peer: str, source: str):
    assert authenticity.source(peer, RELAYS) == source


def test_no_relays_makes_the_loopback_a_source():
    assert authenticity.source("127.0.0.1", ()) == "127.0.0.1"
