"""A few seconds' cache of public pages for anonymous visitors.

Leaderboards are read far more often than they change (a score lands every few minutes); a page
up to ``PUBLIC_CACHE_SECONDS`` old is fine for the public. Signed-in people (teams see their own
hidden rows, organisers everything) and API calls with a token are never served from it. Each
web process keeps its own small cache, so there is nothing to share or invalidate.
"""

from __future__ import annotations

import functools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from flask import Response, current_app, make_response, request, session
from flask_login import current_user

DEFAULT_SECONDS = 5.0
MAX_ENTRIES = 512

_lock = threading.Lock()
_entries: OrderedDict[str, tuple[float, Response]] = OrderedDict()
_refreshing: set[str] = set()


def _cacheable() -> bool:
    return (
        request.method == "GET"
        and not getattr(current_user, "is_authenticated", False)
        and "Authorization" not in request.headers
        and not session.get("_flashes")
        and current_app.config.get("PUBLIC_CACHE_SECONDS", DEFAULT_SECONDS) > 0
    )


def public_cache(view: Callable) -> Callable:
    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not _cacheable():
            return view(*args, **kwargs)
        key = f"{request.host}{request.full_path}"
        now = time.monotonic()
        with _lock:
            hit = _entries.get(key)
            if hit is not None and (hit[0] > now or key in _refreshing):
                # Fresh, or another thread is already drawing the new one: serve this one
                # rather than have every waiting request render the page at once.
                _entries.move_to_end(key)
                return _copy(hit[1])
            _refreshing.add(key)
        try:
            response = make_response(view(*args, **kwargs))
            if (
                response.status_code == 200
                and not response.is_streamed
                and "Set-Cookie" not in response.headers  # never replay one visitor's session
            ):
                response.headers["Cache-Control"] = "public, max-age=5"
                seconds = current_app.config.get("PUBLIC_CACHE_SECONDS", DEFAULT_SECONDS)
                with _lock:
                    _entries[key] = (time.monotonic() + seconds, response)
                    while len(_entries) > MAX_ENTRIES:
                        _entries.popitem(last=False)
            return response
        finally:
            with _lock:
                _refreshing.discard(key)

    return wrapper


def _copy(response: Response) -> Response:
    copy = Response(
        response.get_data(), status=response.status_code, headers=list(response.headers)
    )
    return copy


def clear() -> None:
    with _lock:
        _entries.clear()
