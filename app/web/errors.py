"""The web layer's errors and how the board answers every error: JSON under /api/, an HTML page
elsewhere; never a stack trace.

A refusal (``scorer.errors.Refused``: a bad file, a kind's definition, a board rule) is answered
here, once: its status (``STATUS``) and its wording (``refusal``); a view that shows a refusal
beside its form, and stays on the page, catches ``Refused`` itself. The classes live here, not
with the services that raise them, so this module stays cheap to import (the CLI loads it).
"""

from __future__ import annotations

import logging

from flask import Flask, g, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from sqlalchemy.exc import DBAPIError, OperationalError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from scorer.errors import Refused

log = logging.getLogger(__name__)


class DomainError(Refused):
    """A request that breaks a board rule; the message is shown to the person as it is."""


class TooManyRequests(DomainError):
    """A client address used up its minute or hour of registrations or its hour of account
    mails. The answer is the same whether or not the address asked about has an account."""


class BundleError(DomainError):
    """A bundle refused: the message names the file and the key or line."""


class CampaignBundleError(DomainError):
    """A bundle's campaign refused: the message names the file and the key or line."""


STATUS: dict[type[Refused], int] = {TooManyRequests: 429}
"""The HTTP status of a refusal by its class (or the nearest base class listed); else 400."""


def status_of(error: Refused) -> int:
    return next((STATUS[c] for c in type(error).__mro__ if c in STATUS), 400)


RETRY_AFTER_SECONDS = 30
"""What a client is told to wait when the database cannot be reached (a restart, a failover)."""


def register(app: Flask) -> None:
    from flask_wtf.csrf import CSRFError

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

    @app.errorhandler(Refused)
    def refused(exc: Refused) -> ResponseReturnValue:
        """A refusal a view did not show beside its form: the person is told which rule, not
        a 500."""
        _discard_unfinished()
        return _render(status_of(exc), refusal(exc))

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
        _discard_unfinished()
        return _render(500, "Something went wrong on our side. Nothing you uploaded was lost.")


def _discard_unfinished() -> None:
    """Roll back what the request left unfinished in its session: after a failed statement
    (a constraint the database refused) the session answers nothing until then, and the
    error page itself reads through it (the signed-in person)."""
    session = g.get("db_session")
    if session is None:
        return
    try:
        session.rollback()
    except Exception:  # the connection itself is gone: the page is drawn without it
        log.exception("rolling back the request's session failed")


def refusal(error: Refused) -> str:
    """What a person is told of a refusal: the rule it broke, and that nothing changed (the
    API's wording is the one ``nlgboard-submit`` prints)."""
    if request.path.startswith("/api/"):
        return f"refused: {error}; nothing was stored"
    return f"Refused: {error}. Nothing was changed."


def _render(status: int, message: str) -> ResponseReturnValue:
    if request.path.startswith("/api/"):
        response = jsonify({"error": message})
        response.status_code = status
        return response
    return render_template("error.html", status=status, message=message), status
