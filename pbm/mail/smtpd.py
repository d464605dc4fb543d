"""The front door: an SMTP or LMTP listener that stores each mail before saying 250."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
import threading
from collections.abc import Callable
from datetime import datetime

from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope
from aiosmtpd.smtp import Session as SmtpSession

from pbm.clock import SYSTEM, Clock
from pbm.config import Config
from pbm.mail.botworker import BotWorker
from pbm.mail.delivery import Courier, Handoff
from pbm.mail.imap import MailboxIntake
from pbm.mail.intake import Reader, Receiver
from pbm.mail.receive import Received
from pbm.mail.screen import Refusal

log = logging.getLogger(__name__)
DELIVERY_POLL_SECONDS = 1.0  # also how soon a retry that has come due goes out
DELIVERY_GATHER_SECONDS = 0.2
DELIVERY_STOP_SECONDS = 3.0  # how long SIGTERM waits for the courier to put its mail back
SWITCH_SECONDS = 0.001


class InboundHandler:
    """aiosmtpd handler: read the mail, hand it to the writer thread; answer once it is
    committed (or refused: 5xx for mail outside the limits)."""

    def __init__(self, reader: Reader, receiver: Receiver):
        self.reader = reader
        self.receiver = receiver

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: SMTP, session: SmtpSession, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        envelope_from = envelope.mail_from or "<>"
        try:
            prepared = await self.reader.read(raw, envelope_from, _peer_host(session))
        except Refusal as refusal:
            log.info("refused a mail from %s: %s", envelope_from, refusal)
            return await self._answer(server, envelope, refusal.smtp_reply())
        outcome = await asyncio.wrap_future(self.receiver.submit(raw, envelope_from, prepared))
        if outcome is None:
            status = "451 4.3.0 The message could not be stored; please try again later"
        else:
            if outcome[0] is Received.DUPLICATE:
                status = "250 2.0.0 OK (this message was received before)"
            else:
                status = "250 2.0.0 OK stored"
        return await self._answer(server, envelope, status)

    @staticmethod
    async def _answer(server: SMTP, envelope: Envelope, status: str) -> str:
        if isinstance(server, LMTP):
            # LMTP answers once per recipient; aiosmtpd pushes only what we return.
            for _ in envelope.rcpt_tos[1:]:
                await server.push(status)
        return status


def _peer_host(session: SmtpSession) -> str:
    """The SMTP client's IP address ("" when not on IP, e.g. a Unix socket)."""
    peer = session.peer
    return str(peer[0]) if isinstance(peer, tuple) and peer else ""


