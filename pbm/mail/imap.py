"""IMAP intake: read an ordinary mailbox instead of running a mail server (aioimaplib).

Each new mail's bytes go through the same reader and writer as a mail over SMTP (limits,
Message-ID dedupe, rate limits); only after the writer's commit is it moved to the processed
folder. A connection lost between the commit and the move leaves the mail where it was: the
next pass reads it again, the writer knows its Message-ID, and it is moved then, never
answered twice."""

from __future__ import annotations

import asyncio
import logging
import re
import ssl
import time
from datetime import UTC, datetime

import aioimaplib

from pbm.config import Config
from pbm.db.models import MailboxMark, utcnow
from pbm.mail.intake import Reader, Receiver
from pbm.mail.screen import Refusal

log = logging.getLogger(__name__)
FIRST_BACKOFF_SECONDS = 1.0
MAX_BACKOFF_SECONDS = 300.0
HOLD_SECONDS = 300.0  # a mail refused for now (rate) or not stored is tried again after this
COMMAND_SECONDS = 60.0
RETURN_PATH = re.compile(rb"\AReturn-Path:[ \t]*<([^<>\r\n]{0,300})>", re.I)
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


class IntakeError(Exception):
    """The IMAP server said no (login, folder): a line for the log, then a retry later."""


def quoted(name: str) -> str:
    return '"' + name + '"'  # config.FOLDER_NAME allows no quote or backslash in names


def imap_date(day: datetime) -> str:
    return f"{day.day}-{MONTHS[day.month - 1]}-{day.year}"


