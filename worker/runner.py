"""``nlgboard worker``: an RQ worker plus the recovery loop, for any number of machines.

It is RQ's ``SimpleWorker``: jobs run in the worker process itself, not in a forked work-horse.
That keeps heavy scorer state (the METEOR JVM, parsers) warm across jobs, and it avoids forking
a process that has a recovery thread and open database connections. SIGTERM or SIGINT stops it
at once (``worker.stopping``): the submission in hand goes back on the queue and every child
process ends. A killed worker loses its running job; the recovery pass re-enqueues it from the
database.
"""

from __future__ import annotations

import logging
import os
import time

import redis
from rq import SimpleWorker
from rq.exceptions import StopRequested
from rq.worker import WorkerStatus

from app.data import track_kinds
from app.data.config import Settings
from app.data.logs import configure_logging
from app.data.queue import QUEUE_NAMES, RedisQueue
from worker import jobs, stopping
from worker.recovery import start_recovery_loop

log = logging.getLogger(__name__)

MAX_RECONNECT_WAIT = 30.0


WARM_UP_ENV = "NLGBOARD_WARM_UP"
"""Comma-separated profiles to load at start-up (default: all); a worker that only ever scores
SR'18 tracks need not start METEOR's JVMs or the embedding model."""


def warm_up_scorers() -> None:
    """Load the profiles' heavy parts (METEOR's JVMs and paraphrase table, the embedding
    model) before any job."""
    from scorer.kinds import PROFILES

    wanted = {name.strip() for name in os.environ.get(WARM_UP_ENV, "").split(",") if name.strip()}
    for name, profile in PROFILES.items():
        if wanted and name not in wanted:
            continue
        try:
            profile.warm_up()
        except Exception:
            log.exception(
                "warm-up of profile %s failed; its jobs will report the error", profile.name
            )


class JobInterrupted(BaseException):
    """Raised in a running job by a stop signal, after its submission was handed back: RQ
    records the job as failed, and the worker re-enqueues the submission before it exits."""


class ScoringWorker(SimpleWorker):
    """RQ's ``SimpleWorker`` whose SIGTERM/SIGINT stops it at once instead of after the job."""

    settings: Settings
    handed_back: list[int]

    def _install_signal_handlers(self) -> None:
        stopping.install(self._stop)

    def _stop(self, _signum: int) -> None:
        self.handed_back += stopping.stop_now(self.settings)
        self._stop_requested = True
        if jobs.running_a_job():
            raise JobInterrupted()
        if self.get_state() != WorkerStatus.BUSY:  # waiting for a job: leave the loop now
            raise StopRequested()


def run_worker(settings: Settings, burst: bool = False) -> None:
    """Serve the scoring queue, then the describing queue, until stopped (or until it is empty with ``burst``)."""
    if not settings.redis_url:
        raise RuntimeError(
            "REDIS_URL is not set: without Redis the embedded worker runs inside `nlgboard run`"
        )
    configure_logging()
    track_kinds.install(settings.database_url)
    submission_queue = RedisQueue(settings.redis_url)
    warm_up_scorers()
    stop = start_recovery_loop(settings, submission_queue)
    handed_back: list[int] = []
    wait = 1.0
    try:
        while True:
            try:
                worker = ScoringWorker(list(QUEUE_NAMES), connection=submission_queue.connection)
                worker.settings, worker.handed_back = settings, handed_back
                worker.work(burst=burst)
                return
            except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as error:
                # Redis restarted or unreachable: RQ retries only while waiting for a job, so
                # come back with a fresh worker; the recovery pass re-enqueues what Redis lost.
                log.error("lost Redis (%s); starting the worker again in %.0f s", error, wait)
                time.sleep(wait)
                wait = min(2 * wait, MAX_RECONNECT_WAIT)
    finally:
        stop.set()
        _requeue(submission_queue, handed_back)
        stopping.end_children()


def _requeue(submission_queue: RedisQueue, submission_ids: list[int]) -> None:
    """Put the handed-back submissions on the queue again (if Redis is away, the recovery
    pass of any worker does it from the database)."""
    for submission_id in submission_ids:
        try:
            submission_queue.enqueue(submission_id)
        except redis.exceptions.RedisError:
            log.exception("stopping: submission %s left to the recovery pass", submission_id)
