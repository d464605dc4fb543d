"""Bounces through the real receive path on a real SQLite file: marked, counted, stopped."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from sqlalchemy import select

from pbm.accounts.addresses import addresses_of
from pbm.clock import FixedClock
from pbm.config import load
from pbm.db.migrate import upgrade
from pbm.db.models import Address, InboundMessage, InboundStatus, OutboxMail, User
from pbm.db.session import make_engine, session_factory
from pbm.mail.receive import receive
from tests import stores
from tests.mail.bounce_formats import FORMATS, microsoft, postfix
from tests.server.harness import mail

ALICE, WORK, BOB = "alice@players.test", "alice@work.test", "bob@players.test"
START = datetime(2024, 7, 1, 10, 0)


@pytest.fixture
def store(tmp_path):
    config = load(None, env={"PBM_DATABASE_URL": stores.url(tmp_path / "pbm.sqlite", migrated=True),
                             "PBM_SERVER_ADDRESS": "pbm@games.test",
                             "PBM_SERVER_HOSTNAME": "games.test"})
    engine = make_engine(config.database_url)
    upgrade(engine)
    factory = session_factory(engine)
    with factory() as session, session.begin():
        session.add(User(userid="alice", password_hash="x",
                         addresses=[Address(position=0, address=ALICE),
                                    Address(position=1, address=WORK)]))
        session.add(User(userid="bob", password_hash="x",
                         addresses=[Address(position=0, address=BOB)]))
    return config, factory


def a_mail_to(store, address: str) -> str:
    """Have pbm answer a mail from `address`; the Message-ID of its answer."""
    config, factory = store
    _, (ident,) = receive(factory, config, mail(address, "help"), address)
    with factory() as session:
        raw = session.get(OutboxMail, ident).raw
    found = re.search(rb"^Message-ID: (<\S+>)", raw, re.M)
    assert found
    return found.group(1).decode()


def address_row(store, address: str) -> Address:
    with store[1]() as session:
        row = session.scalar(select(Address).where(Address.address == address))
        session.expunge(row)
        return row


def bounce(store, raw: bytes, at: datetime) -> tuple[InboundMessage, list[OutboxMail]]:
    config, factory = store
    _, ids = receive(factory, config, raw, "", clock=FixedClock(at))
    with factory() as session:
        record = session.scalars(select(InboundMessage).order_by(InboundMessage.id.desc())
                                 ).first()
        sent = [session.get(OutboxMail, i) for i in ids]
        session.expunge_all()
    return record, sent


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_each_format_marks_the_address_and_is_never_answered(store, name):
    message_id = a_mail_to(store, ALICE)
    record, sent = bounce(store, FORMATS[name](ALICE, message_id), START)
    assert record.status == InboundStatus.BOUNCE
    assert record.error == f"bounce: {ALICE}: bounce 1 of 3"
    assert sent == []
    row = address_row(store, ALICE)
    assert (row.bounces, row.last_bounce_at, row.stopped) == (1, START, False)
    assert address_row(store, WORK).bounces == 0


def test_three_bounces_on_three_days_stop_the_address_and_tell_the_others(store):
    message_id = a_mail_to(store, ALICE)
    bounce(store, postfix(ALICE, message_id), START)
    # The same outage bouncing more mails the same day counts once.
    again = a_mail_to(store, ALICE)
    record, _ = bounce(store, postfix(ALICE, again), START + timedelta(hours=3))
    assert "again within a day (1 of 3)" in (record.error or "")
    bounce(store, postfix(ALICE, a_mail_to(store, ALICE)), START + timedelta(days=1))
    record, sent = bounce(store, postfix(ALICE, a_mail_to(store, ALICE)),
                          START + timedelta(days=2))
    assert record.error == f"bounce: {ALICE}: bounce 3 of 3: mail to it stopped"
    assert [(m.recipient, m.subject) for m in sent] == [
        (WORK, f"pbm: mail to {ALICE} stopped")]
    words = b" ".join(sent[0].raw.split())  # the body's lines are wrapped to fit a mail
    assert b"came back undelivered 3 times" in words
    assert f"'change address alice PASSWORD {WORK} {ALICE}'".encode() in words
    assert address_row(store, ALICE).stopped
    with store[1]() as session:
        alice = session.scalar(select(User).where(User.userid == "alice"))
        assert addresses_of(alice) == (WORK,)
    # A further bounce tells nobody again.
    record, sent = bounce(store, postfix(ALICE, message_id), START + timedelta(days=3))
    assert sent == [] and "stopped already" in (record.error or "")


def test_the_notice_of_a_stopped_address_goes_to_no_unconfirmed_one(store):
    """An address named for an account but never confirmed may be anyone's: the notice, with
    the account's addresses in its Subject and text, is no mail for it."""
    config, factory = store
    pending = "carol@pending.test"
    with factory() as session, session.begin():
        session.add(User(userid="carol", password_hash="x",
                         addresses=[Address(position=0, address="carol@players.test"),
                                    Address(position=1, address=pending, confirmed=False)]))
    for day in range(3):
        record, sent = bounce(store, postfix("carol@players.test",
                                             a_mail_to(store, "carol@players.test")),
                              START + timedelta(days=day))
    assert record.error == "bounce: carol@players.test: bounce 3 of 3: mail to it stopped"
    assert sent == []


def test_a_bounce_a_month_after_the_last_starts_the_count_again(store):
    message_id = a_mail_to(store, BOB)
    bounce(store, postfix(BOB, message_id), START)
    bounce(store, postfix(BOB, message_id), START + timedelta(days=1))
    record, sent = bounce(store, postfix(BOB, message_id), START + timedelta(days=40))
    assert record.error == f"bounce: {BOB}: bounce 1 of 3"
    assert sent == []  # bob has no other address, and is not stopped


