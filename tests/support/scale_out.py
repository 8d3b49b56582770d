"""Scale-out under faults: PostgreSQL, Redis and three ``nlgboard worker`` hosts, each in a
network namespace of its own (``tests.support.netns``); the web app in the root namespace.

N E2E uploads go through the API; with faults, while they are scored, one worker host is cut
off the network (and joined again later), another worker is killed with SIGKILL, Redis is
restarted (empty) and PostgreSQL is restarted, each once, as the scoring progresses. At the end
every accepted upload must be scored exactly once: no duplicate Score rows, no submission
scored twice (the workers' logs), none left queued or running.

Shared by tests/integration/test_scale_out.py and benchmarks/scale_out_faults.py.
"""

from __future__ import annotations

import csv
import io
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import requests
from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError

from app.data.config import Settings
from app.data.db import get_engine, session_scope
from app.data.models import Score, Submission, SubmissionStatus
from app.web.services.track_imports import import_items
from app.web.services.tracks import create_challenge
from tests.conftest import make_app, make_settings
from tests.integration.conftest import serve
from tests.support.factories import participant
from tests.support.netns import Network
from tests.support.paths import DEMO_DATA, E2E_DATA
from tests.support.servers import PostgresCluster, RedisServer, create_database

WORKER_HOSTS = ("w1", "w2", "w3")
HOSTS = ("db", "redis", *WORKER_HOSTS)


@dataclass(frozen=True)
class Outcome:
    faults: tuple[str, ...]
    uploads: int
    scored: int
    failed: int
    lost: int
    duplicates: int
    duplicate_rows: int
    seconds: float

    def line(self) -> str:
        kind = "with faults" if self.faults else "no faults"
        return (
            f"{kind:<12} uploads {self.uploads}  scored {self.scored}  failed {self.failed}  "
            f"duplicates {self.duplicates}  duplicate Score rows {self.duplicate_rows}  lost "
            f"{self.lost}  first upload to last score {self.seconds:.1f} s"
        )


@dataclass
class Cluster:
    network: Network
    postgres: PostgresCluster
    redis: RedisServer
    settings: Settings
    base_url: str
    token: str
    logs: Path
    workers: dict[str, subprocess.Popen] = field(default_factory=dict)

    def start_worker(self, host: str) -> None:
        log = self.logs / f"{host}-{len(list(self.logs.iterdir()))}.log"
        env = {
            **os.environ,
            "DATABASE_URL": self.settings.database_url,
            "REDIS_URL": self.settings.redis_url or "",
            "NLGBOARD_INSTANCE": str(self.settings.instance_path),
            "NLGBOARD_HEARTBEAT_STALE_SECONDS": str(self.settings.heartbeat_stale_seconds),
            "NLGBOARD_QUEUED_GRACE_SECONDS": str(self.settings.queued_grace_seconds),
            "NLGBOARD_RECOVERY_INTERVAL_SECONDS": str(self.settings.recovery_interval_seconds),
            "NLGBOARD_WARM_UP": "e2e",
            "NLGBOARD_LOG_FORMAT": "text",
        }
        with log.open("wb") as out:
            self.workers[host] = subprocess.Popen(
                [*self.network.on(host), sys.executable, "-c",
                 "from app.entry.cli import main; main()", "worker"],
                env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip

    def stop_workers(self) -> None:
        for process in self.workers.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.workers.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        self.workers.clear()

    def worker_logs(self) -> str:
        return "\n".join(log.read_text(errors="replace") for log in sorted(self.logs.iterdir()))


def test_set() -> tuple[bytes, list[str]]:
    """(references CSV, one reference per MR to build outputs from): 630 MRs of the E2E
    training set with 4,693 references (the E2E test set's size) when ../shared/data is
    there, else the demo's 10 MRs."""
    source = E2E_DATA / "trainset.csv"
    from scorer.io.e2e import read_dataset_csv

    if source.exists():
        items = [i for i in read_dataset_csv(source.read_bytes(), source.name)
                 if len(i.references) >= 9][:630]  # fmt: skip
        handle = io.StringIO()
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["mr", "ref"])
        for n, item in enumerate(items):
            for ref in item.references[1 : 9 if n < 283 else 8]:
                writer.writerow([item.input, " ".join(ref.split())])
        return handle.getvalue().encode(), [" ".join(i.references[0].split()) for i in items]
    demo = (DEMO_DATA / "references.csv").read_bytes()
    items = read_dataset_csv(demo, "references.csv")
    return demo, [" ".join(item.references[0].split()) for item in items]


def system_output(held_out: list[str], k: int) -> bytes:
    """System k's outputs: the held-out references, each file different."""
    lines = [text if (n + k) % 3 else text.rstrip(".") + f" ({k})" for n, text in
             enumerate(held_out)]  # fmt: skip
    return ("\n".join(lines) + "\n").encode()


