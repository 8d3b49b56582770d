"""Structured logs: one JSON object per line, with the submission being scored.

Web processes and workers on several machines write to their own stderr; a log collector
(journald, Docker, Loki...) joins them, and ``submission_id`` is what an organiser greps for
when a team asks what happened to an upload. ``NLGBOARD_LOG_FORMAT=text`` gives plain lines.
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

SUBMISSION: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "submission_id", default=None
)
FORMAT_ENV = "NLGBOARD_LOG_FORMAT"
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


@contextmanager
def submission_context(submission_id: int) -> Iterator[None]:
    """Every record logged inside (by any module) carries ``submission_id``."""
    token = SUBMISSION.set(submission_id)
    try:
        yield
    finally:
        SUBMISSION.reset(token)


_make_record = logging.getLogRecordFactory()


def _record_with_submission(*args: Any, **kwargs: Any) -> logging.LogRecord:
    """Stamp the submission on the record when it is made (a handler may format it later,
    outside the job, as pytest's does)."""
    record = _make_record(*args, **kwargs)
    submission_id = SUBMISSION.get()
    if submission_id is not None:
        record.submission_id = submission_id
    return record


logging.setLogRecordFactory(_record_with_submission)


class JsonFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__()
        self.host = socket.gethostname()

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "host": self.host,
            "pid": record.process,
        }
        submission_id = getattr(record, "submission_id", None)
        if submission_id is not None:
            entry["submission_id"] = submission_id
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in entry:
                entry[key] = value if isinstance(value, (int, float, str, bool)) else str(value)
        if record.exc_text:
            entry["exception"] = record.exc_text
        elif record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


SECRET_LINKS = ("annotate/link", "setup/admin", "password/reset", "verify")
"""The paths whose next segment is a one-time secret."""


def _as_in_urls(text: str) -> str:
    """A pattern for ``text`` as a URL may carry it: each character itself or percent-encoded,
    once or twice (``a``, ``%61``, ``%2561``). The server decodes a path before routing it, so
    ``/p%61ssword/reset/...`` is the reset page; a ``next=`` holds a path encoded once more."""
    return "".join(f"(?:{re.escape(c)}|%(?:25)?{ord(c):02X})" for c in text)


class RedactTokens(logging.Filter):
    """Log lines lose the secret part of links: whoever reads the log could otherwise do the
    annotation HIT, make themselves the board's first administrator, choose an account's new
    password (a reset link works for hours) or confirm its address (the token is in the URL
    path, or in a ``next=`` on the way to logging in). On the access loggers and on the root
    handler, so an application line ("Exception on /password/reset/... [GET]") and its
    traceback lose it too. Access logs print the request as sent, and the server decodes it
    before routing, so the link's path and its token count in any percent-encoding: the token
    runs to the next separator, its escapes (``%41bc...``) and stray ``%`` included."""

    PATTERN = re.compile(
        "("
        + _as_in_urls("/")
        + "(?:"
        + "|".join(_as_in_urls(link) for link in SECRET_LINKS)
        + ")"
        + _as_in_urls("/")
        + r")[^\s/?&\"']+",
        re.IGNORECASE,
    )

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


def redact(text: str) -> str:
    """``text`` with the secret part of every one-time link replaced by ``[redacted]``."""
    return RedactTokens.PATTERN.sub(r"\1[redacted]", text)


ACCESS_LOGGERS = ("werkzeug", "gunicorn.access")
"""The development server's and gunicorn's request logs."""
SERVER_LOGGERS = (*ACCESS_LOGGERS, "gunicorn.error")
"""Loggers with handlers of their own (gunicorn's): the root handler's filter misses them.
gunicorn.error logs "Error handling request /password/reset/...", traceback and all."""


def configure_logging(level: int = logging.INFO) -> None:
    """Root handler on stderr, JSON unless ``NLGBOARD_LOG_FORMAT=text``; called once by each
    process entry point (worker, embedded server, gunicorn's app factory)."""
    handler = logging.StreamHandler()
    if os.environ.get(FORMAT_ENV, "json").lower() == "text":
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    else:
        handler.setFormatter(JsonFormatter())
    handler.addFilter(RedactTokens())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in SERVER_LOGGERS:
        access = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in access.filters):
            access.addFilter(RedactTokens())
