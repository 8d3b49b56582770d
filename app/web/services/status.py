"""What the deployment is doing: readiness checks and the queue's state.

One source for ``/readyz`` (load balancers, compose healthchecks) and ``nlgboard status``
(organisers at a terminal), so the two never disagree.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime

from sqlalchemy import func, select, text
from sqlalchemy.exc import SQLAlchemyError

from app.data.config import Settings
from app.data.db import session_scope
from app.data.migrate import alembic_config
from app.data.models import Submission, SubmissionStatus
from app.data.models.base import utcnow
from app.data.queue import RedisQueue, SubmissionQueue
from app.data.storage import Storage


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


def readiness(settings: Settings, queue: SubmissionQueue, storage: Storage) -> list[Check]:
    """Database reachable and migrated to the newest revision, Redis answering (when used),
    upload store writable. Details name the failure's kind, never a path or a password."""
    return [_database(settings), _redis(queue), _storage(storage)]


def _database(settings: Settings) -> Check:
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    try:
        with session_scope(settings.database_url) as session:
            session.execute(text("SELECT 1"))
            current = MigrationContext.configure(session.connection()).get_current_revision()
    except (SQLAlchemyError, OSError) as error:
        return Check("database", False, f"unreachable ({type(error).__name__})")
    head = ScriptDirectory.from_config(alembic_config(settings.database_url)).get_current_head()
    if current != head:
        return Check("database", False, f"schema at {current}, code needs {head}: run db upgrade")
    return Check("database", True, f"schema {current}")


def _redis(queue: SubmissionQueue) -> Check:
    from redis.exceptions import RedisError

    if not isinstance(queue, RedisQueue):
        return Check("queue", True, "embedded (no Redis)")
    try:
        queue.connection.ping()
    except RedisError as error:
        return Check("queue", False, f"Redis unreachable ({type(error).__name__})")
    return Check("queue", True, "Redis answering")


def _storage(storage: Storage) -> Check:
    try:
        storage.check()
    except OSError as error:
        return Check("storage", False, f"not writable ({type(error).__name__})")
    return Check("storage", True, type(storage).__name__)


@dataclass(frozen=True)
class Worker:
    name: str
    host: str
    state: str
    last_heartbeat: str | None
    job: str | None


@dataclass
class QueueStatus:
    queue: str
    queue_depth: int | None
    """Jobs waiting in Redis (None on the embedded default: it has no shared queue)."""
    running_jobs: int | None
    describing_depth: int | None = None
    """Describing jobs waiting in Redis (textual statistics, after every scoring job)."""
    workers: list[Worker] = field(default_factory=list)
    submissions: dict[str, int] = field(default_factory=dict)
    oldest_queued_id: int | None = None
    oldest_queued_at: datetime | None = None
    oldest_queued_seconds: float | None = None
    awaiting_description: int = 0
    """Scored submissions whose textual statistics are still to come."""

    def as_dict(self) -> dict:
        result = asdict(self)
        if self.oldest_queued_at:
            result["oldest_queued_at"] = self.oldest_queued_at.isoformat()
        return result


def queue_status(settings: Settings, queue: SubmissionQueue) -> QueueStatus:
    """Queue depth and live workers from Redis; submissions per status and the oldest
    still-queued one from the database (what a team waiting for a score cares about)."""
    if isinstance(queue, RedisQueue):
        from rq import Worker as RQWorker

        status = QueueStatus(
            "redis",
            queue.rq_queue.count,
            queue.rq_queue.started_job_registry.count
            + queue.describe_queue.started_job_registry.count,
            queue.describe_queue.count,
        )
        for worker in RQWorker.all(queue=queue.rq_queue):
            job = worker.get_current_job_id()
            status.workers.append(
                Worker(
                    worker.name,
                    worker.hostname or "?",
                    str(worker.get_state()),
                    worker.last_heartbeat.isoformat() if worker.last_heartbeat else None,
                    job,
                )
            )
    else:
        status = QueueStatus("embedded", None, None)
    with session_scope(settings.database_url) as session:
        for state, count in session.execute(
            select(Submission.status, func.count()).group_by(Submission.status)
        ):
            status.submissions[SubmissionStatus(state).value] = count
        oldest = session.execute(
            select(Submission.id, Submission.created_at)
            .where(Submission.status == SubmissionStatus.QUEUED)
            .order_by(Submission.created_at, Submission.id)
            .limit(1)
        ).first()
        status.awaiting_description = session.execute(
            select(func.count()).where(
                Submission.status == SubmissionStatus.SCORED, Submission.described_at.is_(None)
            )
        ).scalar_one()
    if oldest:
        status.oldest_queued_id, status.oldest_queued_at = oldest
        status.oldest_queued_seconds = round((utcnow() - oldest[1]).total_seconds(), 1)
    return status
