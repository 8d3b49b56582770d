"""Test-only RQ jobs (fault injection stays out of the job code, as rq's own tests do)."""

from __future__ import annotations

import time
from pathlib import Path


def hold(folder: str, timeout: float = 300) -> None:
    """Write ``started`` in ``folder``, then run until ``released`` appears there: a job that
    occupies its worker for as long as the test wants."""
    (Path(folder) / "started").touch()
    deadline = time.monotonic() + timeout
    while not (Path(folder) / "released").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
