"""The courier against real SMTP sinks, a real Maildir and a real migrated SQLite file."""

from __future__ import annotations

import logging
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import replace
from datetime import timedelta
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest
from sqlalchemy import select

from pbm.config import Config, DeliverySettings, ServerSettings
from pbm.context import Reply
from pbm.db.migrate import upgrade
from pbm.db.models import OutboxMail, utcnow
from pbm.db.session import make_engine, session_factory
from pbm.mail.compose import compose
from pbm.mail.delivery import Courier, Handoff, deliver_pending
from pbm.mail.maildir import Maildir
from pbm.mail.outbox import LEASE, courier_name
from tests import stores
from tests.mail.sinks import Sink, free_port, relay, silent_relay, strict

SERVER = ServerSettings(address="pbm@games.test", hostname="games.test", name="pbm")


class Store:
    """A migrated database, settings, and ways to fill and read the outbox."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.path = folder / "pbm.sqlite"
        engine = make_engine(stores.url(self.path, migrated=True))
        upgrade(engine)
        self.factory = session_factory(engine)

    def config(self, relay: str = "", **delivery) -> Config:
        settings = DeliverySettings(relay=relay, maildir="maildir", retry_seconds=10,
                                    max_retry_seconds=25, timeout_seconds=5)
        return Config(server=SERVER, delivery=replace(settings, **delivery),
                      base_dir=self.folder)

    def queue(self, recipient: str, subject: str = "Trou Board 101", body: str = "board\n",
              *, age: timedelta = timedelta(0)) -> int:
        raw = compose(Reply((recipient,), subject, body, "board"), recipient, SERVER)
        with self.factory() as session, session.begin():
            mail = OutboxMail(recipient=recipient, subject=subject, raw=raw,
                              created_at=utcnow() - age)
            session.add(mail)
            session.flush()
            return mail.id

    def rows(self) -> dict[int, OutboxMail]:
        with self.factory() as session:
            return {mail.id: mail for mail in session.scalars(
                select(OutboxMail).order_by(OutboxMail.id))}

    def sql(self, statement: str, *args) -> None:
        """Run `statement` behind pbm's back, its ? filled with `args` in order."""
        with stores.sql(self.path) as db:
            db.execute(statement, args)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path)


def smtp_url(port: int) -> str:
    return f"smtp://127.0.0.1:{port}"


# ----- through a relay --------------------------------------------------------------------
def test_each_mail_is_delivered_once_and_recorded(store: Store):
    ids = [store.queue(f"p{i}@players.test") for i in range(3)]
    sink = Sink()
    with relay(sink) as port:
        sent, undelivered = deliver_pending(store.factory, store.config(smtp_url(port)))
    assert (sent, undelivered) == (3, 0)
    assert [mail.recipient for mail in sink.delivered] == [f"p{i}@players.test" for i in range(3)]
    for ident, mail in store.rows().items():
        assert ident in ids
        assert (mail.status, mail.attempts, mail.claimed_by, mail.last_error) == \
            ("sent", 1, None, None)
    # What the relay got is exactly what was stored: CRLF throughout.
    assert sink.delivered[0].content.replace(b"\r\n", b"").count(b"\n") == 0


def test_a_recipient_refused_for_good_fails_alone(store: Store):
    for name in ("alice", "bob", "carol"):
        store.queue(f"{name}@players.test")
    sink = Sink(on_rcpt=lambda a: "550 5.1.1 no such user" if a.startswith("bob") else None)
    with relay(sink) as port:
        assert deliver_pending(store.factory, store.config(smtp_url(port))) == (2, 1)
    rows = list(store.rows().values())
    assert [m.status for m in rows] == ["sent", "failed", "sent"]
    assert "550 5.1.1 no such user" in rows[1].last_error
    assert [m.recipient for m in sink.delivered] == ["alice@players.test", "carol@players.test"]


