"""One housekeeping step end to end: due seats in batches, each batch with its nag and
forfeit mails committed to the outbox in one transaction. `pbm serve` runs it every
`time.tick_seconds`, `pbm tick` once."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.orm import Session, sessionmaker

from pbm.boards.housekeeping import BATCH, Report, housekeep
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
                              time=config.time, now=now)
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
    return total, ids
