"""Board pages made earlier, kept in memory and served again while their board has not
changed: a page linked from a mail is read by its players and spectators many times
between moves, and each reading then costs one small query instead of a replay."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

from pbm.web.render import Page

PAGES = 4_000  # at about 10 KB each, 40 MB at most
ACTIVE_SECONDS = 60  # a running board's clock moves on: its page is made again after this


class PageCache:
    """The newest PAGES pages by (board id, position), each under the ETag it was made
    for; least recently served go first."""

    def __init__(self, size: int = PAGES) -> None:
        self.size = size
        self._pages: OrderedDict[tuple[int, int | None], tuple[str, float, Page]] = \
            OrderedDict()
        self._lock = threading.Lock()  # pages are made in several threads

    def get(self, key: tuple[int, int | None], etag: str) -> Page | None:
        with self._lock:
            found = self._pages.get(key)
            if found is None or found[0] != etag or found[1] < time.monotonic():
                return None
            self._pages.move_to_end(key)
            return found[2]

    def put(self, key: tuple[int, int | None], etag: str, page: Page, active: bool) -> None:
        until = time.monotonic() + (ACTIVE_SECONDS if active else 86_400)
        with self._lock:
            self._pages[key] = (etag, until, page)
            self._pages.move_to_end(key)
            while len(self._pages) > self.size:
                self._pages.popitem(last=False)