class _TakingTurns:
    """A connection reads at most READ_TURN_BYTES in one turn of the event loop. aiosmtpd
    reads DATA a line at a time in Python, and asyncio hands a connection up to 256 KB at
    once: a mail of 150,000 short lines held every other connection for a fifth of a
    second at a time."""

    READ_TURN_BYTES = 16 * 1024

    def connection_made(self, transport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        if hasattr(transport, "max_size"):  # asyncio's socket transports: bytes per recv()
            transport.max_size = self.READ_TURN_BYTES


class TurnTakingSMTP(_TakingTurns, SMTP):
    pass


class TurnTakingLMTP(_TakingTurns, LMTP):
    pass


class Server:
    """`pbm serve`: the listener plus the background courier for the outbox."""

    def __init__(self, config: Config, factory, read_factory, clock: Clock = SYSTEM, *,
                 listen: bool = True, since: datetime | None = None):
        self.config = config
        self.listen = listen  # False: `pbm imap`, the mailbox alone
        self.factory = factory
        self.reader = Reader(read_factory, config)
        self.handoff = Handoff(DELIVERY_POLL_SECONDS)  # the writer's mails, for the courier
        self.bots: BotWorker | None = None
        self.receiver = Receiver(factory, config, clock, self._committed)
        if config.bots.games:
            self.bots = BotWorker(factory, read_factory, config, clock, self.receiver.run_job)
        self.courier = Courier(factory, config, serving=True)
        # A daemon thread, not an executor's: interpreter exit joins those, and a courier
        # stuck on a relay that never answers must not hold the process past SIGTERM.
        self.delivering = threading.Thread(target=self._deliver_forever, name="pbm-deliver",
                                           daemon=True)
        self.halt = threading.Event()  # set once: the courier stops
        self.stopping = asyncio.Event()
        self.address: tuple[str, int] | None = None
        self.mailbox = MailboxIntake(config, self.reader, self.receiver, since) \
            if config.imap.host else None

    def _committed(self, ids: list[int]) -> None:
        self.handoff.committed(ids)
        if self.bots is not None:
            self.bots.wake()  # a player's move may have made it a bot's turn

    def _factory(self):
        settings = self.config.smtpd
        cls = TurnTakingLMTP if settings.protocol == "lmtp" else TurnTakingSMTP
        handler = InboundHandler(self.reader, self.receiver)
        return cls(
            handler,
            data_size_limit=settings.max_message_bytes,
            hostname=self.config.server.hostname,
            ident="pbm",
            enable_SMTPUTF8=True,
            decode_data=False,
        )

    async def run(self, ready: Callable[[tuple[str, int] | None], None]) -> None:
        # A thread reading a large mail gives up the interpreter after 1 ms, not 5: each
        # step of a player's mail (the event loop, its reader, the writer) waits that long.
        sys.setswitchinterval(SWITCH_SECONDS)
        loop = asyncio.get_running_loop()
        settings = self.config.smtpd
        # Mail a courier of an earlier run held when it died goes back to the queue.
        self.courier.recover()
        server = None
        if self.listen:
            server = await loop.create_server(self._factory, host=settings.host,
                                              port=settings.port)
            host, port = server.sockets[0].getsockname()[:2]
            self.address = (host, port)
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.stopping.set)
        ready(self.address)
        self.delivering.start()
        if self.bots is not None:
            self.bots.start()
        reading = asyncio.ensure_future(self.mailbox.run(self.stopping)) \
            if self.mailbox is not None else None
        try:
            await self.stopping.wait()
        finally:
            # Stop taking mail, cut the courier short (what it was handing over stays
            # queued), let the writer finish what it holds, and only then close it. A
            # mail the mailbox reader was storing stays in the folder: read again at the
            # next start, it is known by its Message-ID and only moved.
            if server is not None:
                server.close()
                await server.wait_closed()
            if reading is not None:
                reading.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await reading
            self._stop_delivery()
            self.reader.stop()
            if self.bots is not None:
                self.bots.stop()  # before the writer: a bot's move in hand still goes in
            self.receiver.stop()

    def _stop_delivery(self) -> None:
        self.halt.set()
        self.courier.abort()
        self.handoff.wake()
        if self.delivering.is_alive():
            self.delivering.join(DELIVERY_STOP_SECONDS)
        if self.delivering.is_alive():
            log.warning("the courier did not stop within %ss; the mail it holds goes back "
                        "to the queue at the next start", DELIVERY_STOP_SECONDS)

    def _deliver_forever(self) -> None:
        while not self.halt.is_set():
            handed = self.handoff.wait()
            if self.halt.is_set():
                break
            if handed:
                # Let replies gather for a moment: under load one round (one transaction)
                # then serves many mails, and the writer keeps the disk to itself meanwhile.
                self.halt.wait(DELIVERY_GATHER_SECONDS)
            ids, look = self.handoff.take()
            try:
                if look:
                    self.courier.deliver()  # all that is due, the mails handed over too
                elif ids:
                    self.courier.deliver(ids)  # just committed: no need to look for them
            except Exception:
                log.exception("delivery round failed; will retry")
                self.halt.wait(DELIVERY_POLL_SECONDS)
