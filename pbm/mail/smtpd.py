"""The front door: an SMTP or LMTP listener that stores each mail before saying 250."""

from __future__ import annotations

import asyncio
import logging
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope
from aiosmtpd.smtp import Session as SmtpSession

from pbm.clock import SYSTEM, Clock
from pbm.config import Config
from pbm.mail import authenticity
from pbm.mail.botworker import BotWorker
from pbm.mail.delivery import Courier, Handoff
from pbm.mail.housekeeping import tick
from pbm.mail.receive import Prepared, Received, check_ahead, prepare, receive_batch
from pbm.mail.screen import Refusal, too_complex

log = logging.getLogger(__name__)
T = TypeVar("T")
DELIVERY_POLL_SECONDS = 1.0  # also how soon a retry that has come due goes out
DELIVERY_GATHER_SECONDS = 0.2
DELIVERY_STOP_SECONDS = 3.0  # how long SIGTERM waits for the courier to put its mail back
SWITCH_SECONDS = 0.001


@dataclass(frozen=True)
class _Job:
    run: Callable[[], list[int]]
    future: Future


class Receiver:
    """The one writer thread. It takes every mail waiting and stores them with one commit
    (group commit): under load, one fsync answers many connections at once. Between mails,
    every `time.tick_seconds`, it runs the housekeeping (nags, forfeits): being the writer,
    it never waits for its own lock."""

    MAX_BATCH = 64

    def __init__(self, factory, config: Config, clock: Clock = SYSTEM,
                 queued: Callable[[list[int]], None] = lambda ids: None):
        self.factory = factory
        self.config = config
        self.clock = clock
        self.queued = queued  # told the ids of the outbox mails each commit queued
        self.next_tick = time.monotonic()  # the first right away: catch up after a stop
        self.waiting: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._run, name="pbm-receive", daemon=True)
        self.thread.start()

    def submit(self, raw: bytes, envelope_from: str, prepared: Prepared | None) -> Future:
        future: Future = Future()
        self.waiting.put((raw, envelope_from, prepared, future))
        return future

    def run_job(self, job: Callable[[], list[int]]) -> Future:
        """Run `job` in the writer, between mails (a bot's move: it writes as a mail does);
        it returns the outbox ids of the mails it queued, for the courier."""
        future: Future = Future()
        self.waiting.put(_Job(job, future))
        return future

    def stop(self) -> None:
        self.waiting.put(None)
        self.thread.join()

    def _run(self) -> None:
        stopping = False
        while not stopping:
            try:
                first = self.waiting.get(timeout=max(0.0, self.next_tick - time.monotonic()))
            except queue.Empty:
                self._housekeep()
                continue
            if first is None:
                return
            if isinstance(first, _Job):
                self._run_job(first)
                continue
            batch, job = [first], None
            while len(batch) < self.MAX_BATCH:
                try:
                    item = self.waiting.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stopping = True
                    break
                if isinstance(item, _Job):
                    job = item  # after the mails before it: the writer keeps their order
                    break
                batch.append(item)
            results = receive_batch(self.factory, self.config,
                                    [(raw, sender, prepared) for raw, sender, prepared, _ in batch],
                                    self.clock)
            for (*_mail, future), result in zip(batch, results):
                future.set_result(result)
            queued = [ident for result in results if result is not None for ident in result[1]]
            if queued:
                self.queued(queued)
            if job is not None:
                self._run_job(job)
            if time.monotonic() >= self.next_tick:  # a busy server keeps its clock too
                self._housekeep()

    def _run_job(self, job: _Job) -> None:
        try:
            ids = job.run()
        except Exception as err:  # the job's caller logs it; the writer goes on
            job.future.set_exception(err)
            return
        job.future.set_result(ids)
        if ids:
            self.queued(ids)

    def _housekeep(self) -> None:
        self.next_tick = time.monotonic() + self.config.time.tick_seconds
        try:
            report, ids = tick(self.factory, self.config, self.clock.now())
        except Exception:
            log.exception("housekeeping failed; it runs again in %ss",
                          self.config.time.tick_seconds)
            return
        if ids:
            log.info("housekeeping: %s", str(report).replace("\n", ";"))
            self.queued(ids)