def test_a_temporary_refusal_backs_off_doubling_up_to_the_cap(store: Store):
    ident = store.queue("alice@players.test")
    other = store.queue("bob@players.test")
    sink = Sink(on_rcpt=lambda a: "451 4.7.1 greylisted" if a.startswith("alice") else None)
    config = store.config(relay="", retry_seconds=10, max_retry_seconds=25)
    delays = []
    with relay(sink) as port:
        config = replace(config, delivery=replace(config.delivery, relay=smtp_url(port)))
        for _ in range(4):
            before = utcnow()
            Courier(store.factory, config).deliver()
            mail = store.rows()[ident]
            delays.append(round((mail.next_attempt_at - before).total_seconds()))
            store.sql("update outbox set next_attempt_at = ? where id = ?",
                      str(utcnow() - timedelta(seconds=1)), ident)
    assert delays == [10, 20, 25, 25]
    mail = store.rows()[ident]
    assert (mail.status, mail.attempts) == ("pending", 4)
    assert "451 4.7.1 greylisted" in mail.last_error
    assert store.rows()[other].status == "sent"
    assert [m.recipient for m in sink.delivered] == ["bob@players.test"]


def test_gives_up_after_give_up_days(store: Store, caplog):
    old = store.queue("alice@players.test", age=timedelta(days=6))
    young = store.queue("bob@players.test", age=timedelta(days=4))
    sink = Sink(on_data=lambda envelope: "452 4.3.1 mailbox full")
    with relay(sink) as port, caplog.at_level(logging.ERROR):
        deliver_pending(store.factory, store.config(smtp_url(port), give_up_days=5))
    rows = store.rows()
    assert rows[old].status == "failed"
    assert "gave up" in rows[old].last_error and "452 4.3.1" in rows[old].last_error
    assert rows[young].status == "pending"
    assert any(r.levelno == logging.ERROR and "alice@players.test" in r.getMessage()
               for r in caplog.records)


def test_a_refusal_of_the_mails_form_is_our_bug_kept_failed_for_the_operator(store: Store,
                                                                           caplog):
    good = store.queue("alice@players.test", body="x" * 5000 + "\n")
    with store.factory() as session, session.begin():
        # What pbm used to store: bare LF line endings.
        bad = OutboxMail(recipient="bob@players.test", subject="old", raw=(
            b"From: pbm@games.test\nTo: bob@players.test\nSubject: old\n\nboard\n"))
        session.add(bad)
    sink = Sink(on_data=strict)
    with relay(sink) as port, caplog.at_level(logging.ERROR):
        assert deliver_pending(store.factory, store.config(smtp_url(port))) == (1, 1)
    rows = store.rows()
    assert rows[good].status == "sent"
    failed = rows[bad.id]
    assert failed.status == "failed"
    assert "554 5.6.0" in failed.last_error and "bug in pbm" in failed.last_error
    assert any(r.levelno == logging.ERROR and "bug in pbm" in r.getMessage()
               for r in caplog.records)


def test_aiosmtpd_line_too_long_without_an_enhanced_code_counts_as_our_bug(store: Store):
    with store.factory() as session, session.begin():
        session.add(OutboxMail(recipient="bob@players.test", subject="old",
                               raw=b"Subject: old\r\n\r\n" + b"y" * 5000 + b"\r\n"))
    with relay(Sink()) as port:  # aiosmtpd itself answers "500 Line too long"
        deliver_pending(store.factory, store.config(smtp_url(port)))
    (mail,) = store.rows().values()
    assert mail.status == "failed"
    assert "Line too long" in mail.last_error and "bug in pbm" in mail.last_error


def test_non_ascii_recipient_through_a_relay_that_offers_smtputf8(store: Store):
    store.queue("jörg@example.org")
    store.queue("alice@players.test")
    sink = Sink()
    with relay(sink, enable_SMTPUTF8=True) as port:
        assert deliver_pending(store.factory, store.config(smtp_url(port))) == (2, 0)
    jorg, alice = sink.delivered
    assert jorg.recipient == "jörg@example.org"
    assert "SMTPUTF8" in jorg.mail_options
    assert "To: jörg@example.org\r\n".encode() in jorg.content
    assert "SMTPUTF8" not in alice.mail_options  # only where it is needed