def test_bounces_that_count_for_nothing(store):
    ours_to_bob = a_mail_to(store, BOB)
    cases = [
        # An address nobody has: stored, noted, nothing else.
        (postfix("carol@players.test", ours_to_bob), "carol@players.test: not an address"),
        # A forged bounce: it quotes a mail of ours, but one to bob, not to alice.
        (postfix(ALICE, ours_to_bob), f"{ALICE}: quotes no mail we sent there"),
        # No Message-ID of ours at all.
        (postfix(ALICE, "<made-up@elsewhere.test>"), f"{ALICE}: quotes no mail we sent"),
    ]
    for raw, note in cases:
        record, sent = bounce(store, raw, START)
        assert record.status == InboundStatus.BOUNCE and note in (record.error or "")
        assert sent == []
    assert address_row(store, ALICE).bounces == 0


@pytest.mark.parametrize("action,status", [("delayed", "4.4.1"), ("delivered", "2.0.0")])
def test_a_delay_or_success_notice_is_no_bounce(store, action, status):
    message_id = a_mail_to(store, ALICE)
    record, sent = bounce(store, postfix(ALICE, message_id, action=action, status=status),
                          START)
    assert record.status == InboundStatus.IGNORED and sent == []
    assert address_row(store, ALICE).bounces == 0


def test_a_stopped_address_resumed_gets_mail_again(store):
    from pbm.mail.bounces import resume

    message_id = a_mail_to(store, BOB)
    for day in range(3):
        bounce(store, postfix(BOB, message_id), START + timedelta(days=day))
    assert address_row(store, BOB).stopped
    with store[1]() as session, session.begin():
        assert resume(session, "Bob@Players.test") == 1
        bob = session.scalar(select(User).where(User.userid == "bob"))
        assert addresses_of(bob) == (BOB,)
    row = address_row(store, BOB)
    assert (row.bounces, row.stopped, row.last_bounce_at) == (0, False, None)


def board_mails_of_a_strangers_challenge(store, comment: str) -> dict[str, OutboxMail]:
    """A stranger challenges alice and bob with `comment`: the board mails, by recipient."""
    config, factory = store
    stranger = "mallory@strangers.test"
    _, ids = receive(factory, config, mail(stranger, "trou challenge alice bob", comment),
                     stranger)
    with factory() as session:
        sent = {m.recipient: m for m in (session.get(OutboxMail, i) for i in ids) if m}
        session.expunge_all()
    assert comment.encode() in sent[BOB].raw  # the comment is in bob's board mail
    return sent


def test_an_id_in_a_board_mails_text_never_makes_a_forged_bounce_count(store):
    """Three reports from <> on three days quoting an id the stranger wrote into bob's board
    mail once stopped bob's mail: the old search looked at the mail's text too."""
    board_mails_of_a_strangers_challenge(store, "Message-ID: <forged.x1@games.test>")
    for day in range(3):
        record, sent = bounce(store, postfix(BOB, "<forged.x1@games.test>"),
                              START + timedelta(days=day))
        assert record.error == f"bounce: {BOB}: quotes no mail we sent there; not counted"
        assert sent == []
    row = address_row(store, BOB)
    assert (row.bounces, row.stopped) == (0, False)


def test_only_the_returned_originals_message_id_header_counts(store):
    """A report returning a whole mail: an id in its body is text, not its Message-ID."""
    ours_to_bob = a_mail_to(store, BOB)
    returned = microsoft(BOB, "<unknown.1@games.test>").replace(
        b"\r\nboard\r\n", f"\r\nMessage-ID: {ours_to_bob}\r\n".encode())
    assert ours_to_bob.encode() in returned
    record, _ = bounce(store, returned, START)
    assert record.error == f"bounce: {BOB}: quotes no mail we sent there; not counted"
    record, _ = bounce(store, microsoft(BOB, ours_to_bob), START)
    assert record.error == f"bounce: {BOB}: bounce 1 of 3"


def test_an_id_anyone_can_work_out_counts_for_nothing(store):
    """A board's first mail to a player carries an id made of the board and the address, so
    a stranger who started the board can write it into a forged report."""
    sent = board_mails_of_a_strangers_challenge(store, "good luck")
    derived = sent[BOB].message_id
    assert derived is not None and derived.startswith("<board.trou.101.")
    record, _ = bounce(store, postfix(BOB, derived), START)
    assert record.error == f"bounce: {BOB}: quotes no mail we sent there; not counted"


def test_a_huge_report_is_read_in_part(store):
    """Its notice, status and returned headers come first; megabytes after them are not
    read (the detectors once spent seconds of the writer's time on them)."""
    message_id = a_mail_to(store, ALICE)
    junk = b"".join(b"  address failed: <user%d@example.org>\r\n" % n for n in range(20_000))
    raw = postfix(ALICE, message_id).replace(b"--4WBv5S0Yz3z9rxL.1719828002/mx.games.test--",
                                             b"--4WBv5S0Yz3z9rxL.1719828002/mx.games.test\r\n"
                                             b"Content-Type: text/plain\r\n\r\n" + junk)
    assert len(raw) > 800_000
    record, _ = bounce(store, raw, START)
    assert record.error == f"bounce: {ALICE}: bounce 1 of 3"


def test_the_outbox_keeps_each_mails_message_id(store):
    message_id = a_mail_to(store, ALICE)
    with store[1]() as session:
        assert session.scalar(select(OutboxMail.message_id).where(
            OutboxMail.recipient == ALICE)) == message_id
