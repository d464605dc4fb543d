"""A consistent copy of a live SQLite database, through SQLite's online backup."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from pbm.files import PRIVATE_FILE, secure_database

STEPS = 20  # progress lines of a big backup: about one per 5 %
LEAST_PAGES = 1024  # pages per step at least (4 MB of 4 KB pages)


class BackupError(Exception):
    """The backup could not be made; the message says why and names the file."""


def backup(database: Path, target: Path, *, force: bool = False,
           progress: Callable[[str], None] | None = None) -> str:
    """Copy `database` to `target` as one snapshot, while others go on writing; returns the
    copy's `PRAGMA quick_check` verdict ("ok"). `progress` hears the pages done after each
    step ("1,024 of 20,480 pages")."""
    if not database.is_file():
        raise BackupError(f"no database at {database}")
    if target.exists() and not force:
        raise BackupError(f"{target} exists; give --force to overwrite it")
    if target.resolve() == database.resolve():
        raise BackupError(f"{target} is the database itself")
    # Written beside the target, then renamed: a failed backup never leaves a half copy
    # under the target's name, nor spoils an older backup there.
    staged = target.with_name(f".{target.name}.partial")
    staged.unlink(missing_ok=True)
    os.close(os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))
    try:
        source = sqlite3.connect(database, timeout=30)
        try:
            copy = sqlite3.connect(staged)
            try:
                # One read transaction held across every step, so one snapshot of the
                # database (in WAL mode writers go on meanwhile and are not copied): a step
                # uses the transaction the source has open rather than a fresh one.
                source.execute("BEGIN")
                source.execute("SELECT count(*) FROM sqlite_master").fetchone()  # it begins
                pages = source.execute("PRAGMA page_count").fetchone()[0]
                step = max(LEAST_PAGES, -(-pages // STEPS))

                def said(_status: int, remaining: int, total: int) -> None:
                    if progress is not None:
                        progress(f"{total - remaining:,} of {total:,} pages")

                source.backup(copy, pages=step, progress=said)
                source.rollback()
                verdict = copy.execute("PRAGMA quick_check").fetchone()[0]
                if progress is not None:
                    progress(f"checked the copy: {verdict}")
            finally:
                copy.close()
        finally:
            source.close()
        secure_database(str(staged))
        os.replace(staged, target)
    except sqlite3.Error as err:
        raise BackupError(f"cannot back up {database}: {err}") from None
    finally:
        for leftover in (staged, Path(f"{staged}-wal"), Path(f"{staged}-shm"),
                         Path(f"{staged}-journal")):
            leftover.unlink(missing_ok=True)
    return verdict
