"""The durable floor of `pbm bench mail`: the least an SMTP server that keeps its word does.

aiosmtpd; on DATA the raw mail goes into SQLite (WAL, synchronous=FULL) with a commit, then
two Maildir files of a board mail's size are written as pbm's Maildir writes them (a tmp/
file, its fsync, a rename into new/, and one fsync of new/ for both), and only then 250. The
work is done in the event loop, one mail at a time: the floor has no group commit, no reading
threads, no outbox, no game. Four fsyncs a mail: the commit, the two files, the folder.

Run by the bench as `python -m pbm.bench.floor FOLDER BYTES`; it prints the port it listens
on and its process id, and stops on SIGTERM.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import sqlite3
import sys
from pathlib import Path

from aiosmtpd.smtp import SMTP, Envelope

READY = "durable floor: listening on 127.0.0.1:{port} (pid {pid})"


class DurableHandler:
    """Store the mail with an fsync'd commit, write two Maildir files, then answer 250."""

    def __init__(self, folder: Path, board_mail_bytes: int):
        self.db = sqlite3.connect(folder / "floor.sqlite")
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("CREATE TABLE IF NOT EXISTS inbox (id INTEGER PRIMARY KEY, raw BLOB)")
        self.db.commit()
        self.maildir = folder / "floor-maildir"
        self.tmp, self.new = self.maildir / "tmp", self.maildir / "new"
        for part in (self.tmp, self.new):
            part.mkdir(parents=True, exist_ok=True)
        self.size = board_mail_bytes
        self.names = itertools.count()

    async def handle_DATA(self, server: SMTP, session: object, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        self.db.execute("INSERT INTO inbox (raw) VALUES (?)", (raw,))
        self.db.commit()
        body = (raw * (self.size // max(1, len(raw)) + 1))[:self.size]
        for _ in range(2):  # the two players' board mails
            name = f"{next(self.names)}.floor"
            fd = os.open(self.tmp / name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                data = memoryview(body)
                while data:
                    data = data[os.write(fd, data):]
                os.fsync(fd)
            finally:
                os.close(fd)
            os.rename(self.tmp / name, self.new / name)
        fd = os.open(self.new, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        return "250 2.0.0 OK stored"


async def serve(folder: Path, board_mail_bytes: int) -> None:
    handler = DurableHandler(folder, board_mail_bytes)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: SMTP(handler, hostname="bench.test", ident="floor", enable_SMTPUTF8=True),
        host="127.0.0.1", port=0)
    stopping = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stopping.set)
    print(READY.format(port=server.sockets[0].getsockname()[1], pid=os.getpid()), flush=True)
    try:
        await stopping.wait()
    finally:
        server.close()
        await server.wait_closed()
        handler.db.close()


if __name__ == "__main__":
    asyncio.run(serve(Path(sys.argv[1]), int(sys.argv[2])))
