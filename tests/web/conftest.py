"""A real web view (aiohttp on a loopback port, in a thread of its own) over a real
migrated SQLite file, filled by the real mail commands (tests/commands' Runner)."""

from __future__ import annotations

import asyncio
import http.client
import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace

import pytest

from pbm.config import Config, WebSettings
from pbm.db.session import session_factory
from pbm.web.site import WebSite
from tests.commands.conftest import (  # noqa: F401  (fixtures the web tests use)
    Runner,
    account_rows,
    players,
    run,
)


@dataclass(frozen=True)
class Fetched:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode()


class LiveSite:
    """`pbm web` as a test drives it: started on a free port, stopped at the end."""

    def __init__(self, runner: Runner, config: Config) -> None:
        self.loop = asyncio.new_event_loop()
        self.site = WebSite(config, session_factory(runner.engine, read_only=True))
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.host, self.port = asyncio.run_coroutine_threadsafe(
            self.site.start("127.0.0.1", 0), self.loop).result(10)

    def get(self, path: str, headers: dict[str, str] | None = None,
            method: str = "GET") -> Fetched:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            conn.request(method, path, headers=headers or {})
            response = conn.getresponse()
            return Fetched(response.status, response.headers, response.read())
        finally:
            conn.close()

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.site.stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


def site_config(**web: object) -> Config:
    return replace(Config(), web=replace(WebSettings(), **web))


@pytest.fixture
def site(players: Runner) -> Iterator[LiveSite]:  # noqa: F811
    live = LiveSite(players, site_config())
    yield live
    live.stop()