class Reader:
    """Reads mails, looks at their sender's rate and checks their passwords in threads of its
    own, before the writer: a slow or hostile mail costs a reader thread its time, never the
    writer.

    Mail over LARGE_BYTES is read on a thread of its own, one at a time: a player's mail is
    never queued behind a stranger's megabytes. Each read's time limit runs from when a
    thread starts on it (a turn is free only once its thread is), not from when it came."""

    THREADS = 2
    LARGE_BYTES = 64 * 1024
    LARGE_THREADS = 1

    def __init__(self, read_factory, config: Config):
        self.read_factory = read_factory
        self.limits = config.limits
        self.authserv_id = config.server.authserv_id
        self.relay_networks = config.smtpd.relay_networks
        self.pool = ThreadPoolExecutor(self.THREADS, thread_name_prefix="pbm-read")
        self.large_pool = ThreadPoolExecutor(self.LARGE_THREADS,
                                             thread_name_prefix="pbm-read-large")
        self.turns = asyncio.Semaphore(self.THREADS)
        self.large_turns = asyncio.Semaphore(self.LARGE_THREADS)

    async def read(self, raw: bytes, envelope_from: str, peer: str = "") -> Prepared | None:
        """The prepared mail; None when reading it hit a bug (the writer then stores it as
        failed, for the operator). Raises Refusal for mail outside the limits (5xx) or from a
        sender over the rate (451). `peer`: the address of the SMTP client."""
        large = len(raw) > self.LARGE_BYTES
        pool, turns = (self.large_pool, self.large_turns) if large else (self.pool, self.turns)
        seconds = self.limits.parse_seconds
        source = authenticity.source(peer, self.relay_networks)
        reading = await self._start(pool, turns, prepare, raw, envelope_from, self.limits,
                                    self.authserv_id, source)
        try:
            prepared = await asyncio.wait_for(asyncio.shield(reading), seconds)
        except TimeoutError:
            # The thread finishes on its own (the limits bound how long); nobody waits.
            raise too_complex(f"Message took longer than {seconds} s to read") from None
        except Refusal:
            raise
        except Exception:
            log.exception("reading a mail from %s failed", envelope_from)
            return None
        try:
            checking = await self._start(pool, turns, self._check_ahead, prepared)
            return await checking
        except Refusal:
            raise
        except Exception:
            log.exception("checking a mail ahead failed; the writer checks it")
            return prepared

    @staticmethod
    async def _start(pool: ThreadPoolExecutor, turns: asyncio.Semaphore,
                     work: Callable[..., T], *args) -> asyncio.Future[T]:
        """`work(*args)` started on a thread of `pool` once one is free. The turn is given
        back when the thread is done, not when the caller stops waiting (a read past its
        time): each pool has as many turns as threads, so started work never queues."""
        await turns.acquire()
        try:
            future = asyncio.get_running_loop().run_in_executor(pool, work, *args)
        except BaseException:
            turns.release()
            raise
        future.add_done_callback(lambda _done: turns.release())
        return future

    def _check_ahead(self, prepared: Prepared) -> Prepared:
        with self.read_factory() as session:
            return check_ahead(prepared, session, self.limits)

    def stop(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.large_pool.shutdown(wait=False, cancel_futures=True)


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

    def __init__(self, config: Config, factory, read_factory, clock: Clock = SYSTEM):
        self.config = config
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

    async def run(self, ready: Callable[[tuple[str, int]], None]) -> None:
        # A thread reading a large mail gives up the interpreter after 1 ms, not 5: each
        # step of a player's mail (the event loop, its reader, the writer) waits that long.
        sys.setswitchinterval(SWITCH_SECONDS)
        loop = asyncio.get_running_loop()
        settings = self.config.smtpd
        # Mail a courier of an earlier run held when it died goes back to the queue.
        self.courier.recover()
        server = await loop.create_server(self._factory, host=settings.host, port=settings.port)
        host, port = server.sockets[0].getsockname()[:2]
        self.address = (host, port)
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.stopping.set)
        ready(self.address)
        self.delivering.start()
        if self.bots is not None:
            self.bots.start()
        try:
            await self.stopping.wait()
        finally:
            # Stop taking mail, cut the courier short (what it was handing over stays
            # queued), let the writer finish what it holds, and only then close it.
            server.close()
            await server.wait_closed()
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
