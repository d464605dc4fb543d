"""Turn a reply into the bytes of an RFC 5322/5321-clean mail: CRLF, no line over 998 bytes."""

from __future__ import annotations

import binascii
import functools
import hashlib
import re
from email.header import Header
from email.utils import formataddr, formatdate

from pbm.config import ServerSettings
from pbm.context import Reply
from pbm.mail.inbound import InboundMail
from pbm.mail.threads import Threading, threading

# The message is built as bytes from a list of header lines and an encoded body rather
# than through email.message: it is several times faster on the move path, and every byte
# that goes on the wire is ours to check.
CRLF = "\r\n"
MAX_LINE = 998  # RFC 5321 4.5.3.1.6 / RFC 5322 2.1.1, without the CRLF
FOLD_AT = 78  # RFC 5322 2.1.1: lines SHOULD be no longer than this
MAX_WORD = 900  # a longer word cannot be folded at whitespace: it goes as encoded-words
LINE_BREAK = re.compile(r"\r\n|\r|\n")
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def compose(reply: Reply, recipient: str, server: ServerSettings,
            inbound: InboundMail | None = None, taken: set[str] | None = None) -> bytes:
    """The wire form (CRLF line endings) of `reply` to `recipient`, answering `inbound`;
    a mail about a board hangs in its thread (see threads.py). `taken`: the Message-IDs
    given so far in this batch.

    A non-ASCII recipient stays raw UTF-8 in To: (RFC 6532); delivery converts it where the
    relay cannot take that."""
    return compose_with_id(reply, recipient, server, inbound, taken)[0]


def compose_with_id(reply: Reply, recipient: str, server: ServerSettings,
                    inbound: InboundMail | None = None, taken: set[str] | None = None
                    ) -> tuple[bytes, str]:
    """compose(), and the Message-ID the mail was given (the outbox keeps it: a bounce
    counts only when it names it)."""
    # RFC 3834: answers to a person are auto-replied; board updates are auto-generated.
    submitted = "auto-replied" if reply.kind == "answer" else "auto-generated"
    found = threading(server.hostname, recipient, thread=reply.thread, opens=reply.opens,
                      parent=inbound.message_id if inbound else None,
                      references=inbound.references if inbound else "", taken=taken)
    headers = [
        "From: " + _mailbox(server.name, server.address),
        "To: " + _recipient(recipient),
        "Subject: " + _unstructured(reply.subject, "Subject"),
        "Date: " + formatdate(usegmt=True),
        *_threading(found),
        "Auto-Submitted: " + submitted,
        "MIME-Version: 1.0",
    ]
    body, charset, encoding = encode_body(reply.body)
    plain = [f'Content-Type: text/plain; charset="{charset}"',
             f"Content-Transfer-Encoding: {encoding}"]
    if reply.html is None:
        return (CRLF.join(headers + plain) + CRLF + CRLF).encode("utf-8") + body, \
            found.message_id
    return (CRLF.join(headers) + CRLF).encode("utf-8") + alternative(body, plain, reply.html), \
        found.message_id


def alternative(body: bytes, plain: list[str], html: str) -> bytes:
    """A multipart/alternative of the encoded text part (`plain`: its headers) and `html`,
    from its Content-Type header on. The text part's bytes are exactly the plain mail's."""
    document, encoding = _html_part(html)
    boundary = _boundary(body, document)
    delimiter = b"--" + boundary.encode("ascii")
    # The CRLF before a delimiter belongs to it (RFC 2046 5.1.1): each part keeps its own
    # last line ending only with one more in front of the delimiter.
    return b"".join((
        f'Content-Type: multipart/alternative; boundary="{boundary}"'.encode("ascii"),
        (CRLF + CRLF).encode("ascii"),
        delimiter, b"\r\n", (CRLF.join(plain) + CRLF + CRLF).encode("ascii"), body,
        b"\r\n", delimiter, b"\r\n",
        b'Content-Type: text/html; charset="utf-8"\r\n'
        b"Content-Transfer-Encoding: " + encoding + b"\r\n\r\n", document,
        b"\r\n", delimiter, b"--\r\n",
    ))


