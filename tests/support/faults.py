"""Fault scenarios on a real stack (PostgreSQL, redis-server, ``nlgboard worker`` processes):
N submissions in flight, one fault injected, then every submission must end ``scored`` exactly
once or ``failed`` with a reason; none lost, stuck or duplicated.

Shared by tests/integration/test_faults.py and benchmarks/faults.py. The submissions go to an
SR'18-style track (no JVM in the scoring path), so a hundred of them take seconds to score and
the fault lands while many are still queued or running.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import requests
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from app.data.db import get_engine, session_scope
from app.data.models import Submission, SubmissionStatus
from tests.conftest import make_app, make_settings
from tests.integration.conftest import Stack, serve
from tests.support.factories import participant, sr18_tracks
from tests.support.servers import PostgresCluster, RedisServer, create_database

FAULTS = ("kill -9 worker", "redis restart", "database outage", "two workers, same job")
SENTENCES = b"The chef cooks pasta .\nOur cat sleeps .\nVisitors liked the bridge .\nIt rained .\n"


@dataclass(frozen=True)
class Report:
    fault: str
    sent: int
    scored: int
    failed: int
    lost: int
    duplicated: int
    seconds: float
    reasons: tuple[str, ...] = ()

    def line(self) -> str:
        return (
            f"{self.fault:<24} sent {self.sent:4d}  scored {self.scored:4d}  failed "
            f"{self.failed:3d}  lost {self.lost:3d}  duplicated {self.duplicated:3d}  "
            f"({self.seconds:.0f} s)"
        )


@dataclass
class FaultStack:
    stack: Stack
    redis: RedisServer
    postgres: PostgresCluster
    token: str


@contextmanager
def fault_stack(work: Path, name: str) -> Iterator[FaultStack]:
    with ExitStack() as exits:
        postgres = PostgresCluster()
        postgres.start()
        exits.callback(postgres.remove)
        redis = RedisServer(work)
        redis.start()
        exits.callback(redis.stop)
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
        stack = Stack(settings, base_url, app)
        exits.callback(stack.stop_workers)
        sr18_tracks(settings, daily_limit=None)  # a hundred uploads from one team
        token = participant(settings, "faults@example.org", team="Faults")
        yield FaultStack(stack, redis, postgres, token)
        get_engine(settings.database_url).dispose()


def send(stack: Stack, token: str, count: int) -> list[int]:
    ids = []
    for k in range(count):
        response = requests.post(
            f"{stack.base_url}/api/v1/challenges/sr18/tracks/shallow/submissions",
            headers={"Authorization": f"Bearer {token}"},
            files={"file": ("en_out.txt", SENTENCES)},
            data={"system": f"system-{k:03d}", "language": "en"},
            timeout=30,
        )
        assert response.status_code == 202, response.text
        ids.append(response.json()["id"])
    return ids


def statuses(stack: Stack, ids: list[int]) -> dict[int, tuple[str, str | None]]:
    try:
        with session_scope(stack.settings.database_url) as session:
            rows = session.execute(
                select(Submission.id, Submission.status, Submission.error).where(
                    Submission.id.in_(ids)
                )
            ).all()
    except OperationalError:  # the database may be the fault being played
        return {}
    return {row.id: (SubmissionStatus(row.status).value, row.error) for row in rows}


def wait_started(stack: Stack, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        logs = stack.worker_logs()
        if logs.count("Listening on") >= len(stack.workers):
            return
        time.sleep(0.5)
    raise AssertionError(f"workers did not start\n{stack.worker_logs()}")


def wait_scored(stack: Stack, ids: list[int], at_least: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done = sum(status != "queued" for status, _ in statuses(stack, ids).values())
        if done >= at_least:
            return
        time.sleep(0.05)


def run(faults: FaultStack, fault: str, count: int = 100, timeout: float = 240) -> Report:
    stack = faults.stack
    stack.start_worker(NLGBOARD_WARM_UP="sr18")
    stack.start_worker(NLGBOARD_WARM_UP="sr18")
    wait_started(stack)
    started = time.monotonic()
    ids = send(stack, faults.token, count)
    wait_scored(stack, ids, count // 5, timeout=60)
    inject(faults, fault, ids)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = statuses(stack, ids)
        if len(found) == count and all(s in ("scored", "failed") for s, _ in found.values()):
            break
        time.sleep(0.5)
    found = statuses(stack, ids)
    scored_lines = Counter(
        int(n) for n in re.findall(r"submission (\d+): scored", stack.worker_logs())
    )
    return Report(
        fault=fault,
        sent=count,
        scored=sum(status == "scored" for status, _ in found.values()),
        failed=sum(status == "failed" for status, _ in found.values()),
        lost=sum(found.get(i, ("missing", None))[0] not in ("scored", "failed") for i in ids),
        duplicated=sum(n > 1 for n in scored_lines.values()),
        seconds=time.monotonic() - started,
        reasons=tuple(
            sorted({error or "" for status, error in found.values() if status == "failed"})
        ),
    )


def inject(faults: FaultStack, fault: str, ids: list[int]) -> None:
    stack = faults.stack
    if fault == "kill -9 worker":
        stack.kill_worker(stack.workers[0])
        stack.start_worker(NLGBOARD_WARM_UP="sr18")
    elif fault == "redis restart":
        faults.redis.stop(kill=True)
        time.sleep(1)
        faults.redis.start()  # empty: every job still queued is gone from Redis
    elif fault == "database outage":
        faults.postgres.stop("fast")
        time.sleep(3)
        faults.postgres.start()
    elif fault == "two workers, same job":
        from redis import Redis
        from rq import Queue

        from app.data.queue import JOB_FUNCTION, QUEUE_NAME

        queue = Queue(QUEUE_NAME, connection=Redis.from_url(faults.redis.url))
        for submission_id in ids:
            for copy in range(2):
                queue.enqueue_call(
                    JOB_FUNCTION, args=(submission_id,), job_id=f"copy{copy}-{submission_id}"
                )
    else:
        raise ValueError(f"unknown fault {fault!r}; known: {', '.join(FAULTS)}")