def test_without_smtputf8_a_domain_goes_as_idna_and_a_local_part_fails_alone(store: Store):
    jorg = store.queue("jörg@example.org")
    store.queue("bob@exämple.org")
    store.queue("alice@players.test")
    sink = Sink()
    with relay(sink) as port:  # aiosmtpd offers no SMTPUTF8 unless told to
        assert deliver_pending(store.factory, store.config(smtp_url(port))) == (2, 1)
    bob, alice = sink.delivered
    assert bob.recipient == "bob@xn--exmple-cua.org"
    assert b"\r\nTo: bob@xn--exmple-cua.org\r\n" in bob.content
    assert bob.content.isascii()
    assert alice.recipient == "alice@players.test"
    failed = store.rows()[jorg]
    assert failed.status == "failed"
    assert "does not offer SMTPUTF8, needed for jörg@example.org" in failed.last_error


def test_a_recipient_that_is_not_a_plain_address_fails_alone(store: Store):
    store.queue("alice@players.test")
    with store.factory() as session, session.begin():
        raw = compose(Reply(("x",), "s", "b"), "evil@x.test", SERVER)
        # smtplib would let parseaddr pick an address out of this: victim@y.test.
        evil = OutboxMail(recipient="evil@x.test\r\nRCPT TO:<victim@y.test>", subject="s",
                          raw=raw)
        session.add(evil)
    store.queue("carol@players.test")
    sink = Sink()
    with relay(sink) as port:
        assert deliver_pending(store.factory, store.config(smtp_url(port))) == (2, 1)
    assert [m.recipient for m in sink.delivered] == ["alice@players.test", "carol@players.test"]
    failed = store.rows()[evil.id]
    assert failed.status == "failed" and "not a plain mail address" in failed.last_error


def _queue_text_raw(store: Store) -> int:
    """A row written by hand with the sqlite3 shell: its raw is TEXT, not bytes, which
    nothing in delivery expects."""
    store.sql("insert into outbox (recipient, subject, raw, status, attempts, next_attempt_at,"
              " created_at, maybe_sent) values ('bob@players.test', 'by hand', "
              "'Subject: Grüße' || char(13, 10, 13, 10) || 'hi', 'pending', 0, ?, ?, 0)",
              str(utcnow()), str(utcnow()))
    return max(store.rows())


@pytest.mark.sqlite_only("a row typed by hand in the sqlite3 shell: TEXT in a BLOB column")
@pytest.mark.parametrize("through", ["relay", "maildir"])
def test_a_mail_that_breaks_the_courier_is_recorded_and_the_others_go(store: Store, caplog,
                                                                     through: str):
    store.queue("alice@players.test")
    odd = _queue_text_raw(store)
    store.queue("carol@players.test")
    sink = Sink()
    with relay(sink) as port, caplog.at_level(logging.ERROR):
        config = store.config(smtp_url(port) if through == "relay" else "")
        assert deliver_pending(store.factory, config) == (2, 1)
    rows = store.rows()
    assert [m.status for m in rows.values()] == ["sent", "failed", "sent"]
    assert "internal error" in rows[odd].last_error
    assert any(r.exc_info for r in caplog.records)  # logged with its traceback
    if through == "relay":
        assert [m.recipient for m in sink.delivered] == ["alice@players.test",
                                                         "carol@players.test"]
    else:
        assert len(os.listdir(config.maildir_path / "new")) == 2


# ----- a relay that is down or hangs: the breaker -------------------------------------------
def test_a_relay_that_is_down_ends_the_round_and_the_breaker_waits(store: Store, caplog):
    ids = [store.queue(f"p{i}@players.test") for i in range(3)]
    port = free_port()
    config = store.config(smtp_url(port), retry_seconds=1, max_retry_seconds=4)
    courier = Courier(store.factory, config, serving=True)
    with caplog.at_level(logging.INFO):
        down = courier.round()
    assert down.relay_down and down.held == 3 and down.sent == 0
    for mail in store.rows().values():
        # Not tried, not charged, due as before; the reason is there for `pbm outbox`.
        assert (mail.status, mail.attempts) == ("pending", 0)
        assert "cannot be reached" in mail.last_error
        assert mail.next_attempt_at <= utcnow()
    warning = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warning) == 1
    assert f"127.0.0.1:{port}" in warning[0].getMessage()
    assert "3 replies wait" in warning[0].getMessage()
    assert "next try in 1s" in warning[0].getMessage()

    sink = Sink()
    with relay(sink, port=port):
        assert courier.round().relay_down  # the breaker: no try before the delay is over
        assert courier.deliver(ids).relay_down  # mails handed over by id (`pbm serve`) too
        assert sink.delivered == []
        time.sleep(1.1)
        caplog.clear()
        with caplog.at_level(logging.INFO):
            assert courier.deliver().sent == 3
    assert [m.recipient for m in sink.delivered] == [f"p{i}@players.test" for i in range(3)]
    assert any("reachable again" in r.getMessage() and r.levelno == logging.INFO
               for r in caplog.records)
    assert all(store.rows()[i].status == "sent" for i in ids)


