"""One inbound mail, one transaction: store it, run its commands, queue the replies.

Reading a mail (bounded parsing, its command lines, a bounce report), a look at its
sender's rate and checking the passwords it carries happen first, in `prepare` and
`check_ahead`, outside the writer's transaction: a hostile mail may cost seconds there, but
never holds up the mails behind it. The writer only applies what was read.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from pbm import logs
from pbm.clock import SYSTEM, Clock
from pbm.commands import grammar
from pbm.commands.credentials import verify_ahead
from pbm.commands.dispatch import run_lines
from pbm.commands.grammar import did_you_mean, is_command, reads_as_command
from pbm.commands.reply_move import offer_command
from pbm.config import Config, LimitSettings
from pbm.context import Context, Reply, shorten
from pbm.db import rates
from pbm.db.models import InboundMessage, InboundStatus, OutboxMail, OutboxStatus, utcnow
from pbm.mail import inbound as parsing
from pbm.mail.compose import compose_with_id
from pbm.mail.replies import consolidate
from pbm.mail.screen import Refusal

if TYPE_CHECKING:
    from pbm.mail.bounces import Report

log = logging.getLogger(__name__)


class Received(Enum):
    STORED = "stored"
    DUPLICATE = "duplicate"


NO_COMMAND = (
    "Your mail reached the game server, but no command was found in it.\n\n"
    "Put a command in the Subject, for example:\n"
    "  Subject: signup alice secret\n"
    "  Subject: trou challenge alice bob\n"
    "or make the Subject 'multiple' and write one command per line of the body.\n"
    "Send 'help' as the Subject for an overview.\n"
)

CONFIRM_LEFT_OUT = (
    "A 'confirm' line of your mail was not carried out: a confirmation counts only as the "
    "Subject of a new mail (Subject: confirm TOKEN), or as the first line of the text of a "
    "mail, so that no program answering our mail confirms an address on its own. Send it "
    "again that way.\n"
)

FAILED = (
    "Your mail reached the game server, but handling it hit an error on our side.\n"
    "Nothing in it was applied. The mail has been kept and the operator will look\n"
    "at it; you do not need to send it again.\n"
)


@dataclass(frozen=True)
class Prepared:
    """What is learnt of a mail before the writer takes it."""

    mail: parsing.InboundMail
    found: parsing.Commands
    refuted: frozenset[bytes] = frozenset()  # wrong passwords, already checked
    source: str = ""  # the network address it came from, if known (authenticity.source)
    bounce: Report | None = None  # the delivery failure an automatic mail reports


def prepare(raw: bytes, envelope_from: str, limits: LimitSettings, authserv_id: str = "",
            source: str = "") -> Prepared:
    """Read a mail within `limits`; raises Refusal for one outside them. `authserv_id`
    names the MTA whose verdict on the sender is believed; `source` is where it came from."""
    mail = parsing.read(raw, envelope_from, limits, authserv_id)
    if not mail.auto:
        found = parsing.commands(mail, limits.commands_per_mail)
        log.debug("read a mail of %d bytes from %s (envelope %s, source %s): %d command "
                  "line(s), %d left out", len(raw), logs.clean(mail.sender),
                  logs.clean(envelope_from), logs.clean(source), len(found.lines),
                  found.left_out)
        return Prepared(mail, found, source=source)
    # Automatic mail is never answered, so its lines are not read for commands; only it
    # can be a bounce (and only then is the bounce reader loaded).
    from pbm.mail import bounces

    report = bounces.read(raw)
    log.debug("read an automatic mail of %d bytes from %s (envelope %s): not answered, %s",
              len(raw), logs.clean(mail.sender), logs.clean(envelope_from),
              "a bounce report" if report is not None else "no bounce report")
    return Prepared(mail, parsing.Commands([], None), source=source, bounce=report)


def check_ahead(prepared: Prepared, reader: Session, limits: LimitSettings) -> Prepared:
    """With a read-only session: refuse for now (451) mail from a sender who has had the
    hour's notice already, so a flood is neither stored nor answered (the sending MTA keeps
    the mail and tries again later); then check the passwords of the mail's commands.
    Mail that is never answered (robots, bulk, bounces) counts like any other: unlimited,
    it once filled the disk."""
    mail, now = prepared.mail, utcnow()
    # limit + 1: the first mail over the limit is stored (and gets the notice if answered).
    until = rates.reached(reader, _sender_key(mail.sender),
                          limits.mails_per_sender_per_hour + 1, rates.HOUR, now) \
        if limits.mails_per_sender_per_hour else None
    if until is not None:
        raise Refusal(451, "4.7.1", "Too many mails from your address this hour; try again "
                                    f"after {until:%H:%M} UTC")
    if not prepared.found.lines or not mail.sender:
        return prepared
    return replace(prepared, refuted=verify_ahead(reader, prepared.found.lines, limits,
                                                  mail.sender, now, mail.authenticated,
                                                  prepared.source))


def _sender_key(sender: str) -> str:
    return f"mails-from:{sender or '<>'}"  # mail with no address at all shares one count


def receive(factory: sessionmaker[Session], config: Config, raw: bytes,
            envelope_from: str = "", prepared: Prepared | None = None,
            clock: Clock = SYSTEM) -> tuple[Received, list[int]]:
    """Store and handle one raw mail in one transaction.

    Returns whether it was new and the ids of the outbox mails it queued. Raises Refusal
    for a mail outside the limits (not stored), and anything else when the mail could not be
    stored (the caller answers 451 / exits 75 so the sender retries).
    """
    if prepared is None:
        try:
            prepared = prepare(raw, envelope_from, config.limits, config.server.authserv_id)
        except Refusal:
            raise
        except Exception:  # a bug in reading it: stored all the same, failed, for the operator
            log.exception("reading a mail from %s failed", envelope_from)
    try:
        with factory() as session:
            return _store_held(session, session.begin, config, raw, envelope_from, prepared,
                               clock)
    except IntegrityError:
        # Either a concurrent process committed the same Message-ID first (then the mail
        # is handled), or some other clash (then the sender must try again later).
        with factory() as session:
            found = _stored_elsewhere(session, raw, prepared)
        if found is None:
            raise
        return found


class NeedsSavepoints(Exception):
    """A mail handled without savepoints had a command fail (or hit a bug): what it wrote is
    not undone by itself, so the caller rolls the mail back and handles it again with them."""


def _store_held(session: Session, begin: Callable[[], AbstractContextManager[object]],
                config: Config, raw: bytes, envelope_from: str, prepared: Prepared | None,
                clock: Clock) -> tuple[Received, list[int]]:
    """store() in what `begin()` opens for this mail alone (the transaction, or the mail's
    savepoint in a batch). First without savepoints of its own, as nearly every mail
    succeeds; a mail whose command failed is rolled back there and handled again with
    them, so that the failure changes nothing while its answer, the mail's status and a
    wrong password's count are kept."""
    try:
        with begin():
            return store(session, config, raw, envelope_from, prepared, clock,
                         savepoints=False)
    except NeedsSavepoints:
        with begin():
            return store(session, config, raw, envelope_from, prepared, clock)