class MailboxIntake:
    """Reads `[imap]`'s folder for as long as `run` runs, reconnecting with backoff."""

    def __init__(self, config: Config, reader: Reader, receiver: Receiver,
                 since: datetime | None = None):
        self.config = config
        self.settings = config.imap
        self.password = config.imap_password()
        self.reader = reader
        self.receiver = receiver
        self.since = since  # also answer what was there on the first start, from this day on
        self.mailbox = f"{self.settings.user}@{self.settings.host}/{self.settings.folder}"
        self.held: dict[int, float] = {}  # UID -> time.monotonic() before which it waits
        self.client: aioimaplib.IMAP4 | None = None
        self.lost = asyncio.Event()
        self.first_uid = 1
        self.extra: list[int] = []  # UIDs below first_uid to read once (--since)
        self.stored = 0  # mails stored since the start (for tests and the log)
        self.connected = asyncio.Event()  # set while a selected connection stands

    async def run(self, stopping: asyncio.Event) -> None:
        backoff = FIRST_BACKOFF_SECONDS
        self._warn_unchecked()
        while not stopping.is_set():
            try:
                await self._connect()
                backoff = FIRST_BACKOFF_SECONDS
                while not stopping.is_set():
                    await self._drain()
                    await self._wait_for_news(stopping)
            except asyncio.CancelledError:
                raise
            except (IntakeError, OSError, TimeoutError, aioimaplib.AioImapException,
                    ConnectionError) as err:
                log.warning("IMAP %s: %s; trying again in %d s", self.mailbox,
                            _describe(err), backoff)
            finally:
                self.connected.clear()
                await self._close()
            if stopping.is_set():
                break
            try:
                await asyncio.wait_for(stopping.wait(), backoff)
            except TimeoutError:
                pass
            backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)

    # -- the connection

    def _tls(self) -> ssl.SSLContext | None:
        if self.settings.tls == "none":
            return None
        context = ssl.create_default_context(
            cafile=str(self.config.path(self.settings.ca_file)) if self.settings.ca_file
            else None)
        if not self.settings.verify_certificates:
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
        return context

    def _warn_unchecked(self) -> None:
        if self.settings.tls != "none" and not self.settings.verify_certificates:
            log.warning("imap.verify_certificates is off: TLS to %s:%s does not check the "
                        "server's certificate or name, so anyone on the path can read the "
                        "password and the mail", self.settings.host, self.settings.port)

    async def _connect(self) -> None:
        self.lost = asyncio.Event()
        lost = self.lost
        client = aioimaplib.IMAP4(self.settings.host, self.settings.port,
                                  timeout=COMMAND_SECONDS, ssl_context=self._tls(),
                                  conn_lost_cb=lambda _exc: lost.set())
        self.client = client
        await client.wait_hello_from_server()
        answer = await client.login(self.settings.user, self.password)
        if answer.result != "OK":
            raise IntakeError(f"login as {self.settings.user!r} refused: {_said(answer)} "
                              "(check imap.user and the password)")
        # What the server offers may change at login (RFC 3501, 6.2.3): ask again, as
        # aioimaplib keeps the list from before it too.
        await asyncio.wait_for(client.protocol.capability(), COMMAND_SECONDS)
        for folder in (self.settings.processed_folder, self.settings.failed_folder):
            await client.create(quoted(folder))  # NO when it exists: nothing to do
        answer = await client.select(quoted(self.settings.folder))
        if answer.result != "OK":
            raise IntakeError(f"cannot open folder {self.settings.folder!r}: {_said(answer)}")
        validity = _code(answer, b"UIDVALIDITY")
        uidnext = _code(answer, b"UIDNEXT")
        exists = _exists(answer)
        if validity is None or uidnext is None:
            raise IntakeError("the server gave no UIDVALIDITY or UIDNEXT on SELECT")
        await self._mark(validity, uidnext, exists)
        self.connected.set()
        log.info("IMAP %s: reading (IDLE %s)", self.mailbox,
                 "yes" if client.has_capability("IDLE") else "no: polling")

    async def _close(self) -> None:
        client, self.client = self.client, None
        if client is None:
            return
        try:
            if not self.lost.is_set() and client.get_state() in ("AUTH", "SELECTED"):
                await asyncio.wait_for(client.logout(), 5)
        except Exception:  # the connection is going anyway
            pass
        transport = client.protocol.transport
        if transport is not None:
            transport.close()

    async def _mark(self, validity: int, uidnext: int, exists: int) -> None:
        """Where reading starts: the mark of the first start, or a new one now."""
        now = utcnow()

        def job() -> list[int]:
            with self.receiver.factory() as session, session.begin():
                mark = session.get(MailboxMark, self.mailbox)
                if mark is None:
                    session.add(MailboxMark(mailbox=self.mailbox, uidvalidity=validity,
                                            first_uid=uidnext, started_at=now))
                    found.append((uidnext, None))
                elif mark.uidvalidity != validity:
                    found.append((0, mark.started_at))
                else:
                    found.append((mark.first_uid, mark.started_at))
            return []

        found: list[tuple[int, datetime | None]] = []
        await asyncio.wrap_future(self.receiver.run_job(job))
        first_uid, started = found[0]
        if started is None:
            log.info("IMAP %s: first start: %d mail(s) already in the folder are left "
                     "unanswered%s", self.mailbox, exists,
                     "" if self.since is None else
                     f", but those since {imap_date(self.since)} (--since)")
        elif first_uid == 0:
            first_uid = await self._renumbered(validity, started)
        self.first_uid = first_uid
        self.extra = []
        if self.since is not None:
            self.extra = [uid for uid in await self._search(f"SINCE {imap_date(self.since)}")
                          if uid < first_uid]
            self.since = None  # once per start: the mails read are moved away

    async def _renumbered(self, validity: int, started: datetime) -> int:
        """The server renumbered the folder (a new UIDVALIDITY): the first start's time
        says which mail came after it."""
        assert self.client is not None
        first = None
        for uid in await self._search(f"SINCE {imap_date(started)}"):
            answer = await self.client.uid("fetch", str(uid), "(INTERNALDATE)")
            found = re.search(rb'INTERNALDATE "([^"]+)"', b" ".join(
                bytes(line) for line in answer.lines))
            if found and _parse_internaldate(found.group(1)) >= started:
                first = uid
                break
        answer = await self.client.status(quoted(self.settings.folder), "(UIDNEXT)")
        first = first or (_code(answer, b"UIDNEXT", status=True) or 1)

        def job() -> list[int]:
            with self.receiver.factory() as session, session.begin():
                mark = session.get(MailboxMark, self.mailbox)
                assert mark is not None
                mark.uidvalidity, mark.first_uid = validity, first
            return []

        await asyncio.wrap_future(self.receiver.run_job(job))
        log.warning("IMAP %s: the server renumbered the folder (UIDVALIDITY %d); reading "
                    "from UID %d, the first mail after the first start", self.mailbox,
                    validity, first)
        return first

    # -- reading

    async def _search(self, criteria: str) -> list[int]:
        assert self.client is not None
        answer = await self.client.uid_search(criteria, charset=None)
        if answer.result != "OK":
            raise IntakeError(f"SEARCH {criteria} refused: {_said(answer)}")
        # aioimaplib hands the untagged "* SEARCH 4 7" as its numbers alone ("4 7"), then
        # the tagged line's text.
        uids: list[int] = []
        for line in answer.lines[:-1]:
            words = bytes(line).split()
            if words and words[0].upper() == b"SEARCH":
                words = words[1:]
            if all(word.isdigit() for word in words):
                uids.extend(int(word) for word in words)
        return sorted(set(uids))

    async def _drain(self) -> None:
        """Every mail waiting, oldest first."""
        now = time.monotonic()
        self.held = {uid: until for uid, until in self.held.items() if until > now}
        waiting = [uid for uid in await self._search(f"UID {self.first_uid}:*")
                   if uid >= self.first_uid]
        extra, self.extra = self.extra, []
        for uid in [*extra, *waiting]:
            if uid not in self.held:
                await self._take(uid)

    async def _take(self, uid: int) -> None:
        assert self.client is not None
        limit = self.config.smtpd.max_message_bytes
        answer = await self.client.uid("fetch", str(uid), "(RFC822.SIZE)")
        size = re.search(rb"RFC822\.SIZE (\d+)", b" ".join(bytes(x) for x in answer.lines))
        if answer.result != "OK" or size is None:
            log.info("IMAP %s: mail UID %d went before it was read (deleted elsewhere)",
                     self.mailbox, uid)
            return
        if int(size.group(1)) > limit:
            log.warning("IMAP %s: mail UID %d refused: larger than %d bytes; moved to %s",
                        self.mailbox, uid, limit, self.settings.failed_folder)
            await self._move(uid, self.settings.failed_folder)
            return
        answer = await self.client.uid("fetch", str(uid), "BODY.PEEK[]")
        raw = _literal(answer)
        if answer.result != "OK" or raw is None:
            log.info("IMAP %s: mail UID %d went while it was read (deleted elsewhere)",
                     self.mailbox, uid)
            return
        sender = RETURN_PATH.match(raw)
        envelope_from = sender.group(1).decode("ascii", "replace") if sender else ""
        try:
            prepared = await self.reader.read(raw, envelope_from or "<>")
        except Refusal as refusal:
            if refusal.code >= 500:
                log.warning("IMAP %s: mail UID %d refused: %s; moved to %s", self.mailbox,
                            uid, refusal, self.settings.failed_folder)
                await self._move(uid, self.settings.failed_folder)
            else:
                log.info("IMAP %s: mail UID %d waits: %s", self.mailbox, uid, refusal)
                self.held[uid] = time.monotonic() + HOLD_SECONDS
            return
        outcome = await asyncio.wrap_future(
            self.receiver.submit(raw, envelope_from or "<>", prepared))
        if outcome is None:
            log.warning("IMAP %s: mail UID %d could not be stored; tried again in %d s",
                        self.mailbox, uid, HOLD_SECONDS)
            self.held[uid] = time.monotonic() + HOLD_SECONDS
            return
        self.stored += 1
        await self._move(uid, self.settings.processed_folder)

    async def _move(self, uid: int, folder: str) -> None:
        assert self.client is not None
        client = self.client
        if client.has_capability("MOVE"):
            answer = await client.uid("move", str(uid), quoted(folder))
        else:
            answer = await client.uid("copy", str(uid), quoted(folder))
            if answer.result == "OK":
                await client.uid("store", str(uid), "+FLAGS.SILENT", r"(\Deleted)")
                if client.has_capability("UIDPLUS"):
                    answer = await client.uid("expunge", str(uid))
                else:
                    answer = await client.expunge()
        if answer.result != "OK":
            # Gone meanwhile, or the folder refused it: the next pass finds it again (if
            # it is still there) and the writer knows it by its Message-ID.
            log.warning("IMAP %s: mail UID %d not moved to %s: %s", self.mailbox, uid,
                        folder, _said(answer))

    async def _wait_for_news(self, stopping: asyncio.Event) -> None:
        """Until new mail may be there: an IDLE (issued again after imap.idle_seconds, as
        RFC 2177 asks) or, without IDLE, imap.poll_seconds; sooner when a held mail's
        wait is over."""
        assert self.client is not None
        client = self.client
        seconds = float(self.settings.idle_seconds if client.has_capability("IDLE")
                        else self.settings.poll_seconds)
        if self.held:
            seconds = max(1.0, min(seconds, min(self.held.values()) - time.monotonic()))
        stop = asyncio.ensure_future(stopping.wait())
        lost = asyncio.ensure_future(self.lost.wait())
        try:
            if not client.has_capability("IDLE"):
                await asyncio.wait({stop, lost}, timeout=seconds)
                if not (stop.done() or lost.done()):
                    await client.noop()
            else:
                await self._idle(client, seconds, stop, lost)
        finally:
            stop.cancel()
            lost.cancel()
        if lost.done() and not stopping.is_set():
            raise ConnectionError("the server closed the connection")

    async def _idle(self, client: aioimaplib.IMAP4, seconds: float,
                    stop: asyncio.Future, lost: asyncio.Future) -> None:
        idle = await client.idle_start(timeout=seconds)
        deadline = time.monotonic() + seconds
        while True:
            push = asyncio.ensure_future(client.wait_server_push(timeout=seconds + 60))
            await asyncio.wait({push, stop, lost}, return_when=asyncio.FIRST_COMPLETED,
                               timeout=max(0.0, deadline - time.monotonic()) + 5)
            if not push.done():
                push.cancel()
                break
            lines = push.result()
            if lines == aioimaplib.STOP_WAIT_SERVER_PUSH:
                break
            if any(b"EXISTS" in bytes(line) for line in lines):
                break
        if lost.done():
            idle.cancel()
            return
        client.idle_done()
        await asyncio.wait_for(idle, COMMAND_SECONDS)