def test_the_breaker_doubles_its_wait_up_to_the_cap(store: Store):
    store.queue("alice@players.test")
    config = store.config(smtp_url(free_port()), retry_seconds=1, max_retry_seconds=3)
    courier = Courier(store.factory, config, serving=True)
    waits = []
    for _ in range(4):
        assert courier.round().relay_down
        waits.append(courier.breaker.delay)
        courier.breaker.until = 0  # as if the wait were over
    assert waits == [1, 2, 3, 3]


def test_a_relay_that_never_greets_costs_one_timeout_per_round(store: Store):
    for i in range(5):
        store.queue(f"p{i}@players.test")
    with silent_relay() as hung:
        config = store.config(smtp_url(hung.port), timeout_seconds=1)
        started = time.monotonic()
        done = Courier(store.factory, config).deliver()
        took = time.monotonic() - started
    assert done.relay_down and done.held == 5
    assert 0.9 < took < 2.5  # one timeout, not five
    assert len(hung.connections) == 1
    assert all(m.status == "pending" and m.attempts == 0 for m in store.rows().values())


def test_abort_cuts_a_courier_waiting_for_a_greeting_at_once(store: Store):
    store.queue("alice@players.test")
    with silent_relay() as hung:
        courier = Courier(store.factory, store.config(smtp_url(hung.port), timeout_seconds=30))
        result = {}
        worker = threading.Thread(target=lambda: result.update(done=courier.deliver()))
        worker.start()
        while not hung.connections:
            time.sleep(0.01)
        started = time.monotonic()
        courier.abort()
        worker.join(5)
        assert not worker.is_alive()
        assert time.monotonic() - started < 1
    (mail,) = store.rows().values()
    assert (mail.status, mail.claimed_by, mail.attempts) == ("pending", None, 0)


def test_flush_tries_a_relay_the_breaker_keeps_off_and_mail_waiting_for_a_retry(store: Store):
    store.queue("alice@players.test")
    waiting = store.queue("bob@players.test")
    store.sql("update outbox set next_attempt_at = ?, attempts = 3 where id = ?",
              str(utcnow() + timedelta(hours=1)), waiting)
    port = free_port()
    courier = Courier(store.factory, store.config(smtp_url(port), retry_seconds=600))
    assert courier.round().relay_down
    sink = Sink()
    with relay(sink, port=port):
        assert courier.round().relay_down  # still waiting
        done = courier.flush()
    assert done.sent == 2
    assert sorted(m.recipient for m in sink.delivered) == ["alice@players.test",
                                                           "bob@players.test"]


