"""Regression tests for the accounts and logging findings of issue 42 ("Hidden by
construction"): each attack as it was run, refused."""

from __future__ import annotations

import io
import logging

import pytest

from app.data.logs import RedactTokens, configure_logging

RESET = "eyJ1IjoxLCJwIjoiYWJjIn0.Zx9-_a.c2lnbmF0dXJl"


@pytest.mark.parametrize(
    "line",
    [
        f"GET /password/reset/{RESET} HTTP/1.1",
        f"POST /verify/{RESET}?x=1 HTTP/1.1",
        f"GET /login?next=%2Fpassword%2Freset%2F{RESET} HTTP/1.1",
        f"GET /login?next=/verify/{RESET} HTTP/1.1",
    ],
)
def test_reset_and_verification_tokens_are_redacted_in_access_logs(line):
    """Finding 1: a logged reset link worked for 2 hours."""
    record = logging.LogRecord("werkzeug", logging.INFO, __file__, 1, "%s", (line,), None)
    assert RedactTokens().filter(record)
    assert RESET not in record.getMessage() and "[redacted]" in record.getMessage()


def test_tokens_are_redacted_from_every_logger_line_and_traceback():
    """Flask logs "Exception on /password/reset/<token> [GET]" on the app's own logger."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        configure_logging()
        out = io.StringIO()
        root.handlers[0].setStream(out)  # type: ignore[attr-defined]
        try:
            raise RuntimeError(f"while reading /verify/{RESET}")
        except RuntimeError:
            logging.getLogger("app.web").exception("Exception on /password/reset/%s [GET]", RESET)
        logging.getLogger("app.web").info("next=/annotate/link/%s", RESET)
    finally:
        root.handlers[:], _ = saved[0], root.setLevel(saved[1])
    written = out.getvalue()
    assert written.count("[redacted]") >= 3 and RESET not in written, written
