"""Serving the web view on an address, in the caller's event loop: `pbm serve --web` runs
it beside the SMTP front door, `pbm web` alone."""

from __future__ import annotations

import logging

from aiohttp import web
from sqlalchemy.orm import Session, sessionmaker

from pbm.clock import SYSTEM, Clock
from pbm.config import Config
from pbm.web.app import WebView

log = logging.getLogger("pbm.web")


class WebSite:
    """The view listening on one address until stopped."""

    def __init__(self, config: Config, read_factory: sessionmaker[Session],
                 clock: Clock = SYSTEM) -> None:
        self.view = WebView(config, read_factory, clock)
        self.runner: web.AppRunner | None = None

    async def start(self, host: str, port: int) -> tuple[str, int]:
        """Listen; the address it listens on (port 0 picks a free one)."""
        # No access log line per page: the operator's proxy keeps those, and a busy site
        # would drown the mail's lines.
        self.runner = web.AppRunner(self.view.application(), access_log=None,
                                    handle_signals=False, shutdown_timeout=2)
        await self.runner.setup()
        site = web.TCPSite(self.runner, host, port, )
        await site.start()
        bound = self.runner.addresses[0]
        log.info("web view on http://%s:%s/", bound[0], bound[1])
        return bound[0], bound[1]

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None
