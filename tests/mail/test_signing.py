"""DKIM: what pbm signs verifies with dkimpy's verifier against the record `pbm dkim record`
says to publish, in a fresh process; a changed mail does not."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import dkim
import pytest

from pbm.config import ConfigError, load
from pbm.mail.signing import signer

MAIL = (b"From: pbm@games.example.org\r\nTo: alice@players.test\r\nSubject: Trou Board 101 bob"
        b"\r\nMessage-ID: <1@games.example.org>\r\n\r\nIt is bob's turn.\r\n")


@pytest.fixture
def settings(tmp_path: Path) -> Path:
    subprocess.run(["openssl", "genrsa", "-out", str(tmp_path / "dkim.key"), "2048"],
                   check=True, capture_output=True)
    file = tmp_path / "pbm.toml"
    file.write_text('[dkim]\ndomain = "games.example.org"\nselector = "pbm2026"\n'
                    'key_file = "dkim.key"\n')
    return file


def published(settings: Path) -> tuple[str, bytes]:
    shown = subprocess.run([sys.executable, "-m", "pbm", "--config", str(settings), "dkim",
                            "record"], capture_output=True, text=True, check=True).stdout
    name, rest = shown.split(". IN TXT ", 1)
    return name, "".join(re.findall(r'"([^"]*)"', rest.splitlines()[0])).encode()


def test_a_signed_mail_verifies_against_the_published_record(settings: Path):
    name, record = published(settings)
    assert name == "pbm2026._domainkey.games.example.org"
    assert record.startswith(b"v=DKIM1; k=rsa; p=")

    def dns(query: bytes, timeout: int = 5) -> bytes | None:
        return record if query == (name + ".").encode() else None

    made = signer(load(settings, env={}))
    assert made is not None
    signed = made.sign(MAIL)
    assert signed.startswith(b"DKIM-Signature:") and signed.endswith(MAIL)
    assert dkim.verify(signed, dnsfunc=dns)
    assert not dkim.verify(signed.replace(b"bob's turn", b"eve's turn"), dnsfunc=dns)
    assert not dkim.verify(signed.replace(b"Board 101", b"Board 102"), dnsfunc=dns)


def test_a_key_that_cannot_sign_stops_the_start(settings: Path):
    (settings.parent / "dkim.key").write_text("-----BEGIN RSA PRIVATE KEY-----\nAAAA\n"
                                              "-----END RSA PRIVATE KEY-----\n")
    with pytest.raises(ConfigError, match="does not sign"):
        signer(load(settings, env={}))
    (settings.parent / "dkim.key").unlink()
    with pytest.raises(ConfigError, match="cannot read dkim.key_file"):
        signer(load(settings, env={}))