# ----- claims ---------------------------------------------------------------------------
def test_two_couriers_never_send_one_mail_twice(store: Store):
    count = 300
    for i in range(count):
        store.queue(f"p{i}@players.test")
    sink = Sink()
    with relay(sink) as port:
        config = store.config(smtp_url(port))
        couriers = [Courier(store.factory, config, me=f"test:{n}") for n in range(3)]
        # ... and a `pbm process` delivering "its" replies meanwhile.
        workers = [threading.Thread(target=c.deliver) for c in couriers]
        workers.append(threading.Thread(
            target=deliver_pending, args=(store.factory, config, list(range(1, 60)))))
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(60)
    ids = sink.message_ids()
    assert len(ids) == count and len(set(ids)) == count
    assert all(m.status == "sent" and m.attempts == 1 for m in store.rows().values())


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_dead_couriers_batch_is_taken_back(store: Store):
    host = socket.gethostname()
    now = utcnow()
    dead = store.queue("dead@players.test")
    stale = store.queue("stale@players.test")
    elsewhere = store.queue("elsewhere@players.test")
    mine = store.queue("mine@players.test")
    claims = {
        dead: (f"{host}:{_dead_pid()}", now),  # this host, process gone
        stale: ("otherhost:42", now - LEASE - timedelta(minutes=1)),  # lease over
        elsewhere: ("otherhost:42", now),  # may well be working: left alone
        mine: (courier_name(), now),  # this process's own round: left alone ...
    }
    for ident, (owner, at) in claims.items():
        store.sql("update outbox set status = 'sending', claimed_by = ?, claimed_at = ? "
                  "where id = ?", owner, str(at), ident)
    sink = Sink()
    with relay(sink) as port:
        courier = Courier(store.factory, store.config(smtp_url(port)))
        courier.deliver()
        assert sorted(m.recipient for m in sink.delivered) == ["dead@players.test",
                                                               "stale@players.test"]
        rows = store.rows()
        assert rows[dead].maybe_sent and rows[stale].maybe_sent
        assert rows[elsewhere].status == rows[mine].status == "sending"
        # ... unless this process is just starting: then that claim is a predecessor's
        # that had the same pid.
        courier.recover()
        courier.deliver()
    assert sink.delivered[-1].recipient == "mine@players.test"
    assert store.rows()[elsewhere].status == "sending"


def test_a_slow_round_renews_its_claims_before_the_lease_runs_out(store: Store):
    for i in range(3):
        store.queue(f"p{i}@players.test")
    config = store.config(smtp_url(free_port()))
    slow = Courier(store.factory, config, me="otherhost:7")  # on another host
    claimed = slow.outbox.claim(utcnow(), 10)
    store.sql("update outbox set claimed_at = ?", str(utcnow() - LEASE + timedelta(seconds=5)))
    slow.outbox.renew(claimed[1:], utcnow())  # the first one it has already recorded
    time.sleep(0.1)
    later = utcnow() + timedelta(seconds=10)  # the lease of the unrenewed claim is over
    other = Courier(store.factory, config)
    other.outbox.take_back(other.outbox.look(later).claims, later)
    assert [m.status for m in store.rows().values()] == ["pending", "sending", "sending"]


# ----- into the Maildir -------------------------------------------------------------------
def test_maildir_files_are_named_per_mail_with_lf_endings(store: Store):
    store.queue("alice@players.test", body="x" * 2000 + "\nzwei Zeilen\n")
    config = store.config()
    assert deliver_pending(store.factory, config) == (1, 0)
    box = config.maildir_path
    (name,) = os.listdir(box / "new")
    assert ":" not in name and "/" not in name
    mail = store.rows()[1]
    assert name == Maildir.name_for(mail.id, mail.created_at, mail.raw)
    data = (box / "new" / name).read_bytes()
    assert b"\r" not in data
    assert data == mail.raw.replace(b"\r\n", b"\n")
    parsed = BytesParser(policy=policy.default).parsebytes(data)
    assert parsed.get_content() == "x" * 2000 + "\nzwei Zeilen\n"
    assert os.listdir(box / "tmp") == []


def test_maildir_skips_mail_a_dead_courier_already_delivered(store: Store):
    config = store.config()
    box = Maildir(config.maildir_path)
    box.make()
    ids = [store.queue(f"p{i}@players.test") for i in range(4)]
    rows = store.rows()
    names = {i: Maildir.name_for(i, rows[i].created_at, rows[i].raw) for i in ids}
    # The dead courier had written mail 1 (still in new/) and mail 2 (a reader has since
    # moved it to cur/ and flagged it seen); mail 3 was claimed but not written.
    (box.new / names[ids[0]]).write_bytes(b"written before the crash")
    (box.cur / f"{names[ids[1]]}:2,S").write_bytes(b"written before the crash")
    (box.tmp / names[ids[2]]).write_bytes(b"half")  # killed while writing
    for ident in ids[:3]:
        store.sql("update outbox set status = 'sending', claimed_by = ?, claimed_at = ? "
                  "where id = ?", f"{socket.gethostname()}:{_dead_pid()}", str(utcnow()),
                  ident)
    courier = Courier(store.factory, config)
    courier.recover()
    assert os.listdir(box.tmp) == []
    assert courier.deliver().sent == 4
    assert sorted(os.listdir(box.new)) == sorted(names[i] for i in (ids[0], ids[2], ids[3]))
    assert (box.new / names[ids[0]]).read_bytes() == b"written before the crash"
    assert os.listdir(box.cur) == [f"{names[ids[1]]}:2,S"]
    assert all(m.status == "sent" for m in store.rows().values())


