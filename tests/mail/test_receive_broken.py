"""Broken mail: whatever bytes arrive are stored once, handled, and answered sensibly."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from pbm.config import load
from pbm.db.migrate import upgrade
from pbm.db.models import InboundMessage, OutboxMail
from pbm.db.session import make_engine, session_factory
from pbm.mail.receive import Received, receive
from pbm.mail.screen import Refusal
from tests import stores


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    folder: Path = tmp_path_factory.mktemp("broken")
    config = load(None, env={"PBM_DATABASE_URL": stores.url(folder / "pbm.sqlite", migrated=True,
                                                               lasting=True)})
    engine = make_engine(config.database_url)
    upgrade(engine)
    return config, session_factory(engine)


NASTY = [
    b"",
    b"\x00\xff\xfe garbage with no headers at all",
    b"Subject: =?utf-8?B?!!!not base64?=\r\nFrom: a@b.example\r\n\r\nhelp\r\n",
    b"From: a@b.example\r\nSubject: help\r\nContent-Type: text/plain; charset=x-unknown-7\r\n"
    b"\r\n\xe9\xe8 caf\xe9\r\n",
    b"From: a@b.example\r\nSubject: hi\r\nMIME-Version: 1.0\r\n"
    b"Content-Type: multipart/mixed; boundary=zz\r\n\r\n--zz\r\n"
    b"Content-Type: application/octet-stream\r\n\r\n\x00\x01\x02\r\n--zz--\r\n",
    b"From: a@b.example\r\nSubject: hi\r\nMIME-Version: 1.0\r\n"
    b"Content-Type: multipart/alternative; boundary=\"unterminated\r\n\r\nhelp\r\n",
    b"From: <>\r\nSubject: help\r\n\r\n",
    b"From: a@b.example\r\nSubject: multiple\r\n\r\n" + b"help\r\n" * 5000,
    b"From: a@b.example\r\nSubject: " + b"x" * 16000 + b"\r\n\r\nbody\r\n",
]
# Outside the limits for reading a mail: refused before anything is stored.
REFUSED = [
    b"From: a@b.example\r\nSubject: " + b"x" * 20000 + b"\r\n\r\nbody\r\n",
    b"From: " + b"\r\n ".join([b"=?utf-8?q?a?="] * 20000) + b"\r\nSubject: help\r\n\r\n",
    b"".join(b"X-Filler-%d: y\r\n" % i for i in range(1000)) + b"Subject: help\r\n\r\n",
]


@pytest.mark.parametrize("raw", NASTY)
def test_broken_mail_is_stored_handled_and_never_raises(store, raw):
    config, factory = store
    result, queued = receive(factory, config, raw, "")
    assert result is Received.STORED
    with factory() as session:
        record = session.scalars(
            select(InboundMessage).order_by(InboundMessage.id.desc()).limit(1)
        ).one()
        assert record.raw == raw
        assert record.status in ("done", "ignored"), record.error
        assert len(queued) <= 1  # one answer, however many commands the mail held
        for mail in session.scalars(select(OutboxMail).where(OutboxMail.id.in_(queued))):
            assert b"Auto-Submitted: auto-replied" in mail.raw


@pytest.mark.parametrize("raw", REFUSED)
def test_mail_outside_the_limits_is_refused_and_not_stored(store, raw):
    config, factory = store
    with factory() as session:
        before = session.scalar(select(func.count()).select_from(InboundMessage))
    with pytest.raises(Refusal) as refused:
        receive(factory, config, raw, "")
    assert refused.value.code in (552, 554)
    with factory() as session:
        assert session.scalar(select(func.count()).select_from(InboundMessage)) == before


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=400) | st.text(max_size=300).map(lambda t: t.encode("utf-8")))
def test_any_bytes_are_stored_once_and_handled(store, raw):
    config, factory = store
    first, _ = receive(factory, config, raw, "someone@example.org")
    again, queued = receive(factory, config, raw, "someone@example.org")
    assert again is Received.DUPLICATE and queued == []
    if first is Received.STORED:
        with factory() as session:
            record = session.scalars(
                select(InboundMessage).order_by(InboundMessage.id.desc()).limit(1)
            ).one()
            assert record.status in ("done", "ignored"), record.error
