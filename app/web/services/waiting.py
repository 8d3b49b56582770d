"""Where a waiting submission stands: its place in the scoring line and when its scores should
land, for the pages and the API (the database is the truth: the scoring queue serves
submissions in the order they arrived).

The estimate replays the line on the workers busy now, each job taking what recent jobs on its
own test set took (measured from claim to scores). One typical time for every job, taken from
whatever was scored last, under-estimated badly: after the small demo runs, a 630-output E2E
job "3rd in line, about 6 s" took 22 s.
"""

from __future__ import annotations

import heapq
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.data.models import Item, Submission, SubmissionStatus, System, TestSet
from app.data.models.base import utcnow

RECENT_JOBS = 20
"""How many recent jobs of a test set its typical job time is the median of."""
HISTORY = 500
"""Recent scored jobs read for the estimate (every test set's recent ones, in one query)."""
OVERRUN_SHARE = 0.1
"""A job already running past its typical time is given this share of it again."""

TestSetKey = tuple[int, str]
"""(track id, language): one test set."""


@dataclass(frozen=True)
class Standing:
    position: int
    """1: being scored, or next; 2: one submission ahead of it ..."""
    estimate_seconds: float | None
    """Until its scores land, from measured job times; None before any job was timed."""

    def as_dict(self) -> dict[str, float | int | None]:
        return {"position": self.position, "estimate_seconds": self.estimate_seconds}


@dataclass(frozen=True)
class JobTimes:
    """Measured seconds from claim to scores of recent jobs."""

    by_test_set: dict[TestSetKey, float]
    """Median of a test set's last RECENT_JOBS jobs."""
    per_item: float | None
    """Median seconds per test item, for a test set with no timed job yet."""
    overall: float | None
    """Median of all recent jobs, when item counts are unknown."""

    def expected(self, key: TestSetKey, items: int | None) -> float | None:
        if key in self.by_test_set:
            return self.by_test_set[key]
        if self.per_item is not None and items:
            return self.per_item * items
        return self.overall


@dataclass(frozen=True)
class _Waiting:
    id: int
    status: SubmissionStatus
    created_at: datetime
    started_at: datetime | None
    key: TestSetKey


def job_times(session: Session, sizes: dict[TestSetKey, int]) -> JobTimes:
    rows = session.execute(
        select(
            Submission.started_at,
            Submission.finished_at,
            System.track_id,
            Submission.language,
        )
        .join(System, System.id == Submission.system_id)
        .where(
            Submission.status == SubmissionStatus.SCORED,
            Submission.started_at.is_not(None),
            Submission.finished_at.is_not(None),
        )
        .order_by(Submission.finished_at.desc())
        .limit(HISTORY)
    ).all()
    durations: dict[TestSetKey, list[float]] = defaultdict(list)
    for started, finished, track_id, language in rows:
        if started and finished and len(durations[(track_id, language)]) < RECENT_JOBS:
            durations[(track_id, language)].append((finished - started).total_seconds())
    rates = [
        seconds / sizes[key]
        for key, found in durations.items()
        if sizes.get(key)
        for seconds in found
    ]
    every = [seconds for found in durations.values() for seconds in found]
    return JobTimes(
        {key: statistics.median(found) for key, found in durations.items()},
        statistics.median(rates) if rates else None,
        statistics.median(every) if every else None,
    )


def item_counts(session: Session) -> dict[TestSetKey, int]:
    """(track id, language) -> number of test items, for every test set."""
    rows = session.execute(
        select(TestSet.track_id, TestSet.language, func.count(Item.id))
        .join(Item, Item.test_set_id == TestSet.id)
        .group_by(TestSet.id)
    )
    return {(track_id, language): count for track_id, language, count in rows}


def standings(session: Session, submissions: Sequence[Submission]) -> dict[int, Standing]:
    """Submission id -> its standing, for those of ``submissions`` that are queued or running."""
    waiting = [
        s for s in submissions if s.status in (SubmissionStatus.QUEUED, SubmissionStatus.RUNNING)
    ]
    if not waiting:
        return {}
    line = _line(session)
    place = {job.id: k for k, job in enumerate(line, 1)}
    sizes = item_counts(session)
    finish = _replay(line, job_times(session, sizes), sizes)
    return {
        submission.id: Standing(place.get(submission.id, 1), finish.get(submission.id))
        for submission in waiting
    }


def _line(session: Session) -> list[_Waiting]:
    """Every running and queued submission, in the order the workers take them."""
    rows = session.execute(
        select(
            Submission.id,
            Submission.status,
            Submission.created_at,
            Submission.started_at,
            System.track_id,
            Submission.language,
        )
        .join(System, System.id == Submission.system_id)
        .where(Submission.status.in_([SubmissionStatus.RUNNING, SubmissionStatus.QUEUED]))
    ).all()
    jobs = [
        _Waiting(r.id, r.status, r.created_at, r.started_at, (r.track_id, r.language)) for r in rows
    ]
    return sorted(jobs, key=lambda j: (j.status != SubmissionStatus.RUNNING, j.created_at, j.id))


def _replay(
    line: list[_Waiting], times: JobTimes, sizes: dict[TestSetKey, int]
) -> dict[int, float]:
    """Seconds from now until each job's scores land: a running job takes what is left of its
    typical time, and each queued job goes to the first worker free (as many workers as jobs
    are running, at least one). A job whose time cannot be guessed ends the replay."""
    now = utcnow()
    finish: dict[int, float] = {}
    free: list[float] = []
    """When each busy worker is free again, in seconds from now (a heap)."""
    for job in line:
        expected = times.expected(job.key, sizes.get(job.key))
        if expected is None:
            break
        if job.status == SubmissionStatus.RUNNING:
            elapsed = (now - job.started_at).total_seconds() if job.started_at else 0.0
            finish[job.id] = max(expected - elapsed, expected * OVERRUN_SHARE)
        else:
            finish[job.id] = (heapq.heappop(free) if free else 0.0) + expected
        heapq.heappush(free, finish[job.id])
    return {job_id: round(seconds, 1) for job_id, seconds in finish.items()}
