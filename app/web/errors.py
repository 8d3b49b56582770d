"""Error pages: JSON under /api/, HTML elsewhere; never a stack trace."""

from __future__ import annotations

import logging

from flask import Flask, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import DBAPIError, OperationalError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from app.web.services import DomainError

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 30
"""What a client is told to wait when the database cannot be reached (a restart, a failover)."""


def register(app: Flask) -> None:
    @app.errorhandler(RequestEntityTooLarge)
    def too_large(exc: RequestEntityTooLarge) -> ResponseReturnValue:
        limit = app.config["UPLOAD_MAX_BYTES"]
        return _render(
            413, f"The upload is larger than the {limit:,}-byte limit. Nothing was stored."
        )

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError) -> ResponseReturnValue:
        return _render(
            400,
            f"{exc.description} The form has expired or was not sent from this site: "
            "go back, reload the page and send it again.",
        )

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> ResponseReturnValue:
        return _render(exc.code or 500, exc.description or exc.name)

    @app.errorhandler(DomainError)
    def refused(exc: DomainError) -> ResponseReturnValue:
        """A rule a view did not catch itself: the person is told which, not a 500."""
        return _render(400, f"Refused: {exc}. Nothing was changed.")

    @app.errorhandler(DBAPIError)
    def database_error(exc: DBAPIError) -> ResponseReturnValue:
        """A connection lost or refused (PostgreSQL restarting) is the board's passing state,
        not a bug: 503 with Retry-After, and the driver's message stays in the log."""
        if not (isinstance(exc, OperationalError) or exc.connection_invalidated):
            return internal_error(exc)
        log.warning("database unavailable on %s %s: %s", request.method, request.path, exc.orig)
        seconds = RETRY_AFTER_SECONDS
        answer = app.make_response(
            _render(
                503,
                "The board cannot reach its database just now (a restart, most likely); "
                f"nothing was changed. Try again in {seconds} seconds.",
            )
        )
        answer.headers["Retry-After"] = str(seconds)
        return answer

    @app.errorhandler(Exception)
    def internal_error(exc: Exception) -> ResponseReturnValue:
        log.exception("unhandled error on %s %s", request.method, request.path)
        return _render(500, "Something went wrong on our side. Nothing you uploaded was lost.")


def _render(status: int, message: str) -> ResponseReturnValue:
    if request.path.startswith("/api/"):
        response = jsonify({"error": message})
        response.status_code = status
        return response
    return render_template("error.html", status=status, message=message), status