def store(session: Session, config: Config, raw: bytes, envelope_from: str,
          prepared: Prepared | None, clock: Clock = SYSTEM, *,
          savepoints: bool = True) -> tuple[Received, list[int]]:
    """Within the caller's transaction: store a mail and handle it (`savepoints`: as
    handle() does).

    A mail seen before fails to be stored (IntegrityError: its Message-ID is unique), and
    the caller rolls back and answers DUPLICATE (_stored_elsewhere): a duplicate is rare (an
    MTA sending again after a lost 250), so it takes the error path rather than every mail
    paying a look-up first. `prepared` is None when reading the mail hit a bug: it is
    stored as failed, where the operator finds it."""
    key = prepared.mail.message_key if prepared else parsing.message_key(raw)
    if prepared is not None and never_answered(prepared, config):
        raw = parsing.excerpt(raw)  # all the operator needs of it; the disk is not for robots
    # Stored as done, what nearly every mail ends as, so that only a mail that ends
    # otherwise costs an UPDATE: handle() sets the status it ends with before the commit,
    # and nobody sees the row before then.
    record = InboundMessage(message_key=key, envelope_from=envelope_from, raw=raw,
                            processed_at=clock.now(), status=InboundStatus.DONE)
    session.add(record)
    session.flush()
    if prepared is None:  # the writer never reads a mail: this one waits for the operator
        record.status = InboundStatus.FAILED
        record.error = "reading this mail failed (the log says why); `pbm inbox retry` " \
                       "reads it again"
        queued: list[int] = []
    else:
        queued = handle(session, config, record, prepared, clock, savepoints=savepoints)
    session.flush()
    sender = prepared.mail.sender if prepared is not None else envelope_from
    log.info("inbound mail %d message-id %s from %s: %s -> %s, %d repl%s queued", record.id,
             _message_id(prepared), logs.clean(sender), command_names(prepared), record.status,
             len(queued), "y" if len(queued) == 1 else "ies")
    return Received.STORED, queued


