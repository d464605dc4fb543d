"""What a page handler returns, and the templates that write it (Jinja2, autoescaped)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

HTML = "text/html; charset=utf-8"


@dataclass(frozen=True)
class Page:
    """A response as the pages make it, before aiohttp: its status, body and how long
    browsers and proxies may keep it."""

    body: bytes
    content_type: str = HTML
    status: int = 200
    etag: str | None = None  # a strong tag of what the page shows; None: none
    max_age: int = 60  # seconds a cache may keep it without asking again
    headers: dict[str, str] = field(default_factory=dict)


@cache
def environment() -> Environment:
    """One environment for the process: templates compiled once, every value escaped
    unless a view marks it as already-built HTML (Markup)."""
    return Environment(loader=PackageLoader("pbm.web", "templates"),
                       autoescape=select_autoescape(["html", "xml"]),
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def html_page(template: str, status: int = 200, etag: str | None = None,
              max_age: int = 60, **values: object) -> Page:
    """`template` filled with `values`, as an HTML page."""
    body = environment().get_template(template).render(**values).encode()
    return Page(body, HTML, status, etag, max_age)


def tag(*parts: object) -> str:
    """A strong ETag from what a page depends on: it changes when any of them does."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()
    return f'"{digest}"'


def error_page(status: int, title: str, message: str, hints: list[tuple[str, str]] | None = None
               ) -> Page:
    """A short page that says what was wrong and where to go instead: never a traceback."""
    return html_page("error.html", status=status, max_age=0, title=title, message=message,
                     hints=hints or [("/", "the front page")], og=None, base="")
