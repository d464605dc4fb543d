"""Real SMTP relays for delivery tests: aiosmtpd sinks that accept, refuse or dawdle, and a
socket that accepts connections and never says a word."""

from __future__ import annotations

import asyncio
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from aiosmtpd.controller import Controller

MESSAGE_ID = re.compile(rb"^Message-ID:\s*(\S+)", re.M | re.I)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Delivered:
    recipient: str
    content: bytes
    mail_options: list[str]

    @property
    def message_id(self) -> str:
        found = MESSAGE_ID.search(self.content)
        return found.group(1).decode() if found else ""


@dataclass
class Sink:
    """An aiosmtpd handler that keeps what it accepts.

    `on_rcpt(address)` and `on_data(envelope)` may return an SMTP answer to refuse with;
    `delay` seconds pass before each DATA answer (a slow relay)."""

    on_rcpt: Callable[[str], str | None] | None = None
    on_data: Callable[[object], str | None] | None = None
    delay: float = 0.0
    delivered: list[Delivered] = field(default_factory=list)
    attempts: int = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.on_rcpt is not None:
            answer = self.on_rcpt(address)
            if answer:
                return answer
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        self.attempts += 1
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.on_data is not None:
            answer = self.on_data(envelope)
            if answer:
                return answer
        for recipient in envelope.rcpt_tos:
            self.delivered.append(Delivered(recipient, envelope.original_content,
                                            list(envelope.mail_options)))
        return "250 2.0.0 OK"

    def message_ids(self) -> list[str]:
        return [mail.message_id for mail in self.delivered]


def strict(envelope) -> str | None:
    """A relay that enforces RFC 5321/5322: no line over 998 bytes, no bare LF or CR."""
    content: bytes = envelope.original_content
    if b"\n" in content.replace(b"\r\n", b"") or b"\r" in content.replace(b"\r\n", b""):
        return "554 5.6.0 Message contains bare LF or CR"
    if any(len(line) > 998 for line in content.split(b"\r\n")):
        return "554 5.6.0 Message contains a line longer than 998 bytes"
    return None


@contextmanager
def relay(sink: Sink, port: int | None = None, **smtp_options) -> Iterator[int]:
    """Run `sink` as an SMTP server on 127.0.0.1; yields its port. Like most relays it
    offers no SMTPUTF8 unless asked (aiosmtpd's Controller would)."""
    port = port or free_port()
    smtp_options.setdefault("enable_SMTPUTF8", False)
    controller = Controller(sink, hostname="127.0.0.1", port=port, **smtp_options)
    controller.start()
    try:
        yield port
    finally:
        controller.stop()


class Silent:
    """A 'relay' that accepts TCP connections and never greets: a hung mail server."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.connections: list[tuple[float, socket.socket]] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.connections.append((time.monotonic(), conn))

    def close(self) -> None:
        try:
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept()
        except OSError:
            pass
        self.listener.close()
        for _, conn in self.connections:
            conn.close()


@contextmanager
def silent_relay() -> Iterator[Silent]:
    server = Silent()
    try:
        yield server
    finally:
        server.close()


class Flapping:
    """A relay that drops every other connection as soon as it is made and passes the rest
    through to a real one at `port`: a flapping link or an overloaded front."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.dropped = 0
        self.passed = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            if (self.dropped + self.passed) % 2 == 0:
                self.dropped += 1
                conn.close()
                continue
            self.passed += 1
            upstream = socket.create_connection(("127.0.0.1", self.target))
            for source, sink in ((conn, upstream), (upstream, conn)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        try:
            self.listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.listener.close()