def test_tmp_cleanup_removes_only_our_own_names(store: Store):
    config = store.config()
    box = Maildir(config.maildir_path)
    box.make()
    (box.tmp / "1796035014.0000000007-0123456789abcdef.pbm").write_bytes(b"ours")
    (box.tmp / "1796035014.M12P34Q5.otherhost").write_bytes(b"another program's")
    Courier(store.factory, config).recover()
    assert os.listdir(box.tmp) == ["1796035014.M12P34Q5.otherhost"]


def test_a_mail_the_maildir_cannot_take_waits_and_the_others_go(store: Store):
    config = store.config()
    ids = [store.queue(f"p{i}@players.test") for i in range(3)]
    rows = store.rows()
    box = Maildir(config.maildir_path)
    box.make()
    # Something in the way of exactly one name: the rename fails for that mail only.
    (box.new / Maildir.name_for(ids[1], rows[ids[1]].created_at, rows[ids[1]].raw)).mkdir()
    assert deliver_pending(store.factory, config) == (2, 1)
    rows = store.rows()
    assert [rows[i].status for i in ids] == ["sent", "pending", "sent"]
    assert "cannot write to the Maildir" in rows[ids[1]].last_error
    assert rows[ids[1]].next_attempt_at > utcnow()


# ----- the idle poll ----------------------------------------------------------------------
@pytest.mark.sqlite_only("SQLite's one write lock; a PostgreSQL reader never waits for one")
def test_the_idle_poll_and_outbox_listing_take_no_write_lock(store: Store):
    config = store.config()
    store.queue("alice@players.test")
    deliver_pending(store.factory, config)
    writer = sqlite3.connect(store.path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        started = time.monotonic()
        courier = Courier(store.factory, config)
        assert courier.round().claimed == 0
        assert time.monotonic() - started < 1  # not the 10 s busy timeout
    finally:
        writer.rollback()
        writer.close()


# ----- `pbm serve`: the writer hands its courier what it committed -------------------------
def test_the_courier_takes_handed_over_ids_and_looks_once_per_interval_however_busy():
    now = [100.0]
    handoff = Handoff(1.0, clock=lambda: now[0])
    assert handoff.take() == ([], True)  # the first round looks at the whole outbox
    handoff.committed([1, 2])
    handoff.committed([3])
    assert handoff.wait() is True
    assert handoff.take() == ([1, 2, 3], False)  # delivered by id, without a look
    assert handoff.take() == ([], False)
    now[0] += 0.6
    handoff.committed([4])
    assert handoff.take() == ([4], False)
    now[0] += 0.4  # a writer handing mail over all the time does not keep the look away
    handoff.committed([5])
    assert handoff.take() == ([5], True)
    now[0] += 1.0  # idle: the wait ends when it is time to look, with nothing handed over
    assert handoff.wait() is False
    assert handoff.take() == ([], True)
    # The writer's thread wakes a courier waiting for the next look.
    threading.Timer(0.05, handoff.committed, args=([6],)).start()
    assert handoff.wait() is True
    assert handoff.take() == ([6], False)


def test_mail_handed_over_by_id_is_delivered_into_the_maildir_once(store: Store):
    config = store.config()
    courier = Courier(store.factory, config, serving=True)
    first = [store.queue(f"p{i}@players.test") for i in range(2)]
    assert courier.deliver(first).sent == 2
    later = [store.queue(f"q{i}@players.test") for i in range(2)]
    # Handed over twice (a full round took them meanwhile): written once, recorded once.
    assert courier.deliver().sent == 2
    assert courier.deliver(later).sent == 0
    assert len(os.listdir(config.maildir_path / "new")) == 4
    assert all((m.status, m.attempts) == ("sent", 1) for m in store.rows().values())
