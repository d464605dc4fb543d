"""A real `pbm serve` delivering through relays that are down, flap, hang, are strict, refuse
or defer, and a courier killed mid-batch: every reply arrives, once (or at most one
duplicate per kill through a relay), and SIGTERM stays quick."""

from __future__ import annotations

import os
import re
import signal
import smtplib
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest

from tests.mail.sinks import Flapping, Sink, free_port, relay, silent_relay, strict
from tests.server.harness import SERVER_ADDRESS, PbmServer, mail

pytestmark = pytest.mark.server

ALICE = "alice@players.test"
BOB = "bob@players.test"
OUR_NAME = re.compile(r"^\d+\.\d{10,}-[0-9a-f]{16}\.pbm$")


def wait_for(condition: Callable[[], object], timeout: float = 30.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what or condition}")


@contextmanager
def serving(folder: Path, relay_port: int | None, **delivery) -> Iterator[PbmServer]:
    """`pbm serve` with quick retries, delivering through the relay at `relay_port` (or
    into the Maildir when None)."""
    settings = {"retry_seconds": 1, "max_retry_seconds": 2, "timeout_seconds": 2, **delivery}
    extra = f'relay = "smtp://127.0.0.1:{relay_port}"\n' if relay_port else ""
    extra += "".join(f"{key} = {value}\n" for key, value in settings.items())
    pbm = PbmServer(folder, extra_config=extra)
    pbm.start()
    try:
        yield pbm
    finally:
        pbm.stop()


def outbox(pbm: PbmServer) -> list[tuple]:
    """(id, status, attempts, recipient, last_error, Message-ID) of every outbox row."""
    with sqlite3.connect(pbm.database) as db:
        rows = db.execute("select id, status, attempts, recipient, last_error, raw "
                          "from outbox order by id").fetchall()
    return [(*row[:5], _message_id(row[5])) for row in rows]


def _message_id(raw: bytes) -> str:
    found = re.search(rb"^Message-ID:\s*(\S+)", raw, re.M | re.I)
    return found.group(1).decode() if found else ""


def send_many(pbm: PbmServer, mails: list[tuple[str, bytes]]) -> None:
    """Mail them over one connection, as a busy MTA would."""
    with smtplib.SMTP("127.0.0.1", pbm.port, timeout=30) as smtp:
        for sender, raw in mails:
            smtp.sendmail(sender, [SERVER_ADDRESS], raw)


def helps(count: int) -> list[tuple[str, bytes]]:
    """`count` players asking for help: one answer each."""
    return [(f"p{i}@players.test", mail(f"p{i}@players.test", "help")) for i in range(count)]


def parse(content: bytes) -> EmailMessage:
    return BytesParser(policy=policy.default).parsebytes(content)  # type: ignore[return-value]


# ----- down, flapping, hung ---------------------------------------------------------------
def test_a_relay_down_then_up_gets_everything_once_in_order(tmp_path: Path):
    port = free_port()  # nothing listens there yet
    with serving(tmp_path, port) as pbm:
        send_many(pbm, helps(12))
        wait_for(lambda: len(outbox(pbm)) == 12 and all(
            row[4] and "cannot be reached" in row[4] for row in outbox(pbm)),
            what="all replies waiting with the relay's error")
        assert {row[1] for row in outbox(pbm)} == {"pending"}
        sink = Sink()
        with relay(sink, port=port):
            wait_for(lambda: len(sink.delivered) >= 12, what="delivery once the relay is up")
            time.sleep(1.5)  # nothing more comes
        rows = outbox(pbm)
        assert [row[1] for row in rows] == ["sent"] * 12
        by_id = {row[5]: row[0] for row in rows}
        delivered = [by_id[message_id] for message_id in sink.message_ids()]
        assert delivered == sorted(by_id.values())  # each once, in the order of ids
        log = pbm.log.read_text()
        assert re.search(r"WARNING relay 127\.0\.0\.1:\d+ cannot be reached: .*"
                         r"\d+ repl(y|ies) wait; next try in \d+s", log)
        assert re.search(r"INFO relay 127\.0\.0\.1:\d+ is reachable again", log)


def test_a_flapping_relay_gets_everything_exactly_once(tmp_path: Path):
    # Behind the flapping front, the relay also says 421 (closing) to every fifth mail.
    sink = Sink(on_data=lambda envelope: "421 4.3.2 shutting down"
                if sink.attempts % 5 == 0 else None)
    with relay(sink) as port:
        front = Flapping(port)
        try:
            with serving(tmp_path, front.port, max_retry_seconds=1) as pbm:
                for start in range(0, 20, 5):
                    send_many(pbm, helps(20)[start:start + 5])
                    time.sleep(0.5)
                wait_for(lambda: len(set(sink.message_ids())) >= 20, timeout=60,
                         what="all 20 replies through the flapping relay")
                time.sleep(1.5)
                rows = outbox(pbm)
        finally:
            front.close()
    assert front.dropped >= 2 and front.passed >= 2
    assert sorted(sink.message_ids()) == sorted(row[5] for row in rows)  # each exactly once
    assert all(row[1] == "sent" for row in rows)


