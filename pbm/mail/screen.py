"""Bounds a raw mail must keep before anything parses it: header size and count, MIME shape.

Python's email parser is correct but not built for hostile input: a From: of thousands of
folded encoded words took seconds and gigabytes, two thousand nested multiparts raise
RecursionError, a megabyte of empty parts takes a second. So a mail is first measured with
cheap byte scans; only one inside every bound is handed to the parser.
"""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import Message

from pbm.config import LimitSettings

HEADER_END = re.compile(rb"\r?\n\r?\n")
FIELD_START = re.compile(rb"^[^ \t\r\n]", re.M)
# A Content-Type that makes the parser descend: multipart/* and message/* (rfc822 etc.).
CONTAINER = re.compile(rb"^content-type:[ \t]*(?:\r?\n[ \t]+)?(?:multipart|message)/", re.I | re.M)
BOUNDARY = re.compile(rb"""boundary[ \t]*=[ \t]*(?:"([^"\r\n]{1,200})"|([^;\s"]{1,200}))""", re.I)


class Refusal(Exception):
    """A mail refused at the door: outside the bounds (5xx), or not now (4xx). `code` and
    `status` make the SMTP answer; `reason` says in words what was wrong, for the SMTP
    answer and `pbm process`'s message."""

    def __init__(self, code: int, status: str, reason: str):
        super().__init__(reason)
        self.code, self.status, self.reason = code, status, reason

    def smtp_reply(self) -> str:
        return f"{self.code} {self.status} {self.reason}"

    def __str__(self) -> str:
        return self.reason


def too_large(what: str) -> Refusal:
    return Refusal(552, "5.3.4", what)


def too_complex(what: str) -> Refusal:
    return Refusal(554, "5.6.0", what)


def screen(raw: bytes, limits: LimitSettings) -> None:
    """Raise Refusal when `raw` is outside the bounds; cost: a few passes over the bytes."""
    found = HEADER_END.search(raw, 0, limits.max_header_bytes + 4)
    if found is None and len(raw) > limits.max_header_bytes:
        raise too_large(f"Message header larger than {limits.max_header_bytes} bytes")
    header = raw[: found.start()] if found else raw
    starts = [m.start() for m in FIELD_START.finditer(header)]
    if len(starts) > limits.max_headers:
        raise too_large(f"Message has more than {limits.max_headers} header fields")
    for begin, end in zip(starts, [*starts[1:], len(header)]):
        if end - begin > limits.max_header_field_bytes:
            name = header[begin: begin + 40].split(b":", 1)[0].decode("ascii", "replace")
            raise too_large(f"Header field {name!r} longer than "
                            f"{limits.max_header_field_bytes} bytes")
    # The parser descends once per container; this many bounds its recursion. The real
    # nesting depth is checked on the parsed tree (check_shape).
    if len(CONTAINER.findall(raw)) > limits.max_mime_parts:
        raise too_complex(f"Message has more than {limits.max_mime_parts} MIME parts")
    boundaries = {a or b for a, b in BOUNDARY.findall(raw)}
    # Every part starts at a delimiter line "--boundary"; counting them bounds the parts
    # before the parser makes an object of each.
    delimiters = sum(raw.count(b"\n--" + boundary) for boundary in boundaries)
    if delimiters > limits.max_mime_parts + len(boundaries):
        raise too_complex(f"Message has more than {limits.max_mime_parts} MIME parts")


def check_shape(message: Message, limits: LimitSettings) -> None:
    """Raise Refusal when the parsed tree nests deeper or has more parts than allowed."""
    parts = 0
    pending = [(message, 1)]
    while pending:
        part, depth = pending.pop()
        parts += 1
        if depth > limits.max_mime_depth:
            raise too_complex(f"Message nests MIME parts more than {limits.max_mime_depth} deep")
        if parts > limits.max_mime_parts:
            raise too_complex(f"Message has more than {limits.max_mime_parts} MIME parts")
        payload = part.get_payload()
        if isinstance(payload, list):
            pending.extend((child, depth + 1) for child in payload if isinstance(child, Message))


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Raise Refusal inside the block once `seconds` have passed (main thread only: for
    `pbm process`; `pbm serve` reads in threads and stops waiting instead)."""

    def expire(_signum, _frame) -> None:
        raise too_complex(f"Message took longer than {seconds} s to read")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
