"""The front door: an SMTP or LMTP listener that stores each mail before saying 250."""

from __future__ import annotations

import asyncio
import logging
import signal
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, Session as SmtpSession

from pbm.config import Config
from pbm.mail.delivery import deliver_pending
from pbm.mail.receive import Received, receive

log = logging.getLogger(__name__)
DELIVERY_POLL_SECONDS = 1.0  # also how soon a retry that has come due goes out


class InboundHandler:
    """aiosmtpd handler: store and handle the mail in a worker thread, then answer."""

    def __init__(self, factory, config: Config, executor: ThreadPoolExecutor,
                 stored: Callable[[], None]):
        self.factory = factory
        self.config = config
        self.executor = executor
        self.stored = stored

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: SMTP, session: SmtpSession, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        envelope_from = envelope.mail_from or "<>"
        loop = asyncio.get_running_loop()
        try:
            result, _ids = await loop.run_in_executor(
                self.executor, receive, self.factory, self.config, raw, envelope_from
            )
        except Exception:
            log.exception("could not store a mail from %s", envelope_from)
            status = "451 4.3.0 The message could not be stored; please try again later"
        else:
            self.stored()
            if result is Received.DUPLICATE:
                status = "250 2.0.0 OK (this message was received before)"
            else:
                status = "250 2.0.0 OK stored"
        if isinstance(server, LMTP):
            # LMTP answers once per recipient; aiosmtpd pushes only what we return.
            for _ in envelope.rcpt_tos[1:]:
                await server.push(status)
        return status


class Server:
    """`pbm serve`: the listener plus the background courier for the outbox."""

    def __init__(self, config: Config, factory):
        self.config = config
        self.factory = factory
        self.receiver = ThreadPoolExecutor(1, thread_name_prefix="pbm-receive")
        self.courier = ThreadPoolExecutor(1, thread_name_prefix="pbm-deliver")
        self.wake = asyncio.Event()
        self.stopping = asyncio.Event()
        self.address: tuple[str, int] | None = None

    def _factory(self):
        settings = self.config.smtpd
        cls = LMTP if settings.protocol == "lmtp" else SMTP
        handler = InboundHandler(self.factory, self.config, self.receiver,
                                 lambda: self.wake.set())
        return cls(
            handler,
            data_size_limit=settings.max_message_bytes,
            hostname=self.config.server.hostname,
            ident="pbm",
            enable_SMTPUTF8=True,
            decode_data=False,
        )

    async def run(self, ready: Callable[[tuple[str, int]], None]) -> None:
        loop = asyncio.get_running_loop()
        settings = self.config.smtpd
        server = await loop.create_server(self._factory, host=settings.host, port=settings.port)
        host, port = server.sockets[0].getsockname()[:2]
        self.address = (host, port)
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.stopping.set)
        ready(self.address)
        courier = asyncio.create_task(self._deliver_forever())
        try:
            await self.stopping.wait()
        finally:
            server.close()
            await server.wait_closed()
            self.wake.set()
            courier.cancel()
            self.receiver.shutdown(wait=True)
            self.courier.shutdown(wait=True)

    async def _deliver_forever(self) -> None:
        loop = asyncio.get_running_loop()
        while not self.stopping.is_set():
            try:
                await asyncio.wait_for(self.wake.wait(), DELIVERY_POLL_SECONDS)
            except asyncio.TimeoutError:
                pass
            self.wake.clear()
            try:
                while True:
                    sent, failed = await loop.run_in_executor(
                        self.courier, deliver_pending, self.factory, self.config
                    )
                    if sent + failed == 0 or failed:
                        break
            except Exception:
                log.exception("delivery run failed; will retry")
