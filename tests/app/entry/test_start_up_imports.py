"""``nlgboard run`` on the embedded default serves before it loads what only an RQ worker
needs: on a fresh clone every module imported before the first page is compiled first, and
RQ and Redis cost ~0.9 s of ``make run``'s time to it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

START = """
import json, os, sys, threading
started = []
class Recorder(threading.Thread):
    def start(self):
        started.append(self.name)
threading.Thread = Recorder
from app.data.config import Settings
from app.entry.root import start_embedded_worker, submission_queue
from app.web import create_app
settings = Settings.from_env()
start_embedded_worker(create_app(settings, queue=submission_queue(settings), pages=True))
loaded = sorted(m for m in ("rq", "redis", "worker.runner") if m in sys.modules)
print(json.dumps({"loaded": loaded, "threads": started}))
"""
"""The board as ``nlgboard run`` makes it, its worker started with threads recorded, not run:
what the serving thread itself imported."""


def test_the_embedded_board_starts_without_importing_rq_or_redis(tmp_path: Path) -> None:
    env = {
        key: value for key, value in os.environ.items() if key not in {"REDIS_URL", "DATABASE_URL"}
    }
    env |= {"PYTHONPATH": str(ROOT), "NLGBOARD_INSTANCE": str(tmp_path / "instance")}
    result = subprocess.run(
        [sys.executable, "-c", START],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    started = json.loads(result.stdout.splitlines()[-1])
    assert "warm-up" in started["threads"]
    assert started["loaded"] == []
