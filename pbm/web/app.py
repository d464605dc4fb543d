"""The web view's routes: each page is made in a thread from a read-only session, so the
event loop it shares with the SMTP front door never waits on the database."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from importlib.resources import files
from typing import Any

from aiohttp import web
from sqlalchemy.orm import Session, sessionmaker

from pbm.clock import SYSTEM, Clock
from pbm.config import Config
from pbm.views.record import record, record_text
from pbm.web import feeds, lookup
from pbm.web.board_view import board_page
from pbm.web.freshness import freshness
from pbm.web.front_view import front_page
from pbm.web.game_view import game_page
from pbm.web.page_cache import PageCache
from pbm.web.player_view import player_page
from pbm.web.render import Page, error_page, tag
from pbm.web.standing_view import ladder, tournament_page

log = logging.getLogger("pbm.web")

MAX_QUERY_BYTES = 1024  # more than any page of ours takes: a longer one is refused
THREADS = 4
RECORDS = {"json": "application/json", "txt": "text/plain; charset=utf-8",
           "atom": "application/atom+xml; charset=utf-8"}
# No script but our own, no frames, nothing fetched from elsewhere. The drawn boards carry
# style attributes, hence inline styles.
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
          "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")

Render = Callable[[Session], Page]


def _static(name: str, content_type: str) -> Page:
    return Page((files("pbm.web") / "static" / name).read_bytes(), content_type, max_age=86400)


STATIC = {"style.css": _static("style.css", "text/css; charset=utf-8"),
          "steps.js": _static("steps.js", "text/javascript; charset=utf-8"),
          # Named on every page, so that browsers do not ask for /favicon.ico.
          "favicon.svg": _static("favicon.svg", "image/svg+xml")}


class WebView:
    """The application and the threads it renders in."""

    def __init__(self, config: Config, read_factory: sessionmaker[Session],
                 clock: Clock = SYSTEM, threads: int = THREADS) -> None:
        self.config = config
        self.read_factory = read_factory
        self.clock = clock
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="pbm-web")
        self.site = config.server.name
        self.pages = PageCache()

    def application(self) -> web.Application:
        app = web.Application(middlewares=[self._guard])
        app.router.add_get("/", self.front)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/players/{name}", self.player)
        app.router.add_get("/{game}", self.game)
        app.router.add_get("/{game}/ladder", self.ladder)
        app.router.add_get("/{game}/tournaments/{name}", self.tournament)
        app.router.add_get("/{game}/{board}", self.board)
        app.on_cleanup.append(self._close)
        return app

    async def _close(self, _app: web.Application) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

    def base(self, request: web.Request) -> str:
        """The site's address for absolute links: the setting, else as this request came."""
        return self.config.web.base_url or f"{request.scheme}://{request.host}"

    async def static(self, request: web.Request) -> web.StreamResponse:
        """Our sheet and script, read once: the URL picks a name from a fixed list and
        never becomes a path."""
        found = STATIC.get(request.match_info["name"])
        if found is None:
            raise lookup.NotFound("There is no such file here.")
        return respond(request, found)

    # ----- the pages ------------------------------------------------------------------
    async def front(self, request: web.Request) -> web.StreamResponse:
        config = self.config
        return await self._render(request, lambda s: front_page(
            s, config.bots, self.site, config.server.address, config.web.base_url))

    async def game(self, request: web.Request) -> web.StreamResponse:
        game = self._game(request)
        query = dict(request.query)
        return await self._render(request, lambda s: game_page(
            s, game, query, self.clock.now(), self.config.web.page_size, self.site,
            self.config.web.base_url))

    async def ladder(self, request: web.Request) -> web.StreamResponse:
        game = self._game(request)
        return await self._render(request, lambda s: ladder(
            s, game, self.config.limits.ladder_reach, self.site))

    async def tournament(self, request: web.Request) -> web.StreamResponse:
        game = self._game(request)
        name = request.match_info["name"]
        return await self._render(request, lambda s: tournament_page(s, game, name, self.site))

    async def board(self, request: web.Request) -> web.StreamResponse:
        game = self._game(request)
        label, _, kind = request.match_info["board"].partition(".")
        if kind and kind not in RECORDS:
            raise lookup.NotFound(f"Boards have pages, and records as .json, .txt and "
                                  f".atom; not .{kind[:16]}.")
        base = self.base(request)
        move = request.query.get("move")
        seen = request.headers.get("If-None-Match")
        now = self.clock.now()

        def render(session: Session) -> Page:
            if not kind:
                return self._board_page(session, game, label, move, seen, now)
            board = lookup.board_named(session, game, label)
            if kind == "json":
                body = json.dumps(record(board, site=base), indent=1, ensure_ascii=False)
                return Page(body.encode(), RECORDS[kind])
            if kind == "txt":
                return Page(record_text(board).encode(), RECORDS[kind])
            return Page(feeds.board_feed(session, board, base, now), RECORDS["atom"])

        return await self._render(request, render)

    def _board_page(self, session: Session, game: str, label: str, move: str | None,
                    seen: str | None, now: datetime) -> Page:
        """A board's page: 304 where the reader has it, else the one made for the same
        freshness if kept, else made now (and kept)."""
        fresh = freshness(session, game, label)
        if fresh is None:
            lookup.board_named(session, game, label)  # says why there is none
            raise lookup.NotFound(f"There is no such board {label[:32]!r}.")
        upto = lookup.move_number(move, game, label, fresh.move_count)
        etag = tag(fresh, upto)
        if seen is not None and etag in seen:
            return Page(b"", status=304, etag=etag)
        key = (fresh.board_id, upto)
        page = self.pages.get(key, etag)
        if page is None:
            board = lookup.board_named(session, game, label)
            page = board_page(session, board, upto, now, self.config.web.base_url, self.site,
                              etag)
            self.pages.put(key, etag, page, fresh.active)
        return page

    async def player(self, request: web.Request) -> web.StreamResponse:
        userid, _, kind = request.match_info["name"].partition(".")
        if kind not in ("", "atom"):
            raise lookup.NotFound(f"A player has a page, and a feed as .atom; not "
                                  f".{kind[:16]}.")
        base = self.base(request)
        query = dict(request.query)
        now = self.clock.now()

        def render(session: Session) -> Page:
            user = lookup.player_named(session, userid)
            if kind == "atom":
                return Page(feeds.player_feed(session, user, base, now), RECORDS["atom"])
            return player_page(session, user, query, self.config.web.page_size, self.site,
                               self.config.web.base_url)

        return await self._render(request, render)

    # ----- how every page is made -------------------------------------------------------
    @staticmethod
    def _game(request: web.Request) -> str:
        word = request.match_info["game"]
        name = lookup.game_named(word)
        if name != word:  # an alias or another case: the one address of its page
            raw = request.raw_path
            first = raw[1:].split("/", 1)[0].split("?", 1)[0]
            raise web.HTTPMovedPermanently(f"/{name}{raw[1 + len(first):]}")
        return name

    async def _render(self, request: web.Request, render: Render) -> web.StreamResponse:
        loop = asyncio.get_running_loop()
        page = await loop.run_in_executor(self.pool, self._in_session, render)
        return respond(request, page)

    def _in_session(self, render: Render) -> Page:
        with self.read_factory() as session:
            return render(session)

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                     ) -> web.StreamResponse:
        """Every refusal as a short page that helps; a fault of ours as a 500 that says no
        more than that (the log has the rest)."""
        if len(request.query_string) > MAX_QUERY_BYTES:
            return respond(request, error_page(400, "Query too long", "This address asks "
                                               "too much; no page here takes a query this "
                                               "long."))
        try:
            return await handler(request)
        except lookup.NotFound as err:
            return respond(request, error_page(404, "Not found", str(err), hints(request)))
        except lookup.BadRequest as err:
            return respond(request, error_page(400, "Bad request", str(err), hints(request)))
        except web.HTTPNotFound:
            return respond(request, error_page(
                404, "Not found", "Nothing lives at this address.", hints(request)))
        except web.HTTPMethodNotAllowed:
            page = error_page(405, "Read only", "This site only shows things: GET them.")
            return respond(request, page, {"Allow": "GET, HEAD"})
        except web.HTTPException:
            raise  # redirects, and aiohttp's own refusals
        except Exception:
            log.exception("web page %s failed", request.path[:200])
            return respond(request, error_page(500, "Something went wrong",
                                               "This page failed on our side; the operator "
                                               "can see why in the log."))


