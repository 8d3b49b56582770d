"""``nlgboard worker``: an RQ worker plus the recovery loop, for any number of machines.

By default it serves mail and scoring, and starts a second worker process for the describing
queue at the lowest CPU priority, so a score never waits behind a description in progress;
``--queues`` runs one role only (``nlgboard worker --queues describing`` on a spare machine).

It is RQ's ``SimpleWorker``: jobs run in the worker process itself, not in a forked work-horse.
That keeps heavy scorer state (the METEOR JVM, parsers) warm across jobs, and it avoids forking
a process that has a recovery thread and open database connections. SIGTERM or SIGINT stops it
at once (``worker.stopping``): the submission in hand goes back on the queue and every child
process ends. A killed worker loses its running job; the recovery pass re-enqueues it from the
database.
"""

from __future__ import annotations

import ctypes
import inspect
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import Sequence
from multiprocessing.process import BaseProcess
from typing import Any

import redis
from rq import Queue, SimpleWorker
from rq.exceptions import StopRequested
from rq.executions import Execution
from rq.job import Job
from rq.worker import WorkerStatus

from app.data.config import Settings
from app.data.logs import configure_logging
from app.data.queue import DESCRIBE_QUEUE_NAME, QUEUE_NAME, QUEUE_NAMES, RedisQueue
from scorer.describe.dlevel import describing_niceness, lower_priority
from worker import stopping, warming
from worker.errors import JobInterrupted
from worker.recovery import start_recovery_loop
from worker.state import JobsState

log = logging.getLogger(__name__)

MAX_RECONNECT_WAIT = 30.0
SCORING_WAIT_POLL = 0.2


WARM_UP_ENV = "NLGBOARD_WARM_UP"
"""Comma-separated profiles to load at start-up (default: all); a worker that only ever scores
SR'18 tracks need not start METEOR's JVMs or the embedding model."""


def warm_up_profiles() -> set[str]:
    """The profiles ``NLGBOARD_WARM_UP`` names (empty: all)."""
    return {name.strip() for name in os.environ.get(WARM_UP_ENV, "").split(",") if name.strip()}


def warm_up_scorers() -> None:
    """Load the profiles' heavy parts (METEOR's JVMs and paraphrase table, the embedding
    model) before any job."""
    from scorer.kinds import PROFILES

    wanted = warm_up_profiles()
    for name, profile in PROFILES.items():
        if wanted and name not in wanted:
            continue
        try:
            profile.warm_up()
        except Exception:
            log.exception(
                "warm-up of profile %s failed; its jobs will report the error", profile.name
            )


class StatefulJob(Job):
    """An RQ job whose function, if it takes a ``state``, gets its worker's ``JobsState``: jobs
    are enqueued by name and their arguments stored in Redis, the process's state is not."""

    jobs_state: JobsState | None = None

    def _execute(self) -> Any:
        if self.jobs_state is not None and "state" in inspect.signature(self.func).parameters:
            return self.func(*self.args, **self.kwargs, state=self.jobs_state)
        return super()._execute()


class ScoringWorker(SimpleWorker):
    """RQ's ``SimpleWorker`` whose SIGTERM/SIGINT stops it at once instead of after the job,
    and whose jobs share its process's ``JobsState``."""

    job_class = StatefulJob
    settings: Settings
    jobs_state: JobsState
    """Not ``state``: RQ's worker has one, its status."""
    handed_back: list[int]

    def perform_job(self, job: Job, queue: Queue, execution: Execution) -> bool:
        if isinstance(job, StatefulJob):
            job.jobs_state = self.jobs_state
        return super().perform_job(job, queue, execution)

    def _install_signal_handlers(self) -> None:
        stopping.install(self._stop)

    def _stop(self, _signum: int) -> None:
        self.handed_back += stopping.stop_now(self.settings, self.jobs_state)
        self._stop_requested = True
        if self.jobs_state.running_a_job():
            raise JobInterrupted()
        if self.get_state() != WorkerStatus.BUSY:  # waiting for a job: leave the loop now
            raise StopRequested()


class DescribingWorker(ScoringWorker):
    """Serves the describing queue, taking a job only while no scoring job waits (a job it
    took meanwhile goes back to the front of its queue)."""

    scoring: Queue

    def dequeue_job_and_maintain_ttl(
        self, timeout: int | None, max_idle_time: int | None = None
    ) -> tuple[Any, Queue] | None:
        while True:
            self._wait_while_scoring_waits()
            result = super().dequeue_job_and_maintain_ttl(timeout, max_idle_time)
            if result is None or not self._scoring_waits():
                return result
            job, queue = result
            queue.push_job_id(job.id, at_front=True)

    def _wait_while_scoring_waits(self) -> None:
        while self._scoring_waits() and not self._stop_requested:
            self.heartbeat()
            time.sleep(SCORING_WAIT_POLL)

    def _scoring_waits(self) -> bool:
        try:
            return self.scoring.count > 0
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
            time.sleep(SCORING_WAIT_POLL)  # Redis away: the dequeue says so and waits for it
            return False


