"""SIGKILL runs: uploads in flight, the board (web and its in-process worker) killed with
SIGKILL mid-queue and started again on the same instance folder. Every upload must end
scored exactly once: none lost, none failed, no metric written twice.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import requests
from sqlalchemy import create_engine, text

from tests.support.attack_world import variant
from tests.support.paths import DEMO_DATA
from tests.support.servers import free_port, wait_for_port

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class KillReport:
    sent: int
    scored: int
    failed: int
    lost: int
    duplicated: int
    kills: int
    in_flight: list[int]
    """Uploads queued or running at each SIGKILL."""
    errors: int
    """Answers of HTTP 500 to the uploads."""

    def line(self) -> str:
        return (
            f"SIGKILL x{self.kills} (in flight: {', '.join(map(str, self.in_flight))}): "
            f"{self.sent} sent, {self.scored} scored, {self.failed} "
            f"failed, {self.lost} lost, {self.duplicated} duplicated, {self.errors} HTTP 500"
        )

    @property
    def clean(self) -> bool:
        return self.sent == self.scored and not (self.lost or self.duplicated or self.errors)


class KilledBoard:
    """``nlgboard run`` on a folder of its own, restarted after each SIGKILL."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "NLGBOARD_INSTANCE": str(folder),
            "NLGBOARD_HEARTBEAT_STALE_SECONDS": "4",
            "NLGBOARD_RECOVERY_INTERVAL_SECONDS": "1",
            "NLGBOARD_QUEUED_GRACE_SECONDS": "1",
            "NLGBOARD_WARM_UP": "e2e",
        }
        self.env.pop("DATABASE_URL", None)
        self.process: subprocess.Popen | None = None

    def cli(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", "from app.entry.cli import main; main()", *args],
            env=self.env, capture_output=True, text=True, check=True,
        )  # fmt: skip
        return done.stdout.strip()

    def start(self) -> None:
        with (self.folder / "board.log").open("ab") as log:  # the child keeps its own copy
            self.process = subprocess.Popen(
                [sys.executable, "-c", "from app.entry.cli import main; main()", "run", "--port",
                 str(self.port)],
                env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        try:
            wait_for_port(self.port, timeout=60)
        except TimeoutError as error:  # say why the board did not come up
            log_tail = (self.folder / "board.log").read_text(errors="replace")[-3000:]
            raise TimeoutError(f"{error}; the board's log ends:\n{log_tail}") from None

    def kill(self) -> None:
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=20)

    def counts(self) -> dict[str, int]:
        return json.loads(self.cli("status", "--json"))["submissions"]


def sigkill_runs(folder: Path, kills: int = 2, uploads: int = 12) -> KillReport:
    board = KilledBoard(folder)
    board.cli("db", "upgrade")
    board.cli("challenge", "create", "k", "--title", "Killed")
    refs = DEMO_DATA / "references.csv"
    board.cli(
        "track", "import", "k", "t", "--kind", "e2e", "--refs", str(refs), "--daily-limit", "0"
    )
    token = board.cli("user", "create", "k@attack.test", "--team", "K")
    board.start()
    sent = errors = 0
    in_flight = []
    try:
        for _ in range(kills):
            batch = range(sent + 1, sent + uploads + 1)
            sent += uploads
            with ThreadPoolExecutor(6) as pool:
                statuses = list(pool.map(lambda k: _upload(board.url, token, k), batch))
            errors += sum(status >= 500 for status in statuses)
            board.kill()  # at once: the uploads are queued, one is being scored
            counts = board.counts()
            in_flight.append(counts.get("queued", 0) + counts.get("running", 0))
            board.start()
        _wait(lambda: board.counts().get("scored", 0) + board.counts().get("failed", 0) >= sent)
        counts = board.counts()
    finally:
        board.stop()
    return KillReport(
        sent, counts.get("scored", 0), counts.get("failed", 0),
        sent - counts.get("scored", 0) - counts.get("failed", 0),
        _duplicated(folder), kills, in_flight, errors,
    )  # fmt: skip


def _upload(url: str, token: str, k: int) -> int:
    name, data = variant(DEMO_DATA / "baseline.txt", k)
    answer = requests.post(
        f"{url}/api/v1/challenges/k/tracks/t/submissions",
        headers={"Authorization": f"Bearer {token}"},
        data={"system": f"s{k % 2}"},
        files={"file": (name, data)},
        timeout=60,
    )
    return answer.status_code


def _wait(done, seconds: float = 300) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError("the board did not get there in time")
        time.sleep(0.3)


def _duplicated(folder: Path) -> int:
    """Submissions with some metric written more than once."""
    engine = create_engine(f"sqlite:///{folder / 'nlgboard.sqlite3'}")
    with engine.connect() as db:
        found = db.execute(
            text(
                "SELECT count(DISTINCT submission_id) FROM (SELECT submission_id FROM scores"
                " GROUP BY submission_id, metric, subset HAVING count(*) > 1)"
            )
        ).scalar()
    engine.dispose()
    return int(found or 0)
