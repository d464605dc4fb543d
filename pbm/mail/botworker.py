"""`pbm serve`'s bot worker: a thread that finds the boards where a bot is to move, has
the bot think in a process of its own (a search is Python and CPU-bound: in the server's
process it would hold up every mail), and hands the move to the writer like a mail.

It looks after each commit of the writer (a player's move may have made it a bot's turn)
and every POLL_SECONDS (a board a bot on another node left). Several nodes may think over
the same turn; the `#n` guard plays only the first move that reaches the database."""

from __future__ import annotations

import logging
import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor

from sqlalchemy.orm import Session, sessionmaker

from pbm.clock import Clock
from pbm.config import Config
from pbm.mail import botmoves
from pbm.mail.botmoves import Turn

log = logging.getLogger(__name__)

POLL_SECONDS = 5.0
GATHER_SECONDS = 0.5  # after a commit, before looking: a bot answers within about a second
SLACK_SECONDS = 30.0  # beyond think_seconds, before a thought that never ends is given up


class BotWorker:
    def __init__(self, factory: sessionmaker[Session], read_factory: sessionmaker[Session],
                 config: Config, clock: Clock,
                 run_in_writer: Callable[[Callable[[], list[int]]], Future]):
        self.factory = factory
        self.read_factory = read_factory
        self.config = config
        self.clock = clock
        self.run_in_writer = run_in_writer
        self.watch = botmoves.Watch()
        self.wakeup = threading.Event()
        self.halt = threading.Event()
        # Spawned, not forked: the server's process has threads (and their locks) that a
        # fork would copy in whatever state they were.
        self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        self.thread = threading.Thread(target=self._run, name="pbm-bots", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def wake(self, _ids: list[int] | None = None) -> None:
        self.wakeup.set()

    def stop(self) -> None:
        self.halt.set()
        self.wakeup.set()
        self.thread.join(SLACK_SECONDS)
        self.pool.shutdown(wait=False, cancel_futures=True)

    def _run(self) -> None:
        while not self.halt.is_set():
            self.wakeup.clear()
            try:
                self._round()
            except Exception:
                log.exception("bot round failed; it runs again in %ss", POLL_SECONDS)
            if self.wakeup.wait(POLL_SECONDS):
                # Commits come in bursts on a busy server: one look after a moment serves
                # them all, where a look at each would add a query to every mail.
                self.halt.wait(GATHER_SECONDS)

    def _round(self) -> None:
        """Every bot turn due now, one after another, until none is left."""
        while not self.halt.is_set():
            with self.read_factory() as session:
                turns = self.watch.due(session)
            if not turns:
                return
            for turn in turns:
                if self.halt.is_set():
                    return
                self._take(turn)

    def _take(self, turn: Turn) -> None:
        seconds = float(self.config.bots.think_seconds)
        try:
            text = self.pool.submit(botmoves.think, turn, seconds).result(
                seconds + SLACK_SECONDS)
        except Exception:
            log.exception("%s board %s: %s could not think of a move", turn.game,
                          turn.label, turn.userid)
            self.halt.wait(POLL_SECONDS)  # not in a tight loop: the next round tries again
            return
        job = self.run_in_writer(
            lambda: botmoves.play(self.factory, self.config, turn, text, self.clock.now()))
        job.result()