def hints(request: web.Request) -> list[tuple[str, str]]:
    """Where a lost reader may go: the front page, and the game the address names."""
    found = [("/", "the front page: every game")]
    first = request.path.strip("/").split("/")[0]
    try:
        game = lookup.game_named(first) if first and first != "players" else None
    except lookup.NotFound:
        game = None
    if game is not None:
        found.append((f"/{game}", f"the {game} page: its boards, standings and rules"))
    return found


def respond(request: web.Request, page: Page,
            extra: dict[str, Any] | None = None) -> web.Response:
    """The response for `page`, with its caching headers: a reader who has it already
    gets 304 and no body."""
    etag = page.etag or (tag(page.body) if page.status == 200 else None)
    headers = {"X-Content-Type-Options": "nosniff", "Content-Security-Policy": POLICY,
               "Referrer-Policy": "same-origin", **page.headers, **(extra or {})}
    if page.status in (200, 304):
        headers["Cache-Control"] = f"public, max-age={page.max_age}"
    else:
        headers["Cache-Control"] = "no-store"
    if etag is not None:
        headers["ETag"] = etag
        if page.status == 304 or etag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers=headers)
    return web.Response(status=page.status, body=page.body, headers=headers,
                        content_type=page.content_type.split(";")[0], charset="utf-8")
