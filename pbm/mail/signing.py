"""DKIM signatures on the mail pbm hands to a relay (dkimpy), for servers nobody else signs for.

Signed as the mail leaves, after the relay link has settled its envelope (an IDNA To: for a
relay without SMTPUTF8), so the signature covers exactly the bytes that go."""

from __future__ import annotations

import base64
import logging

import dkim
from dkim import crypto as dkim_crypto

from pbm.config import Config, ConfigError, DkimSettings

log = logging.getLogger(__name__)
# Relaxed for both header and body: relays that refold a header or trim a line's trailing
# spaces do not break it (RFC 6376, 3.4).
CANONICALIZE = (b"relaxed", b"relaxed")


RSA_OID = bytes([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01])  # 1.2.840.113549.1.1.1


class Signer:
    """Signs with one RSA key in PEM (rsa-sha256, dkimpy's own arithmetic: no C library)."""

    def __init__(self, settings: DkimSettings, key: bytes):
        self.domain = settings.domain.encode("ascii")
        self.selector = settings.selector.encode("ascii")
        self.key = key.strip() + b"\n"

    def sign(self, raw: bytes) -> bytes:
        header = dkim.sign(raw, self.selector, self.domain, self.key,
                           canonicalize=CANONICALIZE, signature_algorithm=b"rsa-sha256")
        return header + raw


def signer(config: Config) -> Signer | None:
    """The signer of `[dkim]`, or None when it is off. ConfigError for a key that cannot be
    read or does not sign (found at start, not at the first mail)."""
    settings = config.dkim
    if not settings.domain:
        return None
    key = _key(config)
    made = Signer(settings, key)
    try:
        made.sign(b"From: a@b\r\nSubject: key check\r\n\r\nx\r\n")
    except Exception as err:  # dkimpy's errors for a broken key vary by kind
        raise ConfigError(f"{config.origin('dkim.key_file')}: dkim.key_file "
                          f"{config.path(settings.key_file)} does not sign: {err}") from None
    log.info("DKIM: signing mail as d=%s s=%s", settings.domain, settings.selector)
    return made


def dns_record(config: Config) -> tuple[str, str]:
    """The TXT record that publishes the key's public half: its name and its text."""
    try:
        private = dkim_crypto.parse_pem_private_key(_key(config))
    except dkim_crypto.UnparsableKeyError as err:
        raise ConfigError(f"{config.origin('dkim.key_file')}: dkim.key_file is not an RSA "
                          f"key in PEM: {err}") from None
    rsa = _der(0x30, _integer(private["modulus"]) + _integer(private["publicExponent"]))
    spki = _der(0x30, _der(0x30, _der(0x06, RSA_OID) + _der(0x05, b""))
                + _der(0x03, b"\x00" + rsa))
    settings = config.dkim
    return (f"{settings.selector}._domainkey.{settings.domain}",
            "v=DKIM1; k=rsa; p=" + base64.b64encode(spki).decode("ascii"))


def _key(config: Config) -> bytes:
    path = config.path(config.dkim.key_file)
    try:
        return path.read_bytes()
    except OSError as err:
        raise ConfigError(f"{config.origin('dkim.key_file')}: cannot read dkim.key_file "
                          f"{path}: {err.strerror}") from None


def _der(tag: int, body: bytes) -> bytes:
    """One DER element (X.690): tag, definite length, contents."""
    size = len(body)
    if size < 0x80:
        return bytes([tag, size]) + body
    length = size.to_bytes((size.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(length)]) + length + body


def _integer(value: int) -> bytes:
    body = value.to_bytes(value.bit_length() // 8 + 1, "big")  # a leading 0: never negative
    return _der(0x02, body)
