"""Tests wait on a state, not for a time: they poll until what they wait for holds (a status in
the database, a mail in the inbox, a file a job writes). The deadline is only a safety net for
a hang, long enough that a loaded machine (``make test``'s three processes beside other work,
load 5 on two cores) never reaches it while the state is on its way: a short fixed timeout
made tests fail that had nothing wrong but a slow machine."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

STATE_DEADLINE = 600.0
"""Seconds a test waits for a state before it calls the wait a hang (a safety net only)."""
PAGE_DEADLINE = 120.0
"""Seconds the browser waits for a page or an element of it (its own steps, no job behind)."""

Value = TypeVar("Value")


def wait_until(
    predicate: Callable[[], Value],
    what: str,
    timeout: float = STATE_DEADLINE,
    details: Callable[[], str] | None = None,
) -> Value:
    """Poll ``predicate`` until it returns something true, and return that; past ``timeout``
    seconds fail, naming ``what`` was awaited (and ``details()``, e.g. a worker's log)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            extra = f"\n{details()}" if details else ""
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}{extra}")
        time.sleep(0.1)
