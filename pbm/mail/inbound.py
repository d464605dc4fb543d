"""Read an inbound mail: who sent it, whether to answer it, and its command lines."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from email import policy
from email._header_value_parser import get_address_list
from email.header import decode_header, make_header
from email.message import Message
from email.parser import BytesHeaderParser, BytesParser
from html.parser import HTMLParser

from pbm.commands.grammar import is_command
from pbm.config import LimitSettings
from pbm.mail.screen import HEADER_END, check_shape, screen

PREFIX = re.compile(r"^\s*((re|fwd?|aw|wg|sv|antw|tr)\s*(\[\d+\])?\s*:|\[[^\]]*\])\s*", re.I)
QUOTE_INTRO = re.compile(r"^\s*(on\b.*wrote:|am\b.*schrieb.*:|le\b.*a écrit\s*:)\s*$", re.I)
# Gmail wraps a long "On <date> <name> <address> wrote:" over two lines.
WRAPPED_INTRO = re.compile(r"^\s*on\b", re.I)
WRAPPED_INTRO_END = re.compile(r"\bwrote:\s*$", re.I)
# Subjects of our own mails ("Trou Board 101 bob", "Trou Board 101 Error", "Trou error",
# "List of Trou games") start like commands; a reply to one carries its commands in the body.
OUR_SUBJECT = re.compile(r"^(new\s+)?[\w-]+\s+(board\s+\d+\b|error$)|^list\s+of\b", re.I)
STOP_WORDS = {"end", "stop"}
MAX_COMMAND_LINES = LimitSettings().commands_per_mail


@dataclass(frozen=True)
class InboundMail:
    message_id: str | None  # a well-formed <id@host>, or None
    sender: str  # the address to answer ("" if none)
    subject: str
    body: str
    auto: bool  # auto-submitted, bulk/list or from <>: never answered
    references: str  # well-formed ids only, the last few, space-separated
    in_reply_to: str | None = None
    message_key: str = ""  # what makes the mail processed once (see key_of)


# What we copy from a mail into the headers of our replies must be a plain msg-id.
MSG_ID = re.compile(r"<[!-;=?A-~]{1,240}@[!-;=?A-~]{1,240}>")  # one @, no <>, no space
MAX_MSG_ID = 250
MAX_REFERENCES = 10
# An address we will write to: no spaces, controls or header syntax, one @.
ADDRESS = re.compile(r"[^\s<>()\[\],;:\"@\\]{1,64}@[^\s<>()\[\],;:\"@\\]{1,255}")
# The address a reply goes to: a plain local@domain (dot-atom, host name; any script), the
# address part of Reply-To or From as RFC 5322 parses it. A display name never counts: one
# encoded word holding "Bcc: x@evil" once did.
_ATOM = r"[\w!#$%&'*+/=?^`{|}~-]+"
_LABEL = r"[^\W_]+(?:-+[^\W_]+)*"
PLAIN_ADDRESS = re.compile(rf"{_ATOM}(?:\.{_ATOM})*@{_LABEL}(?:\.{_LABEL})*")
MAX_ADDRESS_FIELD = 2048  # a Reply-To or From longer than this is not read for an address
KEY_TEXT = re.compile(r"[\x20-\x7e\r\n\t]{1,500}")
MAX_BODY_BYTES = 256 * 1024  # of the part read for commands; the rest is never looked at
MAX_BODY_CHARS = 100_000
# Of the body after the header, what the parser is given: room for the part read for
# commands, encoded, and the parts before it. The rest is never looked at.
MAX_PARSED_BODY_BYTES = 2 * MAX_BODY_BYTES
# Of mail never answered (robots, bulk, bounces) only this much is stored: a flood of it
# once stored 95 MB in two minutes.
MAX_KEPT_BYTES = 32 * 1024
AUTO_HEADERS = ("List-Id", "List-Unsubscribe", "X-Autoreply", "X-Autorespond")


def excerpt(raw: bytes, limit: int = MAX_KEPT_BYTES) -> bytes:
    """What is kept of a mail that is never answered: its first `limit` bytes (the headers
    and the start of the body, what the operator needs to see what it was) and a line that
    says how much more there was."""
    if len(raw) <= limit:
        return raw
    return raw[:limit] + f"\r\n[pbm: {len(raw) - limit} more bytes not kept]\r\n".encode()


def message_key(raw: bytes) -> str:
    """The key that makes a mail processed once: its Message-ID, or a digest of its bytes."""
    headers = BytesHeaderParser(policy=policy.compat32).parsebytes(raw)
    return key_of(_raw_value(headers, "Message-ID"), raw)


def key_of(message_id: str | None, raw: bytes) -> str:
    """The Message-ID as sent when it is plain ASCII text, else a digest of it: any bytes at
    all may stand there, and the key must still store and compare (non-ASCII once made
    pbm answer 451 forever)."""
    value = (message_id or "").strip()
    if not value:
        return "sha256:" + hashlib.sha256(raw).hexdigest()
    if KEY_TEXT.fullmatch(value):
        return value
    return "sha256-id:" + hashlib.sha256(value.encode("utf-8", "surrogateescape")).hexdigest()


def read(raw: bytes, envelope_from: str = "", limits: LimitSettings = LimitSettings()
         ) -> InboundMail:
    """Parse a mail; raises Refusal when it is outside the bounds of `limits`.

    The compat32 parser is used and the few headers we need are decoded here: the modern
    header classes parse every address header in full, which hostile mail makes slow."""
    screen(raw, limits)
    message = BytesParser(policy=policy.compat32).parsebytes(_start_of(raw))
    check_shape(message, limits)
    sender = _sender(message, envelope_from)
    raw_id = _raw_value(message, "Message-ID")
    return InboundMail(
        message_id=_msg_id(raw_id),
        sender=sender,
        subject=_header(message, "Subject"),
        body=_body_text(message),
        auto=_is_automatic(message, envelope_from, sender),
        references=" ".join(_msg_ids(_raw_value(message, "References"))[-MAX_REFERENCES:]),
        in_reply_to=_msg_id(_raw_value(message, "In-Reply-To")),
        message_key=key_of(raw_id, raw),
    )


def _start_of(raw: bytes) -> bytes:
    """The header and as much of the body as commands are read from: the parser costs a
    few microseconds a line, and a megabyte of short lines is 150,000 of them."""
    found = HEADER_END.search(raw)
    return raw[:(found.end() if found else len(raw)) + MAX_PARSED_BODY_BYTES]


def _raw_value(message: Message, name: str) -> str | None:
    """The first `name` header as sent, 8-bit bytes read as UTF-8 (or replaced)."""
    wanted = name.lower()
    for key, value in message.raw_items():
        if key.lower() == wanted:
            if isinstance(value, str):
                return value.encode("ascii", "surrogateescape").decode("utf-8", "replace")
            return str(value)
    return None


def _header(message: Message, name: str) -> str:
    """A header decoded (RFC 2047) and unfolded; "" when absent."""
    value = _raw_value(message, name)
    if value is None:
        return ""
    try:
        value = str(make_header(decode_header(value)))
    except Exception:  # a broken encoded word: keep the text as sent
        pass
    return " ".join(value.split())


def _msg_ids(value: str | None) -> list[str]:
    return [found for found in MSG_ID.findall(value or "") if len(found) <= MAX_MSG_ID]


def _msg_id(value: str | None) -> str | None:
    found = _msg_ids("".join((value or "").split()))
    return found[0] if found else None


def _sender(message: Message, envelope_from: str) -> str:
    """The address to answer: the first plain one of Reply-To, From and the envelope
    sender; "" when none is."""
    for header in ("Reply-To", "From"):
        found = _address(_raw_value(message, header))
        if found:
            return found
    candidate = envelope_from.strip().strip("<>")
    return candidate.lower() if _plain(candidate) else ""


def _address(value: str | None) -> str | None:
    """The first address of an address header, lower-cased, when it is plain."""
    value = (value or "").strip()
    if _plain(value):  # the common case, quickly
        return value.lower()
    if "@" not in value or len(value) > MAX_ADDRESS_FIELD:
        return None
    try:
        mailboxes = get_address_list(value)[0].all_mailboxes
    except Exception:  # RecursionError on nested comments, among others
        return None
    if not mailboxes or mailboxes[0].token_type != "mailbox":
        return None
    first = mailboxes[0]
    address = f"{first.local_part}@{first.domain}"
    return address.lower() if _plain(address) else None


def _plain(address: str) -> bool:
    local = address.rpartition("@")[0]
    return len(local) <= 64 and len(address) <= 254 and PLAIN_ADDRESS.fullmatch(address) \
        is not None


def _is_automatic(message: Message, envelope_from: str, sender: str) -> bool:
    auto = _header(message, "Auto-Submitted").lower()
    if auto and auto != "no":
        return True
    if _header(message, "Precedence").lower() in ("bulk", "junk", "list"):
        return True
    if any(_raw_value(message, name) is not None for name in AUTO_HEADERS):
        return True
    if envelope_from.strip() in ("<>",):
        return True
    local = sender.split("@")[0]
    return not sender or local in ("mailer-daemon", "postmaster")


def _body_part(message: Message) -> Message | None:
    """The part a person wrote: the first text/plain that is not an attachment, else the
    first such text/html. Forwarded messages (message/*) inside are not looked into."""
    html = None
    pending = [message]
    while pending:
        part = pending.pop(0)
        kind = part.get_content_type()
        if part.is_multipart():
            if kind.startswith("multipart/"):
                pending[:0] = [p for p in part.get_payload() if isinstance(p, Message)]
            continue
        # str(): compat32 hands an 8-bit header back as a Header object.
        if str(part.get("Content-Disposition") or "").strip().lower().startswith("attachment"):
            continue
        if kind == "text/plain":
            return part
        if kind == "text/html" and html is None:
            html = part
    return html


def _body_text(message: Message) -> str:
    part = _body_part(message)
    if part is None:
        return ""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    payload = payload[:MAX_BODY_BYTES]
    charset = part.get_content_charset() or "utf-8"
    try:
        text = payload.decode(charset, errors="replace")
    except LookupError:  # a charset Python does not know
        text = payload.decode("utf-8", errors="replace")
    if part.get_content_type() == "text/html":
        text = html_to_text(text)
    return text[:MAX_BODY_CHARS].replace("\r\n", "\n").replace("\r", "\n")


class _TextExtractor(HTMLParser):
    BLOCKS = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "pre", "blockquote"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self.skip = 0
        self.quote = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "head"):
            self.skip += 1
        if tag == "blockquote":
            self.quote += 1
        if tag in self.BLOCKS:
            self.chunks.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style", "head"):
            self.skip = max(0, self.skip - 1)
        if tag == "blockquote":
            self.quote = max(0, self.quote - 1)
        if tag in self.BLOCKS:
            self.chunks.append("\n")

    def handle_data(self, data):
        if self.skip:
            return
        if self.quote:
            # Quoted text from the mail being answered: mark it as quoted, as plain text does.
            data = "\n".join("> " + line for line in data.split("\n"))
        self.chunks.append(data)


def html_to_text(html: str) -> str:
    extractor = _TextExtractor()
    extractor.feed(html)
    extractor.close()
    lines = [" ".join(line.split()) for line in "".join(extractor.chunks).split("\n")]
    return "\n".join(line for line in lines)


def clean_subject(subject: str) -> str:
    """The subject without Re:/Fwd:/AW: prefixes and [tags]."""
    previous = None
    while previous != subject:
        previous = subject
        subject = PREFIX.sub("", subject)
    return subject.strip()


def body_lines(body: str) -> list[str]:
    """The body up to where a person stops writing: an end line, signature or quote."""
    lines: list[str] = []
    for raw_line in body.split("\n"):
        line = raw_line.strip()
        if raw_line.rstrip("\r") in ("-- ", "--") or line.startswith(">"):
            break
        if QUOTE_INTRO.match(line) or line.lower() in STOP_WORDS:
            break
        if WRAPPED_INTRO_END.search(line) and lines and WRAPPED_INTRO.match(lines[-1]):
            lines.pop()
            break
        if line.startswith("-----") and "original message" in line.lower():
            break
        lines.append(line)
    return lines


@dataclass(frozen=True)
class Commands:
    lines: list[str]
    comment: str | None
    left_out: int = 0  # command lines past the limit, not read
    subject_only: bool = False  # the one line is a Subject that is not a command


def commands(mail: InboundMail, limit: int = MAX_COMMAND_LINES) -> Commands:
    """The command lines of a mail and the comment that goes with them.

    A command in the Subject is the only command and the body is its comment. A Subject
    'multiple', or one that is not a command at all (a reply to a board mail), makes every
    body line a command.
    """
    subject = clean_subject(mail.subject)
    written = body_lines(mail.body)
    if (subject and subject.split()[0].lower() != "multiple" and is_command(subject)
            and not OUR_SUBJECT.match(subject)):
        comment = "\n".join(written).strip()
        return Commands([subject], comment or None)
    lines = [line for line in written if line]
    # Only the lines that may run are looked at: the rest is counted, never parsed.
    if subject and subject.lower() != "multiple" and not OUR_SUBJECT.match(subject) and \
            not any(is_command(line) for line in lines[:limit]):
        # No command in the body either: the Subject was meant as one (`mesage bob hi`).
        # Answer it, not the body's prose ("'Hi' is not a command" helps nobody).
        return Commands([subject], None, subject_only=True)
    return Commands(lines[:limit], None, max(0, len(lines) - limit))