def run_worker(
    settings: Settings, burst: bool = False, queues: Sequence[str] = QUEUE_NAMES
) -> None:
    """Serve ``queues`` (in priority order) until stopped, or until they are empty with
    ``burst``. The describing queue, served with others, gets a process of its own (with
    ``burst``, this process serves it last)."""
    if not settings.redis_url:
        raise RuntimeError(
            "REDIS_URL is not set: without Redis the embedded worker runs inside `nlgboard run`"
        )
    unknown = set(queues) - set(QUEUE_NAMES)
    if unknown or not queues:
        raise RuntimeError(f"unknown queue(s) {sorted(unknown)}: choose from {QUEUE_NAMES}")
    queues = [name for name in QUEUE_NAMES if name in queues]
    configure_logging()
    state = JobsState()
    if queues == [DESCRIBE_QUEUE_NAME]:
        _lowest_priority()
        _serve(settings, state, DescribingWorker, queues, burst)
        return
    submission_queue = RedisQueue(settings.redis_url)
    describing = None
    if DESCRIBE_QUEUE_NAME in queues and not burst:
        queues.remove(DESCRIBE_QUEUE_NAME)
        describing = start_describing_process(settings)
    if QUEUE_NAME in queues and burst:
        warm_up_scorers()
    elif QUEUE_NAME in queues:
        waiting = submission_queue.rq_queue
        warming.start(settings, state, lambda: _waits(waiting), warm_up_profiles(), warm_up_scorers)
    stop = start_recovery_loop(settings, submission_queue)
    try:
        _serve(settings, state, ScoringWorker, queues, burst)
    finally:
        stop.set()
        if describing is not None:
            describing.terminate()


def _waits(queue: Queue) -> bool:
    """A job waits on ``queue`` (Redis away: none that this worker could take)."""
    try:
        return queue.count > 0
    except redis.exceptions.RedisError:
        return False


def start_describing_process(settings: Settings) -> BaseProcess:
    """The describing worker, in a process of its own that ends with this one."""
    context = multiprocessing.get_context("spawn")
    process = context.Process(
        target=serve_describing, args=(settings, os.getpid()), name="describing", daemon=False
    )
    process.start()
    _lowest_priority(process.pid)  # from the start: its imports give way to the first job
    return process


def serve_describing(settings: Settings, parent: int) -> None:
    """The describing process's main: it gets SIGTERM when its parent ends (even by SIGKILL),
    and stops as every worker does, handing its job back."""
    _end_with_parent(parent)
    run_worker(settings, queues=[DESCRIBE_QUEUE_NAME])


def _end_with_parent(parent: int) -> None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG (Linux)
    except (OSError, AttributeError):
        log.warning("describing process: cannot ask to end with the worker; it ends on its own")
    if os.getppid() != parent:  # the parent died before the line above
        raise SystemExit(0)


def _lowest_priority(pid: int | None = None) -> None:
    """This process (or ``pid``) at the describing worker's CPU priority, its parsers' (the
    lowest, so scoring goes first: ``scorer.describe.dlevel.describing_niceness``)."""
    niceness = describing_niceness()
    if pid is None:
        lower_priority(niceness)
        return
    try:
        os.setpriority(os.PRIO_PROCESS, pid, max(niceness, os.getpriority(os.PRIO_PROCESS, pid)))
    except OSError:  # it ended already, or the platform refuses: it lowers itself once started
        log.warning("describing process %s: cannot lower its priority yet", pid)


def _serve(
    settings: Settings,
    state: JobsState,
    worker_class: type[ScoringWorker],
    queues: list[str],
    burst: bool,
) -> None:
    """One RQ worker on ``queues``, started again while Redis is away, its jobs sharing
    ``state``; the submission in hand at a stop goes back on the queue and every child process
    ends."""
    connection = RedisQueue(settings.redis_url or "")
    handed_back: list[int] = []
    wait = 1.0
    try:
        while True:
            try:
                worker = worker_class(queues, connection=connection.connection)
                worker.settings, worker.handed_back = settings, handed_back
                worker.jobs_state = state
                if isinstance(worker, DescribingWorker):
                    worker.scoring = connection.rq_queue
                worker.work(burst=burst)
                return
            except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as error:
                # Redis restarted or unreachable: RQ retries only while waiting for a job, so
                # come back with a fresh worker; the recovery pass re-enqueues what Redis lost.
                log.error("lost Redis (%s); starting the worker again in %.0f s", error, wait)
                time.sleep(wait)
                wait = min(2 * wait, MAX_RECONNECT_WAIT)
    finally:
        _requeue(connection, handed_back)
        stopping.end_children()


def _requeue(submission_queue: RedisQueue, submission_ids: list[int]) -> None:
    """Put the handed-back submissions on the queue again (if Redis is away, the recovery
    pass of any worker does it from the database)."""
    for submission_id in submission_ids:
        try:
            submission_queue.enqueue(submission_id)
        except redis.exceptions.RedisError:
            log.exception("stopping: submission %s left to the recovery pass", submission_id)
