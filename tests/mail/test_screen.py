"""Hostile mail is measured before it is parsed: refused when outside the limits, read
within bounded time when inside them."""

from __future__ import annotations

import time

import pytest

from pbm.config import LimitSettings
from pbm.mail.inbound import key_of, message_key, read
from pbm.mail.screen import Refusal, screen, time_limit

LIMITS = LimitSettings()


def headers(*lines: bytes, body: bytes = b"help\r\n") -> bytes:
    return b"".join(line + b"\r\n" for line in lines) + b"\r\n" + body


def nested_multiparts(depth: int) -> bytes:
    out = b"From: alice@example.org\r\nSubject: multiple\r\nMIME-Version: 1.0\r\n"
    for i in range(depth):
        out += b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n" % (i, i)
    out += b"Content-Type: text/plain\r\n\r\nhelp\r\n"
    for i in reversed(range(depth)):
        out += b"--b%d--\r\n" % i
    return out


def nested_messages(depth: int) -> bytes:
    out = b"From: alice@example.org\r\nSubject: help\r\n"
    out += b"Content-Type: message/rfc822\r\n\r\n" * depth
    return out + b"Subject: inner\r\n\r\nhello\r\n"


def many_parts(count: int) -> bytes:
    parts = b"".join(b"--b\r\n\r\nx\r\n" for _ in range(count))
    return (b"From: alice@example.org\r\nSubject: multiple\r\nMIME-Version: 1.0\r\n"
            b"Content-Type: multipart/mixed; boundary=b\r\n\r\n" + parts + b"--b--\r\n")


# The mails of the issue, each once took seconds, gigabytes or a RecursionError.
PATHOLOGICAL = {
    "20,000 folded encoded words in From": headers(
        b"From: " + b"\r\n ".join([b"=?utf-8?q?a=C3=A9?="] * 20000) + b" <a@example.org>",
        b"Subject: help"),
    "a 50 KB unfolded From": headers(b"From: " + b"a" * 50_000, b"Subject: help"),
    "2,000 nested multiparts": nested_multiparts(2000),
    "2,000 nested message/rfc822": nested_messages(2000),
    "100,000 empty parts": many_parts(100_000),
    "1,000 header fields": headers(*(b"X-Filler-%d: y" % i for i in range(1000)),
                                   b"From: a@example.org", b"Subject: help"),
    "a header section with no end": b"From: a@example.org\r\nSubject: help\r\n"
                                    + b"X-Long: " + b"y" * 70_000,
}


@pytest.mark.parametrize("name", PATHOLOGICAL)
def test_pathological_mail_is_refused_before_parsing(name: str):
    raw = PATHOLOGICAL[name]
    started = time.perf_counter()
    with pytest.raises(Refusal) as refused:
        read(raw, "attacker@example.net")
    elapsed = time.perf_counter() - started
    assert refused.value.code in (552, 554)
    reply = refused.value.smtp_reply()
    assert reply.startswith(("552 5.3.4 ", "554 5.6.0 ")) and len(reply) < 200
    assert "\n" not in reply and "\r" not in reply
    # Not a speed test: a generous bound that the old code missed by orders of magnitude.
    assert elapsed < 2, (name, elapsed)


@pytest.mark.parametrize("depth", [1, 5, LIMITS.max_mime_depth - 1])
def test_nesting_within_the_limit_is_read(depth: int):
    assert read(nested_multiparts(depth)).body.strip() == "help"


def test_nesting_one_past_the_limit_is_refused():
    with pytest.raises(Refusal, match="deep"):
        read(nested_multiparts(LIMITS.max_mime_depth))


def test_parts_up_to_the_limit_are_read():
    read(many_parts(LIMITS.max_mime_parts - 1))
    with pytest.raises(Refusal, match="parts"):
        read(many_parts(LIMITS.max_mime_parts + 5))


def test_headers_up_to_the_limits_are_read():
    fields = [b"X-Filler-%d: y" % i for i in range(LIMITS.max_headers - 2)]
    assert read(headers(*fields, b"From: a@example.org", b"Subject: help")).subject == "help"
    long_field = b"References: " + b" ".join(b"<%d@example.org>" % i for i in range(900))
    assert len(long_field) < LIMITS.max_header_field_bytes
    read(headers(long_field, b"From: a@example.org", b"Subject: help"))


def test_limits_come_from_the_settings():
    small = LimitSettings(max_headers=3)
    raw = headers(b"From: a@example.org", b"Subject: help", b"To: x@example.org",
                  b"Date: today")
    read(raw)
    with pytest.raises(Refusal, match="more than 3 header fields"):
        screen(raw, small)


def test_a_from_that_breaks_the_address_parser_leaves_no_sender():
    """Nested comments made getaddresses raise RecursionError: now the mail has no sender,
    so it is stored but never answered."""
    mail = read(headers(b'From: "' + b"(" * 5000, b"Subject: help"))
    assert mail.sender == "" and mail.auto


@pytest.mark.parametrize("value", [b"alice", b"<>", b"a b@example.org", b"@example.org",
                                   b"alice@", b"\"a\\\\\"b\"@example.org"])
def test_a_from_without_a_usable_address_falls_back_to_the_envelope(value: bytes):
    mail = read(headers(b"From: " + value, b"Subject: help"), "bob@example.org")
    assert mail.sender == "bob@example.org"


def test_time_limit_interrupts_a_slow_read():
    with pytest.raises(Refusal, match="longer than 1 s"):
        with time_limit(1):
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                pass


# ----- Message-IDs of any bytes ---------------------------------------------------------------
def test_a_non_ascii_message_id_gets_a_stable_ascii_key():
    """A Message-ID with a non-ASCII byte was answered 451 (and exit 75) forever."""
    raw = headers(b"From: a@example.org", b"Subject: help", b"Message-ID: <caf\xe9@example.org>")
    key = message_key(raw)
    assert key.startswith("sha256-id:") and key.isascii()
    assert message_key(raw.replace(b"help", b"other")) == key  # same id, same key
    mail = read(raw)
    assert mail.message_key == key
    assert mail.message_id is None  # not copied into our replies' headers


@pytest.mark.parametrize("value", ["<a\x00b@example.org>", "<" + "x" * 600 + "@example.org>",
                                   "<ok@example.org>\r\n <second@example.org>"])
def test_any_message_id_has_a_key_that_stores(value: str):
    key = key_of(value, b"raw")
    key.encode("ascii")
    assert len(key) <= 512


def test_a_folded_980_character_message_id_is_not_carried_into_replies():
    long_id = b"<" + b"x" * 970 + b"@example.org>"
    raw = headers(b"From: a@example.org", b"Subject: help", b"Message-ID:\r\n " + long_id,
                  b"References: <ok@example.org>\r\n " + long_id)
    mail = read(raw)
    assert mail.message_id is None
    assert mail.references == "<ok@example.org>"
