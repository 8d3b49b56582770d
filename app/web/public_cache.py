"""Public pages drawn once and shared among anonymous visitors until the board changes.

Leaderboards are read far more often than they change. A page is shared only among requests
that carry neither a cookie nor an ``Authorization`` header: nobody signed in, no token, no
session, so the page is the one the disclosure rule draws for the public (``PUBLIC``) and for
nobody else. A signed-in person, a token, or any cookie at all goes through the app as usual
and never gets a shared copy, nor leaves one.

A drawn page is labelled with the board's change counter as it stood before the page read the
database (``app.data.changes``: every committed write moves it on, in the write's own
transaction), and served only while the counter is unchanged: a new score, a publication, a
phase, an anonymity or a withdrawal shows on the next request. ``PUBLIC_CACHE_SECONDS`` bounds
a page's age besides, for what changes with the clock alone (a deadline passing); once a page
is that old and the counter unchanged, one request draws it again while the others are served
the old one.

A hit is served here, in front of the Flask app (``PublicPages`` wraps its WSGI callable):
on the leaderboard, the request context, the session and login checks, the hooks and copying
the response took most of a request's time, and a hit now costs one read of the counter. The
pages carry an ETag and ``Cache-Control: no-cache``, so a browser or proxy may keep one but asks
each time (a 304 when unchanged).
"""

from __future__ import annotations

import functools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import current_app, make_response, request

from app.data import changes

if TYPE_CHECKING:
    from flask import Flask

DEFAULT_SECONDS = 5.0
MAX_ENTRIES = 512
SHARED_CACHE_CONTROL = "no-cache"
"""Any cache may keep a shared page, but must ask again each time (ETag, 304): a change shows
at once downstream too."""
VARY = "Cookie, Authorization"

_LABEL = "nlgboard.public_page.mark"
"""The WSGI environ's entry where the view leaves the counter its page was drawn at."""


@dataclass(frozen=True)
class Page:
    mark: int
    until: float
    status: str
    headers: list[tuple[str, str]]
    body: bytes
    etag: str | None


def shared(environ: dict[str, Any]) -> bool:
    """Whether a request may be served a shared page, or leave one: a GET with no cookie and
    no ``Authorization`` header (nobody signed in, no token, no session)."""
    return (
        environ.get("REQUEST_METHOD") == "GET"
        and "HTTP_COOKIE" not in environ
        and "HTTP_AUTHORIZATION" not in environ
    )


def _seconds(app: Flask) -> float:
    return float(app.config.get("PUBLIC_CACHE_SECONDS", DEFAULT_SECONDS))


def public_cache(view: Callable) -> Callable:
    """Mark a view's page as one anonymous visitors may share (``PublicPages`` keeps it)."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        environ = request.environ
        if not shared(environ) or _seconds(current_app) <= 0:
            return view(*args, **kwargs)
        if _LABEL not in environ:  # taken before the view reads anything
            environ[_LABEL] = changes.current(
                current_app.extensions["nlgboard.settings"].database_url
            )
        response = make_response(view(*args, **kwargs))
        if response.status_code != 200 or response.is_streamed or environ[_LABEL] is None:
            environ.pop(_LABEL, None)
            return response
        response.headers["Cache-Control"] = SHARED_CACHE_CONTROL
        response.vary.update(("Cookie", "Authorization"))
        response.add_etag()
        return response.make_conditional(request)

    return wrapper


class PublicPages:
    """WSGI middleware in front of the app: serves a shared page while the counter it was
    drawn at is current, and keeps what ``public_cache`` views draw for anonymous visitors.
    Each web process keeps its own pages (at most ``MAX_ENTRIES``, the least recently served
    dropped first)."""

    def __init__(self, app: Flask, wsgi_app: Callable, database_url: str):
        self.app = app
        self.wsgi_app = wsgi_app
        self.database_url = database_url
        self._lock = threading.Lock()
        self._pages: OrderedDict[tuple[str, ...], Page] = OrderedDict()
        self._refreshing: set[tuple[str, ...]] = set()

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        if not shared(environ) or _seconds(self.app) <= 0:
            return self.wsgi_app(environ, start_response)
        key = (
            environ.get("wsgi.url_scheme", ""),
            environ.get("HTTP_HOST") or environ.get("SERVER_NAME", ""),
            environ.get("SCRIPT_NAME", ""),
            environ.get("PATH_INFO", ""),
            environ.get("QUERY_STRING", ""),
        )
        with self._lock:
            page = self._pages.get(key)
        if page is not None:
            mark = changes.current(self.database_url)
            if mark is not None and mark == page.mark:
                with self._lock:
                    # Fresh, or another request is drawing it again: serve this one rather
                    # than have every waiting request draw the page at once.
                    serve = page.until > time.monotonic() or key in self._refreshing
                    if serve:
                        self._pages.move_to_end(key)
                    else:
                        self._refreshing.add(key)
                if serve:
                    return self._serve(page, environ, start_response)
            environ[_LABEL] = mark
            claimed = mark is not None and mark == page.mark
        else:
            claimed = False
        try:
            return self._draw(key, environ, start_response)
        finally:
            if claimed:
                with self._lock:
                    self._refreshing.discard(key)

    def _draw(
        self, key: tuple[str, ...], environ: dict[str, Any], start_response: Callable
    ) -> Iterable[bytes]:
        started: list[Any] = []

        def keep(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            started[:] = [status, headers]
            return start_response(status, headers, *exc_info)

        body = self.wsgi_app(environ, keep)
        mark = environ.get(_LABEL)
        if mark is None or not started or not started[0].startswith("200"):
            return body
        status, headers = started
        if any(name.lower() == "set-cookie" for name, _ in headers):
            return body  # never replay one visitor's session
        try:
            data = b"".join(body)
        finally:
            close = getattr(body, "close", None)
            if close is not None:
                close()
        etag = next((value for name, value in headers if name.lower() == "etag"), None)
        page = Page(mark, time.monotonic() + _seconds(self.app), status, headers, data, etag)
        with self._lock:
            self._pages[key] = page
            self._pages.move_to_end(key)
            while len(self._pages) > MAX_ENTRIES:
                self._pages.popitem(last=False)
        return [data]

    @staticmethod
    def _serve(page: Page, environ: dict[str, Any], start_response: Callable) -> list[bytes]:
        asked = environ.get("HTTP_IF_NONE_MATCH")
        if page.etag is not None and asked is not None and _matches(asked, page.etag):
            headers = [(n, v) for n, v in page.headers if n.lower() != "content-length"]
            start_response("304 NOT MODIFIED", headers)
            return []
        start_response(page.status, page.headers)
        return [page.body]


def _matches(header: str, etag: str) -> bool:
    """Whether an ``If-None-Match`` header names ``etag`` (weakly, as RFC 9110 asks of it)."""
    tags = {tag.strip().removeprefix("W/") for tag in header.split(",")}
    return "*" in tags or etag.removeprefix("W/") in tags
