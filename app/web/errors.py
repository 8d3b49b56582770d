"""Error pages: JSON under /api/, HTML elsewhere; never a stack trace."""

from __future__ import annotations

import logging

from flask import Flask, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

log = logging.getLogger(__name__)


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