def test_a_relay_that_never_greets_does_not_cost_every_mail_a_timeout(tmp_path: Path):
    with silent_relay() as hung, serving(tmp_path, hung.port, timeout_seconds=1,
                                         retry_seconds=1, max_retry_seconds=2) as pbm:
        send_many(pbm, helps(5))
        wait_for(lambda: len(hung.connections) >= 3, timeout=30, what="three probes")
        times = [at for at, _ in hung.connections]
        # One connection per round, and between rounds the 1 s timeout plus the breaker's
        # wait (1 s, then 2 s): without the breaker the five mails would connect and wait
        # one after the other, 1 s apart.
        gaps = [later - earlier for earlier, later in zip(times, times[1:])]
        assert all(gap >= 1.8 for gap in gaps), (gaps, pbm.log.read_text())
        assert re.search(r"WARNING relay .* cannot be reached: .*timed out.*; 5 replies wait",
                         pbm.log.read_text()), pbm.log.read_text()
        # SIGTERM while the courier is stuck waiting for a greeting: it stops at once.
        seen = len(hung.connections)
        wait_for(lambda: len(hung.connections) > seen, timeout=10, what="the next probe")
        time.sleep(0.3)
        process = pbm.process
        assert process is not None
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)
        took = time.monotonic() - started
        pbm.process = None
        assert took < 3.0, (f"SIGTERM took {took:.1f}s", pbm.log.read_text())
        assert process.returncode == 0, pbm.log.read_text()
        rows = outbox(pbm)
        assert [(row[1], row[2]) for row in rows] == [("pending", 0)] * 5, rows
        with sqlite3.connect(pbm.database) as db:
            assert db.execute("select count(*) from outbox where claimed_by is not null"
                              ).fetchone()[0] == 0
    print(f"SIGTERM with a hung relay took {took:.2f}s")


# ----- what the relay says about a mail ----------------------------------------------------
def test_a_strict_relay_takes_long_comments_and_hostile_message_ids(tmp_path: Path):
    sink = Sink(on_data=strict)
    with relay(sink) as port, serving(tmp_path, port) as pbm:
        pbm.send(ALICE, "signup alice secret")
        pbm.send(BOB, "signup bob hunter2")
        comment = "Good luck! " + "x" * 5000
        pbm.send_raw(ALICE, mail(ALICE, "trou challenge alice bob", comment + "\n"))
        # A Message-ID of 980 characters, folded onto its own line as a mailer would.
        huge = "<" + "h" * 966 + "@players.test>"
        pbm.send_raw(BOB, (f"From: {BOB}\r\nTo: {SERVER_ADDRESS}\r\nSubject: help\r\n"
                           f"Message-ID:\r\n {huge}\r\nReferences:\r\n {huge}\r\n\r\n"
                           "\r\n").encode())
        wait_for(lambda: len(sink.delivered) >= 5, what="five replies")
        wait_for(lambda: all(row[1] == "sent" for row in outbox(pbm)), what="the records")
        time.sleep(0.5)
        assert len(sink.delivered) == 5
    board = next(parse(m.content) for m in sink.delivered
                 if m.recipient == BOB and b"Trou Board 101" in m.content)
    text = board.get_body(("plain",)).get_content()
    assert " ".join(comment.split()) in " ".join(text.split())  # its lines fitted to 76
    answer = parse(sink.delivered[-1].content)
    assert answer["Subject"] and answer["In-Reply-To"] is None
    for delivered in sink.delivered:
        assert max(len(line) for line in delivered.content.split(b"\r\n")) <= 998


def test_a_relay_that_defers_then_accepts(tmp_path: Path):
    tries: dict[str, int] = {}

    def greylist(address: str) -> str | None:
        tries[address] = tries.get(address, 0) + 1
        return "451 4.7.1 greylisted, try again" if address == ALICE and \
            tries[address] <= 2 else None

    sink = Sink(on_rcpt=greylist)
    with relay(sink) as port, serving(tmp_path, port) as pbm:
        pbm.send(ALICE, "help")
        pbm.send(BOB, "help")
        wait_for(lambda: len(sink.delivered) == 2, what="both answers")
        # The relay has them; the server records that right after.
        wait_for(lambda: all(row[1] == "sent" for row in outbox(pbm)), what="the records")
        rows = {row[3]: row for row in outbox(pbm)}
    assert [m.recipient for m in sink.delivered] == [BOB, ALICE]  # bob's did not wait
    assert rows[ALICE][1:3] == ("sent", 3) and rows[BOB][1:3] == ("sent", 1)
    assert tries[ALICE] == 3


