"""The courier: deliver the outbox in rounds, through the relay or into the local Maildir."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import datetime, timedelta

from sqlalchemy.orm import Session, sessionmaker

from pbm.config import Config
from pbm.db.models import utcnow
from pbm.mail.maildir import Maildir
from pbm.mail.outbox import RENEW, Outbox, Parcel, courier_name
from pbm.mail.relay import (
    Breaker,
    Deferred,
    Malformed,
    Refused,
    RelayDown,
    RelayLink,
    warn_unchecked,
)
from pbm.mail.signing import signer

log = logging.getLogger(__name__)
BATCH = 200  # mails claimed at once: one claim and (into the Maildir) one record per round


@dataclass
class Round:
    """What delivery rounds did with the mails they claimed."""

    claimed: int = 0
    sent: int = 0
    deferred: int = 0  # a temporary refusal of that mail: it waits for its next attempt
    failed: int = 0  # refused for good, or given up: `pbm outbox retry` resends it
    held: int = 0  # not tried (the relay was down, or delivery stopping): due as before
    relay_down: bool = False

    @property
    def undelivered(self) -> int:
        return self.deferred + self.failed + self.held

    def add(self, other: Round) -> None:
        for field in fields(self):
            if field.name != "relay_down":
                setattr(self, field.name, getattr(self, field.name) + getattr(other, field.name))
        self.relay_down = self.relay_down or other.relay_down


class Handoff:
    """From `pbm serve`'s writer to its courier: the ids of the outbox mails it has committed.

    The courier delivers those by id, without looking for them; it looks at the whole
    outbox (retries come due, claims of a dead courier, mail other processes queued) once
    every `look_seconds` all the same, however busy the writer keeps it."""

    def __init__(self, look_seconds: float, clock: Callable[[], float] = time.monotonic):
        self.look_seconds = look_seconds
        self.clock = clock
        self._lock = threading.Lock()
        self._ids: list[int] = []
        self._ready = threading.Event()  # ids came, or the courier is woken to stop
        self._looked: float | None = None

    def committed(self, ids: list[int]) -> None:
        """The writer's word, after its commit, that these mails wait."""
        with self._lock:
            self._ids.extend(ids)
            self._ready.set()

    def wake(self) -> None:
        self._ready.set()

    def wait(self) -> bool:
        """Until ids come (True) or it is time to look (False). The first look, too, waits
        for a whole interval or the first mail handed over: a server started again and
        again (kill -9) does not spend each short life on the relay with the backlog,
        where a kill can cut off a mail the relay took before it was recorded."""
        left = self.look_seconds if self._looked is None else \
            self._looked + self.look_seconds - self.clock()
        return self._ready.wait(max(0.0, left))

    def take(self) -> tuple[list[int], bool]:
        """The ids handed over since the last take, and whether it is time to look."""
        with self._lock:
            ids, self._ids = self._ids, []
            self._ready.clear()
        now = self.clock()
        look = self._looked is None or now - self._looked >= self.look_seconds
        if look:
            self._looked = now
        return ids, look


