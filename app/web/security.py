"""Response headers and cookie flags every page gets (OWASP secure-headers defaults)."""

from __future__ import annotations

import os
from typing import Any

from flask import Flask, Response, abort, make_response, render_template, request
from flask_login import current_user
from werkzeug.routing import IntegerConverter, Map

CSP_DIRECTIVES = (
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",  # width of histogram bars (style attributes)
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
)
CONTENT_SECURITY_POLICY = "; ".join(CSP_DIRECTIVES)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
SECURE_COOKIES_ENV = "NLGBOARD_SECURE_COOKIES"


def secure_cookies() -> bool:
    """Session cookies only over HTTPS unless ``NLGBOARD_SECURE_COOKIES=0`` (which
    ``nlgboard run`` sets for the embedded default served over plain HTTP on loopback)."""
    return os.environ.get(SECURE_COOKIES_ENV, "1") != "0"


MAX_ID = 2**31 - 1
"""Ids are the database's INTEGER columns: 32 bits on PostgreSQL (``integer out of range``
past this), whatever SQLite would store."""


class BoundedIntConverter(IntegerConverter):
    """``<int:...>`` in every route: an id past the database's integers is a 404, not an
    overflow error (HTTP 500)."""

    def __init__(self, url_map: Map, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", MAX_ID)
        super().__init__(url_map, *args, **kwargs)


def form_id(value: str | None) -> int | None:
    """A positive id from a form field, or None (missing, not a number, out of range).
    ASCII digits only: ``"²".isdigit()`` is true, but ``int("²")`` raises."""
    if value is None or not (value.isascii() and value.isdigit()) or len(value) > 19:
        return None
    number = int(value)
    return number if 0 < number <= MAX_ID else None


def secret_page(template: str, **context: Any) -> Response:
    """A page that shows a secret once (an API token, one-time links): never cached."""
    page = make_response(render_template(template, **context))
    page.headers["Cache-Control"] = "no-store"
    return page


def install(app: Flask) -> None:
    app.url_map.converters["int"] = BoundedIntConverter
    secure = secure_cookies()
    app.config.update(
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=secure,
        REMEMBER_COOKIE_HTTPONLY=True,
        REMEMBER_COOKIE_SECURE=secure,
        REMEMBER_COOKIE_SAMESITE="Lax",
    )

    @app.before_request
    def refuse_nul_paths() -> None:
        """No slug, name or token holds NUL, and PostgreSQL text cannot (psycopg raises, an
        HTTP 500): a path with one names nothing here."""
        if "\x00" in request.path:
            abort(404)

    @app.after_request
    def add_headers(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        if request.is_secure:
            response.headers.setdefault("Strict-Transport-Security", "max-age=31536000")
        if _for_one_viewer():
            response.headers["Cache-Control"] = PERSONAL_CACHE_CONTROL
        elif request.path.startswith("/api/") or response.mimetype == "text/html":
            response.headers.setdefault("Cache-Control", "no-store")
        return response


PERSONAL_CACHE_CONTROL = "private, no-store"
"""What a signed-in person or a token gets (a team's hidden test-phase scores, an organiser's
view, in pages, exports and plots alike): kept by no cache, shared or the browser's."""


def _for_one_viewer() -> bool:
    """Whether the answer may depend on who asked: a session or an API token, not a static
    file (the same for everyone)."""
    if request.endpoint == "static":
        return False
    if "Authorization" in request.headers:
        return True
    return bool(getattr(current_user, "is_authenticated", False))