def test_a_relay_that_refuses_one_recipient_delivers_the_others(tmp_path: Path):
    sink = Sink(on_rcpt=lambda a: "550 5.1.1 <bob@players.test>: no such user"
                if a == BOB else None)
    with relay(sink) as port, serving(tmp_path, port) as pbm:
        for sender in (ALICE, BOB, "carol@players.test"):
            pbm.send(sender, "help")
        wait_for(lambda: {row[1] for row in outbox(pbm)} == {"sent", "failed"}
                 and len(outbox(pbm)) == 3 and len(sink.delivered) == 2, what="outcomes")
        rows = {row[3]: row for row in outbox(pbm)}
        listing = os.popen(f"cd {tmp_path} && {_pbm()} --config pbm.toml outbox").read()
    assert [m.recipient for m in sink.delivered] == [ALICE, "carol@players.test"]
    assert rows[BOB][1] == "failed" and "550 5.1.1" in rows[BOB][4]
    assert "failed" in listing and BOB in listing and "550 5.1.1" in listing


def test_a_non_ascii_recipient_through_a_relay_that_offers_smtputf8(tmp_path: Path):
    sink = Sink()
    with relay(sink, enable_SMTPUTF8=True) as port, serving(tmp_path, port) as pbm:
        pbm.send(ALICE, "signup alice secret")
        # jörg@example.org is named, not written from: it gets its confirmation request.
        pbm.send("jorg@players.test", "signup jorg secret jörg@example.org")
        wait_for(lambda: len(sink.delivered) == 3, what="the welcomes and the request")
        wait_for(lambda: all(row[1] == "sent" for row in outbox(pbm)), what="the records")
    jorg = next(m for m in sink.delivered if m.recipient == "jörg@example.org")
    assert parse(jorg.content)["Subject"] == "pbm: please confirm this address"
    assert "SMTPUTF8" in jorg.mail_options
    assert parse(jorg.content)["To"] == "jörg@example.org"


def _pbm() -> str:
    import sys

    return f"{sys.executable} -m pbm"


# ----- kill -9 in the middle of a batch -----------------------------------------------------
def _kill(pbm: PbmServer) -> None:
    process = pbm.process
    assert process is not None
    process.send_signal(signal.SIGKILL)
    process.wait()  # reaped: its pid is gone, as after a crash
    pbm.process = None


def _claimed(pbm: PbmServer) -> int:
    with sqlite3.connect(pbm.database) as db:
        return db.execute("select count(*) from outbox where status = 'sending'").fetchone()[0]


def test_kill_9_mid_batch_through_a_relay_costs_at_most_one_duplicate(tmp_path: Path):
    count = 60
    sink = Sink(delay=0.05)  # a slow relay: the batch takes seconds
    with relay(sink) as port:
        with serving(tmp_path, port) as pbm:
            send_many(pbm, helps(count))
            wait_for(lambda: len(sink.delivered) >= 15, what="delivery under way")
            _kill(pbm)
            in_flight = _claimed(pbm)
            before = len(sink.delivered)
            assert 0 < before < count and in_flight > 0  # it died holding a batch
            pbm.start()
            wait_for(lambda: len(set(sink.message_ids())) == count, timeout=60,
                     what="every reply")
            time.sleep(1.0)
            rows = outbox(pbm)
    ids = sink.message_ids()
    duplicates = len(ids) - len(set(ids))
    print(f"relay: killed with {in_flight} claimed, {before} delivered; "
          f"{duplicates} duplicate(s)")
    assert duplicates <= 1
    assert sorted(set(ids)) == sorted(row[5] for row in rows)
    assert all(row[1] == "sent" for row in rows)


def test_kill_9_mid_batch_into_the_maildir_costs_no_duplicate(tmp_path: Path):
    count = 300
    for attempt in range(5):
        folder = tmp_path / f"run{attempt}"
        folder.mkdir()
        with serving(folder, None) as pbm:
            new = pbm.maildir / "new"
            send_many(pbm, helps(count))
            # Kill as soon as the courier is writing a batch: some files are in new/,
            # their rows not yet recorded.
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                written = len(os.listdir(new)) if new.exists() else 0
                if 0 < written < count and _claimed(pbm):
                    break
            _kill(pbm)
            in_flight, written = _claimed(pbm), len(os.listdir(new))
            if not in_flight or written == count:
                continue  # the kill fell between rounds: try again
            pbm.start()
            wait_for(lambda: len(os.listdir(new)) >= count and not _claimed(pbm)
                     and all(row[1] == "sent" for row in outbox(pbm)), timeout=60,
                     what="every reply")
            time.sleep(1.0)
            names = os.listdir(new)
            message_ids = [_message_id((new / name).read_bytes()) for name in names]
            rows = outbox(pbm)
            leftovers = [name for name in os.listdir(pbm.maildir / "tmp")
                         if OUR_NAME.match(name)]
        print(f"maildir: killed with {in_flight} claimed, {written} written; "
              f"{len(names) - len(set(message_ids))} duplicate(s)")
        assert len(names) == count and len(set(message_ids)) == count  # none twice
        assert sorted(message_ids) == sorted(row[5] for row in rows)
        assert leftovers == []
        return
    pytest.fail("never managed to kill the courier in the middle of a batch")