class Courier:
    """Delivers due outbox mail: claims a batch, hands each mail over, records each outcome.

    One lives as long as `pbm serve` (it remembers whether the relay is down: the breaker);
    the command line makes one per run. Claims make it safe to run several at once."""

    def __init__(self, factory: sessionmaker[Session], config: Config, me: str | None = None,
                 *, serving: bool = False):
        self.config = config
        self.serving = serving  # lives on (`pbm serve`): it will try the relay again itself
        self.outbox = Outbox(factory, config.delivery, me or courier_name())
        settings = config.delivery
        self.link: RelayLink | None = None
        self.maildir: Maildir | None = None
        if settings.relay:
            relay = config.relay()
            if serving:
                warn_unchecked(relay)
            self.link = RelayLink(relay, hostname=config.server.hostname,
                                  sender=config.server.address,
                                  timeout=settings.timeout_seconds, sign=signer(config))
        else:
            self.maildir = Maildir(config.maildir_path)
        self.breaker = Breaker(settings.retry_seconds, settings.max_retry_seconds)
        self.stopping = False

    def recover(self) -> None:
        """Before the first round of a process: take back what dead couriers held, and
        remove our half-written files from the Maildir's tmp/."""
        now = utcnow()
        self.outbox.take_back(self.outbox.look(now).claims, now, starting=True)
        if self.maildir is not None:
            removed = self.maildir.clean_tmp()
            if removed:
                log.info("removed %d half-written mail(s) from %s", removed, self.maildir.tmp)

    def deliver(self, only: list[int] | None = None) -> Round:
        """Rounds until one finds less than a full batch due (or each of `only` was tried
        once), or the relay is down, or delivery is stopping."""
        total = Round()
        if only is not None:
            # Each of `only` is tried once: a mail the relay defers stays pending (whether due
            # or not), so claiming `only` again would try it again at once, for as long as
            # the relay answers 451 (greylisting): `pbm process` would never end.
            for start in range(0, len(only), BATCH):
                done = self.round(only[start:start + BATCH])
                total.add(done)
                if done.relay_down or self.stopping:
                    break
            return total
        while not self.stopping:
            done = self.round(only)
            total.add(done)
            # A claim takes every due mail up to a batch: short of one, nothing else was
            # due (mail queued since is handed to `pbm serve`'s courier), and another look
            # would find nothing.
            if done.claimed < BATCH or done.relay_down:
                break
        return total

    def flush(self) -> Round:
        """Everything pending, now: mail waiting for a retry too, and a relay the breaker
        keeps us off is tried again (`pbm outbox flush`)."""
        self.recover()
        self.outbox.make_due(utcnow())
        self.breaker.close(time.monotonic())
        return self.deliver()

    def abort(self) -> None:
        """Stop soon, from another thread: the mail being handed over is cut off (it stays
        pending, marked maybe_sent) and the rest of the round is put back."""
        self.stopping = True
        if self.link is not None:
            self.link.abort()

    def round(self, only: list[int] | None = None) -> Round:
        """One round: a glance, dead claims taken back, a batch claimed and delivered."""
        if self.stopping:
            return Round()
        now = utcnow()
        if self.link is not None and not self.breaker.allows(time.monotonic()):
            return Round(relay_down=True)  # mails handed over by id wait for the relay too
        if only is None:
            # A read-only glance first: the idle poll never takes the write lock.
            look = self.outbox.look(now)
            taken = self.outbox.take_back(look.claims, now) if look.claims else 0
            if not look.due and not taken:
                return Round()
        batch = self.outbox.claim(now, BATCH, only)
        if not batch:
            return Round()
        done = Round(claimed=len(batch))
        if self.link is not None:
            self._through_relay(batch, done)
        else:
            self._into_maildir(batch, done)
        return done

    # ----- the relay ----------------------------------------------------------------
    def _through_relay(self, batch: list[Parcel], done: Round) -> None:
        link = self.link
        assert link is not None
        recorded: set[int] = set()
        down: RelayDown | None = None
        renewed = time.monotonic()
        try:
            for parcel in batch:
                if self.stopping:
                    break
                if time.monotonic() - renewed > RENEW.total_seconds():
                    # A slow relay: 200 mails at seconds each outlast the lease.
                    self.outbox.renew([p for p in batch if p.id not in recorded], utcnow())
                    renewed = time.monotonic()
                try:
                    answer = link.send(parcel.recipient, parcel.raw)
                except RelayDown as err:
                    down = err
                    break
                except Exception as err:  # this mail's own trouble: the others go on
                    self._relay_answered()
                    self._refused(parcel, err, done)
                else:
                    self._relay_answered()
                    # Recorded at once: a kill now costs at most this one mail twice.
                    self.outbox.sent([parcel.id], utcnow())
                    done.sent += 1
                    # The relay's answer names its queue ID: the operator's link from
                    # pbm's records to the MTA's log.
                    log.info("outbox mail %d to %s: sent through %s: %s", parcel.id,
                             parcel.recipient, link.name, answer[:200])
                recorded.add(parcel.id)
        finally:
            link.close()
            rest = [parcel for parcel in batch if parcel.id not in recorded]
            cut_off = [rest[0].id] if rest and down is not None and down.during_mail else []
            self._put_back(rest, str(down) if down else None, cut_off, done)
        if down is not None and not self.stopping:
            self._relay_unreachable(down, done)

    def _refused(self, parcel: Parcel, err: Exception, done: Round) -> None:
        now = utcnow()
        if isinstance(err, Deferred):
            log.info("outbox mail %d to %s: deferred: %s", parcel.id, parcel.recipient, err)
            if self.outbox.retry_later(parcel, str(err), now):
                done.failed += 1
            else:
                done.deferred += 1
            return
        if isinstance(err, Malformed):
            log.error("outbox mail %d to %s: failed: %s", parcel.id, parcel.recipient, err)
        elif isinstance(err, Refused):
            log.warning("outbox mail %d to %s: failed: %s", parcel.id, parcel.recipient, err)
        else:
            log.error("outbox mail %d to %s: failed: delivery hit a bug", parcel.id,
                      parcel.recipient,
                      exc_info=err)
            assert self.link is not None
            self.link.close()  # where the conversation stands is unknown: start afresh
            err = Refused(f"internal error (a bug in pbm): {type(err).__name__}: {err}")
        self.outbox.fail(parcel, str(err))
        done.failed += 1

    def _relay_answered(self) -> None:
        assert self.link is not None
        outage = self.breaker.close(time.monotonic())
        if outage is not None:
            log.info("relay %s is reachable again after %s; delivering", self.link.name,
                     timedelta(seconds=round(outage)))

    def _relay_unreachable(self, down: RelayDown, done: Round) -> None:
        assert self.link is not None
        done.relay_down = True
        delay = self.breaker.trip(time.monotonic(), str(down))
        waiting = _count(self.outbox.waiting(), "y", "ies")
        if self.serving:
            at = datetime.now() + timedelta(seconds=delay)
            log.warning("%s; %d repl%s wait; next try in %ds (at %s)", down, *waiting,
                        round(delay), f"{at:%H:%M:%S}")
        else:
            log.warning("%s; %d repl%s wait in the outbox for `pbm serve` or "
                        "`pbm outbox flush`", down, *waiting)
        self.outbox.give_up_expired(utcnow(), str(down))

    # ----- the Maildir --------------------------------------------------------------
    def _into_maildir(self, batch: list[Parcel], done: Round) -> None:
        box = self.maildir
        assert box is not None
        # Taken back from a courier that died: skip what it had already written.
        doubtful = {_name(box, parcel) for parcel in batch if parcel.maybe_sent} - {None}
        there = box.delivered(doubtful) if doubtful else set()  # type: ignore[arg-type]
        written: list[int] = []
        recorded: set[int] = set()
        try:
            for parcel in batch:
                if self.stopping:
                    break
                try:
                    name = box.name_for(parcel.id, parcel.created_at, parcel.raw)
                    if name in there:
                        written.append(parcel.id)
                        continue
                    box.put(name, parcel.raw)
                except OSError as err:
                    log.warning("outbox mail %d to %s: deferred: cannot write to %s: %s",
                                parcel.id, parcel.recipient, box.path, err)
                    message = f"cannot write to the Maildir {box.path}: {err}"
                    if self.outbox.retry_later(parcel, message, utcnow()):
                        done.failed += 1
                    else:
                        done.deferred += 1
                    recorded.add(parcel.id)
                except Exception as err:
                    log.error("outbox mail %d to %s: failed: delivery hit a bug", parcel.id,
                              parcel.recipient, exc_info=err)
                    self.outbox.fail(parcel, f"internal error (a bug in pbm): "
                                             f"{type(err).__name__}: {err}")
                    done.failed += 1
                    recorded.add(parcel.id)
                else:
                    written.append(parcel.id)
            if written:
                box.sync()
                # One record for the round: a kill before it is harmless, the names are
                # found in new/ or cur/ on recovery. For that reason too it need not wait
                # for the disk (the claim did): a power loss that undoes it leaves the
                # mails claimed by a dead courier, taken back as maybe sent, and found.
                self.outbox.sent(written, utcnow(), durable=False)
                recorded.update(written)
                done.sent += len(written)
                if log.isEnabledFor(logging.INFO):
                    for parcel in batch:
                        if parcel.id in written:
                            log.info("outbox mail %d to %s: sent into the Maildir", parcel.id,
                                     parcel.recipient)
        finally:
            rest = [parcel for parcel in batch if parcel.id not in recorded]
            self._put_back(rest, None, [ident for ident in written if ident not in recorded],
                           done)

    def _put_back(self, rest: list[Parcel], error: str | None, maybe_sent: list[int],
                  done: Round) -> None:
        if not rest:
            return
        done.held += len(rest)
        try:
            self.outbox.release(rest, error, maybe_sent)
        except Exception:
            # Still claimed in our name: taken back at the next start, or after the lease.
            log.exception("could not put %d outbox mail(s) back in the queue", len(rest))


def deliver_pending(factory: sessionmaker[Session], config: Config,
                    only: list[int] | None = None) -> tuple[int, int]:
    """Deliver due outbox mail now (or the pending ones among `only`, whether due or not).

    Returns (sent, not delivered): for `pbm process`, the operator's commands and tests."""
    done = Courier(factory, config).deliver(only)
    return done.sent, done.undelivered


def _name(box: Maildir, parcel: Parcel) -> str | None:
    try:
        return box.name_for(parcel.id, parcel.created_at, parcel.raw)
    except Exception:  # that mail's own trouble, met again and recorded when it is written
        return None


def _count(number: int, one: str, many: str) -> tuple[int, str]:
    return number, one if number == 1 else many
