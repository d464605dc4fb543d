"""Idempotent Maildir delivery: one file name per outbox mail, so a crash never doubles it."""

from __future__ import annotations

import calendar
import hashlib
import os
import re
from datetime import datetime
from pathlib import Path

from pbm.files import PRIVATE_FILE, private_folder

# <created seconds>.<outbox id>-<digest of the Message-ID>.pbm: the same outbox row always
# gets the same name (no "/" nor ":", which Maildir reserves for flags), so after a crash
# a mail that is already in new/ or cur/ can be recognised and not written twice.
OUR_NAME = re.compile(r"^\d+\.\d{10,}-[0-9a-f]{16}\.pbm$")
MESSAGE_ID = re.compile(rb"(?:^|\r\n)Message-ID:[ \t]*(<[^\r\n]*>)", re.I)


class Maildir:
    """A Maildir we write replies into: tmp/, then an atomic rename into new/."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.tmp, self.new, self.cur = (self.path / part for part in ("tmp", "new", "cur"))
        self._made = False

    @staticmethod
    def name_for(ident: int, created_at: datetime, raw: bytes) -> str:
        head = raw.split(b"\r\n\r\n", 1)[0]
        found = MESSAGE_ID.search(head)
        digest = hashlib.sha256(found.group(1) if found else raw).hexdigest()[:16]
        return f"{calendar.timegm(created_at.timetuple())}.{ident:010d}-{digest}.pbm"

    def make(self) -> None:
        if not self._made:
            # Replies quote players' mail: folders we make are owner only, like the files.
            private_folder(self.path)
            for folder in (self.tmp, self.new, self.cur):
                private_folder(folder)
            self._made = True

    def put(self, name: str, raw: bytes) -> None:
        """Write the mail durably into tmp/ and rename it into new/ (LF line endings: the
        Maildir convention). A leftover tmp/ file of the same name is overwritten."""
        self.make()
        staged = self.tmp / name
        fd = os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE)
        try:
            data = memoryview(raw.replace(b"\r\n", b"\n"))
            while data:
                data = data[os.write(fd, data):]
            os.fsync(fd)  # the data is on disk before the name in new/ promises it
        finally:
            os.close(fd)
        os.rename(staged, self.new / name)

    def sync(self) -> None:
        """Make the renames into new/ durable (once per round, before they are recorded)."""
        self.make()
        fd = os.open(self.new, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def delivered(self, names: set[str]) -> set[str]:
        """Those of `names` already in new/, or in cur/ (where a mail reader renames `name`
        to `name:2,S`); cur/ is listed once for all of them."""
        found = {name for name in names if os.path.exists(self.new / name)}
        if found != names:
            try:
                seen = {entry.split(":", 1)[0] for entry in os.listdir(self.cur)}
            except FileNotFoundError:
                seen = set()
            found |= names & seen
        return found

    def clean_tmp(self) -> int:
        """Remove our own leftovers from tmp/ (a courier killed while writing); files of
        other programs sharing the Maildir are left alone."""
        removed = 0
        try:
            entries = os.listdir(self.tmp)
        except FileNotFoundError:
            return 0
        for entry in entries:
            if OUR_NAME.match(entry):
                try:
                    os.unlink(self.tmp / entry)
                    removed += 1
                except FileNotFoundError:
                    pass
        return removed