def _message_id(prepared: Prepared | None) -> str:
    return logs.clean(prepared.mail.message_id if prepared is not None else None)


MAX_LOGGED_COMMANDS = 5


def command_names(prepared: Prepared | None) -> str:
    """The names of a mail's commands for the log ("trou move; games"), never an argument
    (they hold passwords): a line that is no command is "?", whatever its words."""
    if prepared is None or not prepared.found.lines:
        return "(no command)"
    names = []
    for line in prepared.found.lines[:MAX_LOGGED_COMMANDS]:
        try:
            invocation = grammar.parse(line)
        except Exception:  # not a command: its words may be anything, a password too
            names.append("?")
            continue
        names.append(" ".join(filter(None, (invocation.game, invocation.command.name))))
    more = len(prepared.found.lines) - MAX_LOGGED_COMMANDS
    return "; ".join(names) + (f"; and {more} more" if more > 0 else "")


def receive_batch(factory: sessionmaker[Session], config: Config,
                  mails: list[tuple[bytes, str, Prepared | None]], clock: Clock = SYSTEM
                  ) -> list[tuple[Received, list[int]] | None]:
    """Group commit: store and handle several mails, each in its own savepoint, with one
    commit for all of them (one fsync instead of one per mail).

    Each mail stays atomic: its savepoint holds it and everything it caused. A result is
    None for a mail that could not be stored; all are None when the commit fails. Nobody
    may be told 250 before this returns. A batch of one (a quiet server) needs no savepoint:
    its transaction is the mail's.
    """
    results: list[tuple[Received, list[int]] | None] = []
    try:
        with factory() as session:
            if len(mails) == 1:
                return [_store_held(session, session.begin, config, *mails[0], clock)]
            with session.begin():
                for raw, envelope_from, prepared in mails:
                    try:
                        results.append(_store_held(session, session.begin_nested, config, raw,
                                                   envelope_from, prepared, clock))
                    except IntegrityError:
                        results.append(_stored_elsewhere(session, raw, prepared))
                    except Exception:
                        log.exception("could not store a mail from %s", envelope_from)
                        results.append(None)
    except IntegrityError:
        if len(mails) == 1:
            with factory() as session:
                return [_stored_elsewhere(session, mails[0][0], mails[0][2])]
        log.exception("could not commit a batch of %d mails", len(mails))
        return [None] * len(mails)
    except Exception:
        log.exception("could not commit a batch of %d mails", len(mails))
        return [None] * len(mails)
    return results


def _stored_elsewhere(session: Session, raw: bytes, prepared: Prepared | None
                      ) -> tuple[Received, list[int]] | None:
    """After a clash on storing a mail: a duplicate when its Message-ID is stored already,
    received before or committed by another node meanwhile (its insert waited for that
    commit, then lost); else None, and the sender tries again later."""
    key = prepared.mail.message_key if prepared else parsing.message_key(raw)
    seen = session.scalar(select(InboundMessage.id).where(InboundMessage.message_key == key))
    if seen is None:
        log.exception("could not store a mail")
        return None
    log.info("inbound mail %s message-id %s: received before, not handled again", seen,
             _message_id(prepared))
    return Received.DUPLICATE, []


