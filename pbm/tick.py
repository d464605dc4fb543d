"""One housekeeping step end to end: due seats in batches, each batch with its nag and
forfeit mails committed to the outbox in one transaction."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session, sessionmaker

from pbm.boards.housekeeping import BATCH, Report, housekeep
from pbm.config import Config
from pbm.db import locks
from pbm.db.locks import Guarded
from pbm.mail.receive import queue

MOST_BATCHES = 1000  # a bound on one step: what is left waits for the next


def tick(factory: sessionmaker[Session], config: Config, now: datetime,
         *, dry_run: bool = False) -> tuple[Report, list[int]]:
    """Run housekeeping as of `now`; the report and the outbox ids of the mails it queued.

    With `dry_run`, nothing is kept: the report says what would have happened. On several
    nodes, a node that finds another at it skips the step (each batch holds the lock)."""
    total, ids = Report(), []
    for _ in range(MOST_BATCHES):
        with factory() as session:
            session.begin()
            try:
                if not locks.try_hold(session, Guarded.HOUSEKEEPING):
                    # Another node is at it: this one's round is skipped, not run twice.
                    break
                report = housekeep(session, config, now)
                if not dry_run:
                    ids += queue(session, config, report.replies, None, None)
                    session.commit()
            finally:
                session.rollback()  # after a commit: nothing left to undo
        total.nagged += report.nagged
        total.forfeited += report.forfeited
        total.declined += report.declined
        total.replies += report.replies
        # Every seat looked at has acted or been scheduled past `now`; a dry run
        # undid that, so it sees only the first batch.
        if dry_run or report.looked < BATCH:
            break
    return total, ids