def _said(answer) -> str:
    text = b" ".join(bytes(line) for line in answer.lines)[:300]
    return f"{answer.result} {text.decode('utf-8', 'replace')}".strip()


def _describe(err: BaseException) -> str:
    if isinstance(err, ssl.SSLCertVerificationError):
        return (f"the server's certificate does not check out: {err.verify_message} (for a "
                "private CA, name its certificate in imap.ca_file)")
    if isinstance(err, TimeoutError):
        return "no answer in time"
    return str(err) or type(err).__name__


def _code(answer, name: bytes, status: bool = False) -> int | None:
    pattern = rb"\b" + name + rb" (\d+)" if status else rb"\[" + name + rb" (\d+)\]"
    for line in answer.lines:
        found = re.search(pattern, bytes(line))
        if found:
            return int(found.group(1))
    return None


def _exists(answer) -> int:
    for line in answer.lines:
        found = re.match(rb"(\d+) EXISTS", bytes(line))
        if found:
            return int(found.group(1))
    return 0


def _literal(answer) -> bytes | None:
    """The message of a FETCH BODY.PEEK[] answer: the literal after its `{size}` line."""
    lines = answer.lines
    for index, line in enumerate(lines[:-1]):
        if isinstance(line, (bytes, bytearray)) and re.search(rb"\{\d+\}$", bytes(line)) \
                and isinstance(lines[index + 1], bytearray):
            return bytes(lines[index + 1])
    return None


def _parse_internaldate(text: bytes) -> datetime:
    """An INTERNALDATE ("03-Dec-2026 07:50:00 +0000") as naive UTC, as the database keeps."""
    parsed = datetime.strptime(text.decode("ascii"), "%d-%b-%Y %H:%M:%S %z")
    return parsed.astimezone(UTC).replace(tzinfo=None)
