"""One housekeeping step end to end: due seats in batches, each batch with its nag and
forfeit mails committed to the outbox in one transaction, then the waiting seekers paired
(with each other, or with a bot after `bots.seek_wait_hours`) and mailed in one more.
`pbm serve` runs it every `time.tick_seconds`, `pbm tick` once."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.orm import Session, sessionmaker

from pbm.boards.housekeeping import BATCH, Report, housekeep
from pbm.commands.pairing import Paired, pair_waiting
from pbm.config import Config
from pbm.context import Context, Reply
from pbm.db import locks
from pbm.db.locks import Guarded
from pbm.mail.receive import queue
from pbm.views.news import tell


@dataclass
class Done(Report):
    """What a housekeeping step did, and the mails it wrote (or would have, in a dry run)."""

    replies: list[Reply] = field(default_factory=list)
    paired: list[Paired] = field(default_factory=list)  # boards started for seekers

    def __str__(self) -> str:
        lines = [super().__str__()]
        if self.paired:
            lines[0] += f", {len(self.paired)} paired"
        lines += [f"  paired {' and '.join(paired.userids)} on {paired.title} board "
                  f"{paired.number}" for paired in self.paired]
        return "\n".join(lines)


MOST_BATCHES = 1000  # a bound on one step: what is left waits for the next


def tick(factory: sessionmaker[Session], config: Config, now: datetime,
         *, dry_run: bool = False) -> tuple[Done, list[int]]:
    """Run housekeeping as of `now`; the report and the outbox ids of the mails it queued.

    With `dry_run`, nothing is kept: the report says what would have happened. On several
    nodes, a node that finds another at it skips the step (each batch holds the lock)."""
    total, ids = Done(), []
    for _ in range(MOST_BATCHES):
        with factory() as session:
            session.begin()
            try:
                if not locks.try_hold(session, Guarded.HOUSEKEEPING):
                    # Another node is at it: this one's round is skipped, not run twice.
                    break
                ctx = Context(session, "", admin=True, limits=config.limits,
                              time=config.time, bots=config.bots, now=now,
                              web_base_url=config.web.base_url)
                report = housekeep(ctx)
                tell(ctx)
                if not dry_run:
                    ids += queue(session, config, ctx.replies, None, None)
                    session.commit()
            finally:
                session.rollback()  # after a commit: nothing left to undo
        total.nagged += report.nagged
        total.forfeited += report.forfeited
        total.declined += report.declined
        total.replies += ctx.replies
        # Every seat looked at has acted or been scheduled past `now`; a dry run
        # undid that, so it sees only the first batch.
        if dry_run or report.looked < BATCH:
            break
    else:
        return total, ids  # the seats took the whole step: the seekers wait for the next
    ids += _pair(factory, config, now, total, dry_run)
    return total, ids


def _pair(factory: sessionmaker[Session], config: Config, now: datetime, total: Done,
          dry_run: bool) -> list[int]:
    """The seekers' step, in a transaction of its own as a batch of seats is: the boards
    it starts and their mails are committed together, or neither is."""
    with factory() as session:
        session.begin()
        try:
            if not locks.try_hold(session, Guarded.HOUSEKEEPING):
                return []
            ctx = Context(session, "", admin=True, limits=config.limits, time=config.time,
                          bots=config.bots, now=now, web_base_url=config.web.base_url)
            total.paired += pair_waiting(ctx)
            tell(ctx)
            total.replies += ctx.replies
            if dry_run:
                return []
            ids = queue(session, config, ctx.replies, None, None)
            session.commit()
            return ids
        finally:
            session.rollback()