@contextmanager
def cluster(work: Path, name: str) -> Iterator[Cluster]:
    with ExitStack() as exits:
        network = Network(list(HOSTS))
        exits.callback(network.remove)
        network.create()
        postgres = PostgresCluster(network.address("db"), network.on("db"))
        exits.callback(postgres.remove)
        postgres.start()
        redis = RedisServer(work, network.address("redis"), network.on("redis"))
        exits.callback(redis.stop)
        redis.start()
        settings = make_settings(
            work / f"instance-{name}",
            database_url=create_database(postgres.url, name),
            redis_url=redis.url,
            heartbeat_stale_seconds=3,
            recovery_interval_seconds=1,
            queued_grace_seconds=2,
        )
        app = make_app(settings, WTF_CSRF_ENABLED=False)
        base_url, shutdown = serve(app)
        exits.callback(shutdown)
        references, _ = test_set()
        with session_scope(settings.database_url) as session:
            challenge = create_challenge(session, "scale", "Scale-out")
            import_items(
                session, challenge, "test", "e2e", references=(references, "references.csv"),
                daily_limit=None,
            )  # fmt: skip
        token = participant(settings, "scale@example.org", team="Scale")
        logs = work / f"logs-{name}"
        logs.mkdir()
        found = Cluster(network, postgres, redis, settings, base_url, token, logs)
        exits.callback(found.stop_workers)
        yield found
        get_engine(settings.database_url).dispose()


def send(found: Cluster, count: int, held_out: list[str]) -> list[int]:
    """Upload ``count`` systems; return the accepted submissions' ids."""
    accepted = []
    for k in range(count):
        response = requests.post(
            f"{found.base_url}/api/v1/challenges/scale/tracks/test/submissions",
            headers={"Authorization": f"Bearer {found.token}"},
            files={"file": (f"system-{k}.txt", system_output(held_out, k))},
            data={"system": f"system-{k:03d}"},
            timeout=60,
        )
        if response.status_code == 202:
            accepted.append(response.json()["id"])
    return accepted


def statuses(found: Cluster, ids: list[int]) -> dict[int, SubmissionStatus]:
    try:
        with session_scope(found.settings.database_url) as session:
            rows = session.execute(
                select(Submission.id, Submission.status).where(Submission.id.in_(ids))
            ).all()
    except OperationalError:  # PostgreSQL is restarting
        return {}
    return {row.id: SubmissionStatus(row.status) for row in rows}


def finished(found: Cluster, ids: list[int]) -> int:
    done = (SubmissionStatus.SCORED, SubmissionStatus.FAILED)
    return sum(status in done for status in statuses(found, ids).values())


def faults(found: Cluster) -> list[tuple[str, Callable[[], None]]]:
    """The faults, in the order they are played."""

    def restart_redis() -> None:
        found.redis.stop(kill=True)
        time.sleep(1)
        found.redis.start()  # empty: every job it held is gone

    def restart_postgres() -> None:
        found.postgres.stop("fast")
        found.postgres.start()

    return [
        ("worker host w1 cut off the network", lambda: found.network.cut("w1")),
        ("worker w2 killed (SIGKILL)", lambda: os.killpg(found.workers["w2"].pid, signal.SIGKILL)),
        ("Redis restarted", restart_redis),
        ("PostgreSQL restarted", restart_postgres),
        ("worker host w1 back on the network", lambda: found.network.mend("w1")),
    ]


def run(found: Cluster, count: int, with_faults: bool, timeout: float = 600, say=print) -> Outcome:
    _, held_out = test_set()
    for host in WORKER_HOSTS:
        found.start_worker(host)
    deadline = time.monotonic() + 180
    while found.worker_logs().count("Listening on") < len(WORKER_HOSTS):
        if time.monotonic() > deadline:
            raise AssertionError(f"workers did not start\n{found.worker_logs()[-3000:]}")
        time.sleep(0.2)
    started = time.monotonic()
    ids = send(found, count, held_out)
    played = []
    if with_faults:
        plan = faults(found)
        for number, (name, play) in enumerate(plan):
            threshold = len(ids) * (number + 1) // (len(plan) + 2)
            while finished(found, ids) < threshold and time.monotonic() - started < timeout:
                time.sleep(0.05)
            play()
            played.append(name)
            say(f"  {time.monotonic() - started:5.1f} s: {name} ({finished(found, ids)} scored)")
    last = time.monotonic()
    while time.monotonic() - started < timeout:
        if finished(found, ids) == len(ids):
            last = time.monotonic()
            break
        time.sleep(0.05)
    found_statuses = statuses(found, ids)
    scored_lines = Counter(
        int(n) for n in re.findall(r"submission (\d+): scored\b", found.worker_logs())
    )
    with session_scope(found.settings.database_url) as session:
        duplicate_rows = len(
            session.execute(
                select(Score.submission_id)
                .where(Score.submission_id.in_(ids))
                .group_by(Score.submission_id, Score.metric, Score.subset, Score.language)
                .having(func.count() > 1)
            ).all()
        )
    found.stop_workers()
    done = (SubmissionStatus.SCORED, SubmissionStatus.FAILED)
    return Outcome(
        faults=tuple(played),
        uploads=len(ids),
        scored=sum(s == SubmissionStatus.SCORED for s in found_statuses.values()),
        failed=sum(s == SubmissionStatus.FAILED for s in found_statuses.values()),
        lost=sum(found_statuses.get(i) not in done for i in ids),
        duplicates=sum(n > 1 for n in scored_lines.values()),
        duplicate_rows=duplicate_rows,
        seconds=last - started,
    )
