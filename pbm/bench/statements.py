"""SQL statements a real `pbm serve` executes, counted per thread inside it for `pbm bench mail`.

The bench starts the server as `python -c LAUNCH --config ... serve`: LAUNCH installs the
counter and then runs the very `python -m pbm` a plain start runs, so the counts are those of
the real server's code path (its writer, courier and readers), not of a test's imitation. The
counter is a SQLAlchemy `before_cursor_execute` listener on every engine: each statement sent
to the database counts once (BEGIN included; a COMMIT is the driver's, not a statement). On
SIGUSR1 the process writes its running counts to the file the environment variable names.
"""

from __future__ import annotations

import json
import os
import signal
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event

ENV = "PBM_BENCH_STATEMENTS"  # the file the counts go to; unset: nothing is counted
# The server, as `python -m pbm` would run it, with the counter installed first.
LAUNCH = ("import runpy, pbm.bench.statements as counted; counted.install_from_env(); "
          "runpy.run_module('pbm', run_name='__main__', alter_sys=True)")
WRITER = "pbm-receive"  # the name of the server's one writer thread (pbm/mail/smtpd.py)


class _Counts:
    def __init__(self, path: Path):
        self.path = path
        self.by_thread: Counter[str] = Counter()
        # Re-entrant: SIGUSR1's dump may run in the main thread while it is counting.
        self.lock = threading.RLock()
        self.dumps = 0

    def count(self, *_args: Any) -> None:
        name = threading.current_thread().name
        with self.lock:
            self.by_thread[name] += 1

    def dump(self, *_args: Any) -> None:
        """Write {pid, dumps, counts} atomically: a reader never sees half a file."""
        with self.lock:
            counts = dict(self.by_thread)
        staged = self.path.with_name(self.path.name + ".tmp")
        staged.write_text(json.dumps({"pid": os.getpid(), "dumps": self.dumps,
                                      "counts": counts}), encoding="utf-8")
        os.replace(staged, self.path)
        self.dumps += 1


def install(path: Path) -> None:
    """Count every statement of every engine this process makes from now on; write the counts
    to `path` now (with this process's id) and again on each SIGUSR1."""
    counts = _Counts(path)
    event.listen(Engine, "before_cursor_execute", counts.count)
    signal.signal(signal.SIGUSR1, counts.dump)  # the main thread: this runs before the server
    counts.dump()


def install_from_env() -> None:
    path = os.environ.get(ENV)
    if path:
        install(Path(path))


def read(path: Path, after: int = -1) -> dict[str, Any] | None:
    """The counts in `path` if it holds a dump later than `after`, else None."""
    try:
        found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if found["dumps"] > after else None
