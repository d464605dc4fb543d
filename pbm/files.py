"""Files that hold players' mail and passwords: readable by their owner only."""

from __future__ import annotations

import os
import stat
from pathlib import Path

PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700


def owner_only(path: str | os.PathLike) -> None:
    """Take group and other access away from `path`, if it exists and is ours to change."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
        if mode & 0o077:
            os.chmod(path, mode & ~0o077)
    except (FileNotFoundError, PermissionError):
        pass  # gone meanwhile, or another user's file: not ours to change


def secure_database(path: str) -> None:
    """A SQLite database file and its WAL and shared-memory files, owner only."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        owner_only(path + suffix)


def private_folder(path: Path) -> None:
    """Make the folder (and missing parents) if needed; one we make is owner only."""
    if not path.is_dir():
        path.mkdir(mode=PRIVATE_FOLDER, parents=True, exist_ok=True)
        owner_only(path)