def handle(session: Session, config: Config, record: InboundMessage,
           prepared: Prepared | None = None, clock: Clock = SYSTEM, *,
           savepoints: bool = True) -> list[int]:
    """Run the commands of a stored mail; an unexpected error marks it failed, never lost.

    `prepared` is None when a stored mail is handled again (`pbm inbox retry`). Without
    `savepoints` (where the transaction, or a savepoint, holds this mail alone) a failed
    command or a bug raises NeedsSavepoints instead of being answered."""
    if record.processed_at is None or record.status == InboundStatus.FAILED:
        record.processed_at = clock.now()
    if prepared is None:
        try:
            prepared = prepare(record.raw, record.envelope_from, config.limits,
                               config.server.authserv_id)
        except Refusal as refusal:
            record.status, record.error = InboundStatus.REJECTED, str(refusal)
            return []
        except Exception:
            record.status, record.error = InboundStatus.FAILED, traceback.format_exc()
            log.exception("cannot parse inbound mail %s", record.id)
            return []
    mail, found = prepared.mail, prepared.found
    unanswered = never_answered(prepared, config)
    allowance = rates.take(session, _sender_key(mail.sender),
                           config.limits.mails_per_sender_per_hour, rates.HOUR,
                           record.processed_at)
    if not allowance.allowed:
        record.status = InboundStatus.THROTTLED
        if unanswered or not allowance.first_refusal:
            return []
        notice = Reply((mail.sender,), "pbm: too many mails from you",
                       _throttled_text(config.limits, allowance.resets_at))
        return queue(session, config, [notice], record, mail)
    if prepared.bounce is not None:
        from pbm.mail import bounces

        notices = bounces.take(session, config, record, prepared.bounce, record.processed_at)
        if notices is not None:  # a bounce: never answered, but its owner may be told
            return queue(session, config, notices, record, None)
    if unanswered:
        record.status = InboundStatus.IGNORED
        return []
    ignored = False
    try:
        with session.begin_nested() if savepoints else nullcontext():
            ctx = Context(session, mail.sender, limits=config.limits, time=config.time,
                          bots=config.bots, operators=config.server.operators,
                          web_base_url=config.web.base_url, refuted=prepared.refuted,
                          now=record.processed_at, authenticated=mail.authenticated,
                          source=prepared.source,
                          authentication_checked=bool(config.server.authserv_id),
                          savepoints=savepoints)
            ctx.comment = found.comment
            if found.subject_only and not is_command(found.lines[0]):
                ctx.failures += 1
                ctx.answer("pbm error", _not_understood(found.lines[0]))
            elif len(found.lines) == 1 or any(is_command(line) for line in found.lines):
                run_lines(ctx, found.lines)
            elif not _offered_command(ctx, mail, found, config):
                if _replying(mail, config):  # a robot's, or a thank-you: never answered
                    ignored = True
                else:  # nothing, or lines of prose: one answer, not an error for every line
                    ctx.answer("pbm: no command found", NO_COMMAND)
            if found.confirms_left_out and any(is_command(line) for line in found.lines):
                # Said only to a mail that ran commands of its own (a person's): a program
                # echoing a request is not answered for the line it quoted.
                ctx.answer("pbm: confirm left out", CONFIRM_LEFT_OUT)
            if found.left_out:
                ctx.answer("pbm: commands left out",
                           f"Your mail held {found.left_out} command lines more than the "
                           f"{config.limits.commands_per_mail} one mail may hold; they were not "
                           "read. Send them in another mail.\n")
            queued = queue(session, config, consolidate(ctx.replies), record, mail)
        record.status = InboundStatus.IGNORED if ignored else InboundStatus.DONE
        return queued
    except Exception as err:
        if not savepoints:
            raise NeedsSavepoints from err
        record.status, record.error = InboundStatus.FAILED, traceback.format_exc()
        log.exception("inbound mail %s failed", record.id)
        # The Subject may hold a password, so the apology does not quote it.
        sorry = Reply((mail.sender,), "pbm: your mail is waiting for the operator", FAILED)
        return queue(session, config, [sorry], record, mail)


def _not_understood(subject: str) -> str:
    """The answer to a Subject that is no command, over a body that holds none either."""
    words = subject.split()
    first = shorten(words[0])
    # Only the first word is quoted back: a mistyped command's later words hold passwords.
    quoted = first + (f" ... ({len(words) - 1} more words, not repeated: one may be a "
                      "password)" if len(words) > 1 else "")
    return (f"The Subject of your mail was not understood: {quoted}\n"
            f"'{first}' is not a command{did_you_mean(words[0]) or '.'} No line of the body "
            "is one either.\n\n"
            "Commands start with a game name (for example 'trou move 101 alice PASSWORD 3B2') "
            "or are account commands such as signup, message or vacation. Send 'help' as the "
            "Subject for an overview, or 'help commands' for the full list.\n")


