"""The queue as the web layer sees it: jobs enqueued by name, keyed by submission id (scoring,
describing), mail id (sending) or campaign id (analysing a human evaluation).

RQ on Redis in production (here); on the embedded default an in-process thread
(``worker.embedded``) offers the same operations, so the web app, the CLI and the recovery pass
do not care which one runs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol

log = logging.getLogger(__name__)

QUEUE_NAME = "scoring"
"""The RQ queue every web process enqueues on and every worker listens to."""
DESCRIBE_QUEUE_NAME = "describing"
"""Textual statistics after the scores: workers take from it only when ``scoring`` is empty."""
MAIL_QUEUE_NAME = "mail"
"""E-mail: milliseconds a job, so workers take from it before the scoring queue."""
QUEUE_NAMES = (MAIL_QUEUE_NAME, QUEUE_NAME, DESCRIBE_QUEUE_NAME)

JOB_FUNCTION = "worker.jobs.score_submission"
DESCRIBE_FUNCTION = "worker.jobs.describe_submission"
SEND_MAIL_FUNCTION = "worker.mail.send_mail"
ANALYSE_FUNCTION = "worker.human.analyse_campaign"
"""A human-evaluation campaign's results (a bundle's published campaign): on the describing
queue, a long job no score waits behind."""
MAIL_TIMEOUT_SECONDS = 5 * 60
JOB_TIMEOUT_SECONDS = 30 * 60
PENDING_STATUSES = {"queued", "started", "deferred", "scheduled"}


def job_id(submission_id: int) -> str:
    return f"submission-{submission_id}"


def describe_job_id(submission_id: int) -> str:
    return f"describe-{submission_id}"


def mail_job_id(mail_id: int) -> str:
    return f"mail-{mail_id}"


def analysis_job_id(campaign_id: int) -> str:
    return f"analyse-{campaign_id}"


class MailQueue(Protocol):
    def enqueue_mail(self, mail_id: int) -> None: ...


class SubmissionQueue(MailQueue, Protocol):
    def enqueue(self, submission_id: int) -> None: ...

    def enqueue_description(self, submission_id: int) -> None: ...

    def enqueue_analysis(self, campaign_id: int) -> None: ...

    def is_pending(self, submission_id: int, started_within: float | None = None) -> bool: ...

    def discard(self, submission_id: int) -> None: ...


class RedisQueue:
    """RQ queue; the job id is the submission id, so a submission has at most one job."""

    def __init__(self, redis_url: str):
        from redis import Redis
        from rq import Queue

        self.connection = Redis.from_url(redis_url)
        self.rq_queue = Queue(QUEUE_NAME, connection=self.connection)
        self.describe_queue = Queue(DESCRIBE_QUEUE_NAME, connection=self.connection)
        self.mail_queue = Queue(MAIL_QUEUE_NAME, connection=self.connection)

    def enqueue(self, submission_id: int) -> None:
        if self.is_pending(submission_id):
            return
        self.discard(submission_id)
        self.rq_queue.enqueue_call(
            JOB_FUNCTION,
            args=(submission_id,),
            job_id=job_id(submission_id),
            timeout=JOB_TIMEOUT_SECONDS,
            result_ttl=24 * 3600,
            failure_ttl=7 * 24 * 3600,
        )

    def enqueue_description(self, submission_id: int) -> None:
        """Queue the describing job (once: one already waiting or running is left alone)."""
        self._enqueue_once(self.describe_queue, DESCRIBE_FUNCTION, submission_id, describe_job_id)

    def enqueue_mail(self, mail_id: int) -> None:
        """Queue the sending job (once: one already waiting or running is left alone; the
        outbox row, not RQ, decides whether the mail still needs sending)."""
        self._enqueue_once(
            self.mail_queue, SEND_MAIL_FUNCTION, mail_id, mail_job_id, MAIL_TIMEOUT_SECONDS
        )

    def enqueue_analysis(self, campaign_id: int) -> None:
        """Queue the analysing job (once: one already waiting or running is left alone; the
        campaign's row, not RQ, decides whether it still needs analysing)."""
        self._enqueue_once(self.describe_queue, ANALYSE_FUNCTION, campaign_id, analysis_job_id)

    def _enqueue_once(
        self,
        queue: Any,
        function: str,
        argument: int,
        name: Callable[[int], str],
        timeout: int = JOB_TIMEOUT_SECONDS,
    ) -> None:
        """``function(argument)`` as the job ``name(argument)``, unless that job waits or runs
        already (one that finished or failed is replaced)."""
        job = self._fetch(argument, name)
        if job is not None:
            if job.get_status(refresh=True) in PENDING_STATUSES:
                return
            job.delete(remove_from_queue=True)
        queue.enqueue_call(
            function,
            args=(argument,),
            job_id=name(argument),
            timeout=timeout,
            result_ttl=3600,
            failure_ttl=7 * 24 * 3600,
        )

    def is_pending(self, submission_id: int, started_within: float | None = None) -> bool:
        """Waiting or running in RQ. With ``started_within`` (asked for submissions the
        database still has ``queued`` after the grace period) two kinds of job do not count,
        both left by a worker that died between taking the job and claiming the submission:
        one "started" longer ago than that (RQ would hold it until its timeout), and one still
        "queued" that is no longer on the queue (taken off it, never started)."""
        job = self._fetch(submission_id)
        if job is None:
            return False
        status = job.get_status(refresh=True)
        if status == "queued" and started_within is not None and job.get_position() is None:
            return False
        if status == "started" and started_within is not None and job.started_at is not None:
            started = job.started_at
            if started.tzinfo is None:
                started = started.replace(tzinfo=UTC)
            if (datetime.now(UTC) - started).total_seconds() > started_within:
                return False
        return status in PENDING_STATUSES

    def discard(self, submission_id: int) -> None:
        job = self._fetch(submission_id)
        if job is not None:
            self._forget_lost_executions(job)
            job.delete(remove_from_queue=True)

    def _forget_lost_executions(self, job: Any) -> None:
        """A worker killed mid-job leaves its execution's id in the job's execution registry
        after the execution's own record has expired; RQ 3.0's ``Job.delete`` then raises
        ValueError on every try, and recovery could never re-enqueue the submission."""
        from rq.executions import Execution
        from rq.registry import StartedJobRegistry

        registry_key = job.execution_registry.key
        started = StartedJobRegistry(job.origin, connection=self.connection)
        for raw in self.connection.zrange(registry_key, 0, -1):
            execution_id = raw.decode() if isinstance(raw, bytes) else str(raw)
            execution = Execution(execution_id, job.id, self.connection)
            if not self.connection.exists(execution.key):
                self.connection.zrem(registry_key, execution_id)
                self.connection.zrem(started.key, execution.composite_key)

    def _fetch(self, submission_id: int, name: Callable[[int], str] = job_id) -> Any:
        from rq.exceptions import NoSuchJobError
        from rq.job import Job

        try:
            return Job.fetch(name(submission_id), connection=self.connection)
        except NoSuchJobError:
            return None
