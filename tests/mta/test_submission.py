"""The relay link over STARTTLS (port 587 style) to a real aiosmtpd that requires STARTTLS
and AUTH: the certificate and its name are checked, the login goes only over TLS."""

from __future__ import annotations

import logging
import ssl
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from pbm.config import Relay
from pbm.mail.relay import RelayDown, RelayLink, warn_unchecked
from tests.mta import certs
from tests.mta.postfix import free_port

MAIL = b"From: pbm@games.test\r\nTo: alice@players.test\r\nSubject: hi\r\n\r\nhello\r\n"


class Submission:
    def __init__(self, tls: certs.Certificates):
        self.mails: list[bytes] = []
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(tls.cert, tls.key)
        self.controller = Controller(self, hostname="127.0.0.1", port=free_port(),
                                     tls_context=context, require_starttls=True,
                                     authenticator=self._authenticate, auth_required=True,
                                     auth_require_tls=True)

    @staticmethod
    def _authenticate(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and auth_data.login == b"games" \
            and auth_data.password == b"relay-secret"
        return AuthResult(success=ok, handled=False)

    async def handle_DATA(self, server, session, envelope):
        self.mails.append(envelope.original_content)
        return "250 2.0.0 OK"


@pytest.fixture(scope="module")
def tls(tmp_path_factory) -> certs.Certificates:
    return certs.make(tmp_path_factory.mktemp("certs"))


@pytest.fixture
def submission(tls) -> Iterator[Submission]:
    server = Submission(tls)
    server.controller.start()
    try:
        yield server
    finally:
        server.controller.stop()


def link(submission: Submission, ca: Path, **options) -> RelayLink:
    relay = Relay("127.0.0.1", submission.controller.port, "games", "relay-secret",
                  options.pop("tls", "starttls"), str(ca), **options)
    return RelayLink(relay, hostname="games.test", sender="pbm@games.test", timeout=10)


def test_starttls_with_a_checked_certificate_and_a_login(submission: Submission, tls):
    sending = link(submission, tls.ca)
    try:
        sending.send("alice@players.test", MAIL)
    finally:
        sending.close()
    assert submission.mails and submission.mails[0].endswith(b"hello\r\n")


def test_a_certificate_from_another_ca_is_refused(submission: Submission, tls):
    sending = link(submission, tls.stranger_ca)
    with pytest.raises(RelayDown, match="certificate that does not check out"):
        sending.send("alice@players.test", MAIL)
    assert not submission.mails


def test_unchecked_tls_goes_only_when_asked_and_is_logged(submission: Submission, tls,
                                                          caplog):
    sending = link(submission, tls.stranger_ca, verify=False)
    with caplog.at_level(logging.WARNING):
        warn_unchecked(sending.relay)
        sending.send("alice@players.test", MAIL)
        sending.close()
    assert len(submission.mails) == 1
    assert "does not check the relay's certificate" in caplog.text


def test_no_login_without_tls(submission: Submission, tls):
    sending = link(submission, tls.ca, tls="none")
    with pytest.raises(RelayDown, match="no login without TLS"):
        sending.send("alice@players.test", MAIL)
    assert not submission.mails
