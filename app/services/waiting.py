"""Where a waiting submission stands: its place in the scoring line and an estimate from how
long recent jobs took, for the pages and the API (the database is the truth: the scoring queue
serves submissions in the order they arrived)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Submission, SubmissionStatus

RECENT_JOBS = 20
"""How many recently scored submissions the estimate's typical job time is taken from."""


@dataclass(frozen=True)
class Standing:
    position: int
    """1: being scored, or next; 2: one submission ahead of it ..."""
    estimate_seconds: float | None
    """Until its scores land, at the median time of recent jobs; None before any job."""

    def as_dict(self) -> dict[str, float | int | None]:
        return {"position": self.position, "estimate_seconds": self.estimate_seconds}


def typical_job_seconds(session: Session) -> float | None:
    rows = session.execute(
        select(Submission.started_at, Submission.finished_at)
        .where(
            Submission.status == SubmissionStatus.SCORED,
            Submission.started_at.is_not(None),
            Submission.finished_at.is_not(None),
        )
        .order_by(Submission.finished_at.desc())
        .limit(RECENT_JOBS)
    ).all()
    durations = [(end - start).total_seconds() for start, end in rows if end and start]
    return statistics.median(durations) if durations else None


def standings(session: Session, submissions: list[Submission]) -> dict[int, Standing]:
    """Submission id -> its standing, for those of ``submissions`` that are queued or running."""
    waiting = [
        s for s in submissions if s.status in (SubmissionStatus.QUEUED, SubmissionStatus.RUNNING)
    ]
    if not waiting:
        return {}
    rows = session.execute(
        select(Submission.id, Submission.status, Submission.created_at).where(
            Submission.status.in_([SubmissionStatus.RUNNING, SubmissionStatus.QUEUED])
        )
    ).all()
    line = sorted(rows, key=lambda r: (r.status != SubmissionStatus.RUNNING, r.created_at, r.id))
    place = {row.id: k for k, row in enumerate(line, 1)}
    typical = typical_job_seconds(session)
    found = {}
    for submission in waiting:
        position = place.get(submission.id, 1)
        estimate = round(typical * position, 1) if typical is not None else None
        found[submission.id] = Standing(position, estimate)
    return found