def never_answered(prepared: Prepared, config: Config) -> bool:
    """Robots (auto-submitted, bulk/list, from <>), ourselves (a reply to a reply is how
    mail loops start), and a reply to one of our mails that holds no command."""
    mail = prepared.mail
    return mail.auto or mail.sender == config.server.address.lower() or \
        _answers_us_without_command(mail, prepared.found, config)


def _answers_us_without_command(mail: parsing.InboundMail, found: parsing.Commands,
                                config: Config) -> bool:
    """A reply to one of our mails that holds no command: an out-of-office or an
    auto-responder that does not say it is one. Answering it is how ping-pong starts.
    (One whose first line may be a move is looked at: see _offered_command.)"""
    replying = _replying(mail, config)
    # A reply keeping a confirmation request's Subject is one even when it names no mail.
    return (replying or found.answers_request) and \
        not any(reads_as_command(line) for line in found.lines) and \
        not (replying and found.bare)


def _replying(mail: parsing.InboundMail, config: Config) -> bool:
    """Whether the mail answers one of ours (its In-Reply-To is one of our ids)."""
    ours = f"@{config.server.hostname.lower()}>"
    return mail.in_reply_to is not None and mail.in_reply_to.lower().endswith(ours)


def _offered_command(ctx: Context, mail: parsing.InboundMail, found: parsing.Commands,
                     config: Config) -> bool:
    """A reply to a board mail holding only a move ("1C3") is answered with the command
    that would play it (reply_move); whether it was."""
    board = parsing.board_replied_to(mail, config.server.hostname) if found.bare else None
    return board is not None and found.bare is not None and \
        offer_command(ctx, board.game, board.name, found.bare, board.board_id)


def _throttled_text(limits: LimitSettings, until) -> str:
    return (
        f"More than {limits.mails_per_sender_per_hour} mails came from your address within "
        f"an hour. The mail this answers was not carried out, and until "
        f"{until:%Y-%m-%d %H:%M} UTC further mail from your address is refused for now: your "
        "mail server keeps it and sends it again later. This is the only notice until then."
        "\n\nIf you sent them, send the commands of this mail again after that time. If you "
        "did not, someone may be using your address, or a program is answering our mails.\n"
    )


def queue(session: Session, config: Config, replies: list[Reply],
          record: InboundMessage | None, mail: parsing.InboundMail | None) -> list[int]:
    """Write each reply, once per recipient address, to the outbox; their outbox ids.

    One INSERT for them all, on the connection: the ORM would make an object of each only
    to write it. Its ids come back in no particular order (asking for the rows' order makes
    SQLite's driver send one INSERT per row), and callers want only which they are."""
    now = utcnow()
    taken: set[str] = set()  # Message-IDs given: each mail has its own
    rows = []
    for reply in replies:
        for address in reply.to:
            if not address:
                continue
            raw, message_id = compose_with_id(reply, address, config.server, mail, taken)
            rows.append({"inbound_id": record.id if record is not None else None,
                         "recipient": address, "subject": reply.subject, "raw": raw,
                         "message_id": message_id, "status": OutboxStatus.PENDING,
                         "attempts": 0, "next_attempt_at": now, "created_at": now,
                         "maybe_sent": False})
    if not rows:
        return []
    session.flush()  # the inbound row the outbox rows point to
    if not log.isEnabledFor(logging.DEBUG):
        inserted = session.connection().execute(insert(OutboxMail).returning(OutboxMail.id),
                                                rows)
        return sorted(inserted.scalars())
    # The ids come back in no given order: the Message-ID (unique) says which row is which.
    pairs = session.connection().execute(
        insert(OutboxMail).returning(OutboxMail.id, OutboxMail.message_id), rows).all()
    by_message_id = {str(row["message_id"]): (str(row["recipient"]), str(row["subject"]))
                     for row in rows}
    for ident, given in sorted(pairs):
        recipient, subject = by_message_id[str(given)]
        log.debug("queued outbox mail %d to %s: %s", ident, logs.clean(recipient),
                  first_words(subject))
    return sorted(ident for ident, _ in pairs)


def first_words(subject: str, count: int = 4) -> str:
    """The start of a reply's Subject for a log line (ours, but it may quote a board name)."""
    words = subject.split()
    return " ".join(logs.clean(word) for word in words[:count]) + \
        (" ..." if len(words) > count else "")
