"""Intake shared by every way mail comes in (SMTP, LMTP, IMAP): readers that check a mail in
threads of their own, and the one writer thread that stores mails with group commits."""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

from pbm.clock import SYSTEM, Clock
from pbm.config import Config
from pbm.mail import authenticity
from pbm.mail.housekeeping import tick
from pbm.mail.receive import Prepared, check_ahead, prepare, receive_batch
from pbm.mail.screen import Refusal, too_complex

log = logging.getLogger(__name__)
T = TypeVar("T")


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
