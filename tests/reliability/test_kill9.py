"""kill -9 of `pbm serve` under load, again and again: nothing accepted is lost, nothing is
applied twice, every reply is delivered, none twice into the Maildir and at most one per
kill through a relay.

Senders behave as MTAs do: a mail that was not answered 250 is sent again, with the same
Message-ID, until it is. The figures of a run are printed (pytest -s) and written to
`$PBM_RELIABILITY_REPORT` when that is set (docs/reliability.md quotes them).
"""

from __future__ import annotations

import json
import os
import random
import re
import smtplib
import socket
import sqlite3
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from pbm.bench.mail import PLAYERS, player_mail, workload
from tests.server.harness import SERVER_ADDRESS, PbmServer

pytestmark = pytest.mark.server

KILLS = int(os.environ.get("PBM_KILLS", "20"))
BOARDS = 8
MOVES_PER_BOARD = 60
SUBJECT = re.compile(rb"^Subject: loophole move (\d+) \S+ \S+ (\S+)\r?$", re.M)
MESSAGE_ID = re.compile(rb"^Message-ID:\s*(<[^>\r\n]+>)", re.M | re.I)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass(eq=False)
class Sender(threading.Thread):
    """Mails its stream in order; resends whatever was not answered 250."""

    server: PbmServer
    mails: list[tuple[str, bytes]]
    accepted: list[bytes] = field(default_factory=list)
    attempts: int = 0

    def __post_init__(self) -> None:
        threading.Thread.__init__(self, daemon=True)

    def run(self) -> None:
        smtp: smtplib.SMTP | None = None
        for sender, raw in self.mails:
            while True:
                self.attempts += 1
                try:
                    if smtp is None:
                        smtp = smtplib.SMTP("127.0.0.1", self.server.port, timeout=30)
                    smtp.sendmail(sender, [SERVER_ADDRESS], raw)
                    self.accepted.append(MESSAGE_ID.search(raw).group(1))
                    break
                except (OSError, smtplib.SMTPException):
                    smtp = None  # killed mid-conversation: connect again and resend
                    time.sleep(0.05)
        if smtp is not None:
            smtp.quit()


class Sink:
    """A relay that keeps every mail it is handed."""

    def __init__(self) -> None:
        self.received: list[bytes] = []

    async def handle_DATA(self, server, session, envelope):
        self.received.append(envelope.original_content)
        return "250 OK"


def message_ids(raws: list[bytes]) -> Counter:
    return Counter(MESSAGE_ID.search(raw).group(1) for raw in raws)


def maildir_messages(folder: Path) -> list[bytes]:
    return [path.read_bytes() for sub in ("new", "cur") if (folder / sub).is_dir()
            for path in sorted((folder / sub).iterdir())]


def wait_for_delivery(database: Path, seconds: float = 90) -> list[tuple[int, bytes, str]]:
    deadline = time.monotonic() + seconds
    while True:
        with sqlite3.connect(database) as db:
            rows = db.execute("SELECT id, raw, status FROM outbox").fetchall()
        if all(status == "sent" for _id, _raw, status in rows) or time.monotonic() > deadline:
            return rows
        time.sleep(0.2)


@pytest.mark.parametrize("route", ["maildir", "relay"])
def test_kill_9_under_load_loses_nothing_and_doubles_nothing(tmp_path: Path, route: str):
    port = free_port()
    sink = Sink()
    relay = None
    # Two players send every move, far over the default sender rate: lift it.
    server = PbmServer(tmp_path, extra_config="[limits]\nmails_per_sender_per_hour = 0\n")
    server.write_config()
    text = server.config_file.read_text().replace("port = 0", f"port = {port}")  # same port
    if route == "relay":
        relay = Controller(sink, hostname="127.0.0.1", port=free_port())
        relay.start()
        text = text.replace('maildir = "maildir"\n', 'maildir = "maildir"\n'
                            f'relay = "smtp://127.0.0.1:{relay.port}"\nretry_seconds = 1\n')
    server.config_file.write_text(text, encoding="utf-8")
    server.start()
    try:
        challenger = PLAYERS[0][2]
        setup = Sender(server, [(a, player_mail(a, f"signup {u} {p}")) for u, p, a in PLAYERS]
                       + [(challenger, player_mail(challenger, "loophole challenge alice bob"))
                          for _ in range(BOARDS)])
        setup.run()
        streams = workload(BOARDS, MOVES_PER_BOARD, seed=7, connections=2)
        senders = [Sender(server, stream) for stream in streams]
        for sender in senders:
            sender.start()
        rng = random.Random(9)
        kills = 0
        while kills < KILLS:
            time.sleep(rng.uniform(0.2, 0.9))
            server.kill()
            kills += 1
            server.start()
        for sender in senders:
            sender.join(timeout=300)
            assert not sender.is_alive()
        rows = wait_for_delivery(server.database)
    finally:
        server.stop()
        if relay is not None:
            relay.stop()

    # Every mail answered 250 is stored, exactly once; each move applied exactly once.
    accepted = [mid for s in [setup, *senders] for mid in s.accepted]
    with sqlite3.connect(server.database) as db:
        stored = Counter(key.encode() for (key,) in db.execute(
            "SELECT message_key FROM inbound_messages"))
        statuses = Counter(s for (s,) in db.execute("SELECT status FROM inbound_messages"))
        logs = {board: [n for (n,) in db.execute(
            "SELECT notation FROM moves WHERE board_id = ? ORDER BY number", (board,))]
            for board in range(101, 101 + BOARDS)}
    lost = [mid for mid in accepted if mid not in stored]
    assert lost == []
    assert max(stored.values()) == 1
    assert statuses == {"done": len(stored)}
    intended: dict[int, list[str]] = {}
    for stream in streams:
        for _sender, raw in stream:
            found = SUBJECT.search(raw)
            intended.setdefault(int(found.group(1)), []).append(found.group(2).decode())
    for board, moves in intended.items():
        assert [m.upper() for m in logs[board]] == [m.upper() for m in moves], board

    # Every reply delivered; none twice into the Maildir, at most one per kill by relay.
    assert {status for _id, _raw, status in rows} == {"sent"}
    delivered = maildir_messages(server.maildir) if route == "maildir" else sink.received
    counts = message_ids(delivered)
    expected = message_ids([raw for _id, raw, _status in rows])
    missing = set(expected) - set(counts)
    doubled = sum(n - 1 for n in counts.values())
    assert missing == set()
    assert set(counts) == set(expected)
    if route == "maildir":
        assert doubled == 0
        leftovers = list((server.maildir / "tmp").iterdir())
        assert leftovers == []
    else:
        assert doubled <= kills
    figures = {
        "route": route, "kills": kills, "mails_sent": sum(s.attempts for s in senders),
        "accepted": len(accepted), "stored": len(stored), "lost": len(lost),
        "moves_applied": sum(map(len, logs.values())), "replies": len(expected),
        "delivered": len(delivered), "doubled": doubled, "undelivered": len(missing),
    }
    print(json.dumps(figures))
    report = os.environ.get("PBM_RELIABILITY_REPORT")
    if report:
        with open(report, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"test": "kill9", **figures}) + "\n")