@functools.lru_cache(maxsize=16)
def _html_part(html: str) -> tuple[bytes, bytes]:
    """The HTML part's body and its transfer encoding. What is not ASCII is written as
    character references (a browser reads them as the characters), so a document in short
    lines, as board mails are (games/kit.py), goes as it is: 7bit, no quoted-printable
    (which a raw board mail's '=' signs and soft breaks made a third bigger). Remembered:
    the spectators of a board share one document, and compose() runs once per address."""
    data = _crlf(html).encode("ascii", "xmlcharrefreplace")
    if _seven_bit(data):
        return data, b"7bit"
    return binascii.b2a_qp(data, istext=True), b"quoted-printable"  # it breaks long lines


def _seven_bit(data: bytes) -> bool:
    """ASCII without NUL in lines of at most MAX_LINE bytes (RFC 2045 2.7)."""
    return data.isascii() and b"\0" not in data and \
        max(map(len, data.split(b"\r\n"))) <= MAX_LINE


def _boundary(*parts: bytes) -> str:
    """A boundary found in no part. Quoted-printable never holds '=_' (every '=' is followed
    by hex digits or a line break), so only a 7bit part (a player's comment, in the text or
    in the document) could hold it, and not this digest of their own bytes."""
    digest = hashlib.blake2b(digest_size=12)
    for part in parts:
        digest.update(part)
    while True:
        boundary = "=_pbm_" + digest.hexdigest()
        if not any(boundary.encode("ascii") in part for part in parts):
            return boundary
        digest.update(b"again")  # a collision cannot happen by chance; keep it impossible


def _crlf(text: str) -> str:
    # Most text has bare LF line ends only: str.replace is far quicker than the pattern.
    text = text.replace("\n", CRLF) if "\r" not in text else LINE_BREAK.sub(CRLF, text)
    return text if text.endswith(CRLF) else text + CRLF


def subject_text(text: str) -> str:
    """The Subject as it goes out: one line, runs of whitespace (and control characters)
    made one space, a lone surrogate (which no charset can send) a '?'. A reader sees the
    same; folding keeps it exactly."""
    text = text.encode("utf-8", "replace").decode("utf-8")
    return " ".join(CONTROL.sub(" ", text).split())


def encode_body(text: str) -> tuple[bytes, str, str]:
    """(bytes, charset, transfer encoding) of a text body with CRLF line endings.

    Plain ASCII with short lines (most boards) goes as 7bit; anything else, such as a
    player's comment with a 5,000-character line or an umlaut, as quoted-printable UTF-8,
    which keeps a board readable in the raw mail where base64 would not."""
    data = _crlf(text).encode("utf-8", "replace")  # "replace": a lone surrogate cannot be sent
    if _seven_bit(data):
        return data, "us-ascii", "7bit"
    return binascii.b2a_qp(data, istext=True), "utf-8", "quoted-printable"


def _mailbox(name: str, address: str) -> str:
    name = subject_text(name)
    if name.isascii() and len(name) <= 60:
        return formataddr((name, address))
    return Header(name, "utf-8", header_name="From").encode(linesep=CRLF) + f" <{address}>"


def _recipient(address: str) -> str:
    address = CONTROL.sub("", address).strip()
    if not address or len(address.encode("utf-8")) > MAX_LINE - len("To: "):
        raise ValueError(f"not an address mail can be sent to: {address[:80]!r}")
    return address


def _unstructured(text: str, name: str) -> str:
    """A header value folded at spaces, or as encoded-words when it is not plain ASCII, has
    a word too long to fold, or would read as an encoded-word itself."""
    text = subject_text(text)
    if not text.isascii() or "=?" in text or any(len(word) > MAX_WORD for word in text.split()):
        return Header(text, "utf-8", header_name=name).encode(linesep=CRLF)
    return _fold(text, len(name) + 2)


def _fold(text: str, used: int) -> str:
    """Fold single-spaced ASCII text before spaces so lines stay near FOLD_AT."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and used + len(line) + 1 + len(word) > FOLD_AT:
            lines.append(line)
            line, used = word, 1  # a continuation line starts with the folding space
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return (CRLF + " ").join(lines)


def _threading(found: Threading) -> list[str]:
    """Message-ID, In-Reply-To and References (RFC 5322 3.6.4), made safe."""
    lines = [f"Message-ID: {found.message_id}"]
    if found.in_reply_to:
        lines.append(f"In-Reply-To: {found.in_reply_to}")
    if found.references:
        lines.append("References: " + (CRLF + " ").join(found.references))
    return lines
