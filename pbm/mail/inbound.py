"""Read an inbound mail: who sent it, whether to answer it, and its command lines."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser, BytesParser
from email.utils import getaddresses
from html.parser import HTMLParser

from pbm.commands.grammar import is_command

PREFIX = re.compile(r"^\s*((re|fwd?|aw|wg|sv|antw|tr)\s*(\[\d+\])?\s*:|\[[^\]]*\])\s*", re.I)
QUOTE_INTRO = re.compile(r"^\s*(on\b.*wrote:|am\b.*schrieb.*:|le\b.*a écrit\s*:)\s*$", re.I)
# Gmail wraps a long "On <date> <name> <address> wrote:" over two lines.
WRAPPED_INTRO = re.compile(r"^\s*on\b", re.I)
WRAPPED_INTRO_END = re.compile(r"\bwrote:\s*$", re.I)
# Subjects of our own mails ("Trou Board 101 bob", "Trou Board 101 Error", "Trou error",
# "List of Trou games") start like commands; a reply to one carries its commands in the body.
OUR_SUBJECT = re.compile(r"^(new\s+)?[\w-]+\s+(board\s+\d+\b|error$)|^list\s+of\b", re.I)
STOP_WORDS = {"end", "stop"}
MAX_COMMAND_LINES = 100


@dataclass(frozen=True)
class InboundMail:
    message_id: str | None
    sender: str  # the address to answer ("" if none)
    subject: str
    body: str
    auto: bool  # auto-submitted, bulk/list or from <>: never answered
    references: str


def message_key(raw: bytes) -> str:
    """The key that makes a mail processed once: its Message-ID, or a digest of its bytes."""
    headers = BytesHeaderParser(policy=policy.compat32).parsebytes(raw)
    message_id = (headers.get("Message-ID") or "").strip()
    if message_id:
        return message_id[:500]
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def read(raw: bytes, envelope_from: str = "") -> InboundMail:
    message = BytesParser(policy=policy.default).parsebytes(raw)
    assert isinstance(message, EmailMessage)
    sender = _sender(message, envelope_from)
    return InboundMail(
        message_id=_header(message, "Message-ID") or None,
        sender=sender,
        subject=_header(message, "Subject"),
        body=_body_text(message),
        auto=_is_automatic(message, envelope_from, sender),
        references=_header(message, "References"),
    )


def _header(message: EmailMessage, name: str) -> str:
    try:
        value = message.get(name)
    except Exception:  # a header so broken the parser gives up on it: treat as absent
        return ""
    return " ".join(str(value).split()) if value is not None else ""


def _sender(message: EmailMessage, envelope_from: str) -> str:
    for header in ("Reply-To", "From"):
        value = _header(message, header)
        if value:
            for _name, address in getaddresses([value]):
                if "@" in address:
                    return address.lower()
    if "@" in envelope_from:
        return envelope_from.strip("<>").lower()
    return ""


def _is_automatic(message: EmailMessage, envelope_from: str, sender: str) -> bool:
    auto = _header(message, "Auto-Submitted").lower()
    if auto and auto != "no":
        return True
    if _header(message, "Precedence").lower() in ("bulk", "junk", "list"):
        return True
    if _header(message, "List-Id") or _header(message, "List-Unsubscribe"):
        return True
    if envelope_from.strip() in ("<>",):
        return True
    local = sender.split("@")[0]
    return not sender or local in ("mailer-daemon", "postmaster")


def _body_text(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    try:
        text = part.get_content()
    except (LookupError, UnicodeError, AssertionError):
        payload = part.get_payload(decode=True) or b""
        text = payload.decode("utf-8", errors="replace")
    if not isinstance(text, str):
        text = bytes(text).decode("utf-8", errors="replace")
    if part.get_content_subtype() == "html":
        text = html_to_text(text)
    return text.replace("\r\n", "\n").replace("\r", "\n")


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
    lines = []
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


def commands(mail: InboundMail) -> Commands:
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
    if not lines and subject and subject.lower() != "multiple":
        # Nothing in the body either: answer the Subject, so the reply says what is wrong.
        return Commands([subject], None)
    return Commands(lines[:MAX_COMMAND_LINES], None)
