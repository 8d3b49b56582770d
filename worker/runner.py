"""``nlgboard worker``: an RQ worker plus the recovery loop, for any number of machines.

It is RQ's ``SimpleWorker``: jobs run in the worker process itself, not in a forked work-horse.
That keeps heavy scorer state (the METEOR JVM, parsers) warm across jobs, and it avoids forking
a process that has a recovery thread and open database connections. A killed worker loses its
running job; the recovery pass re-enqueues it from the database.
"""

from __future__ import annotations

import logging
import os
import time

import redis

from app import track_kinds
from app.config import Settings
from app.logs import configure_logging
from app.queue import QUEUE_NAMES, RedisQueue
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


def run_worker(settings: Settings, burst: bool = False) -> None:
    """Serve the scoring queue, then the describing queue, until stopped (or until it is empty with ``burst``)."""
    from rq import SimpleWorker

    if not settings.redis_url:
        raise RuntimeError(
            "REDIS_URL is not set: without Redis the embedded worker runs inside `nlgboard run`"
        )
    configure_logging()
    track_kinds.install(settings.database_url)
    submission_queue = RedisQueue(settings.redis_url)
    warm_up_scorers()
    stop = start_recovery_loop(settings, submission_queue)
    wait = 1.0
    try:
        while True:
            try:
                SimpleWorker(list(QUEUE_NAMES), connection=submission_queue.connection).work(
                    burst=burst
                )
                return
            except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as error:
                # Redis restarted or unreachable: RQ retries only while waiting for a job, so
                # come back with a fresh worker; the recovery pass re-enqueues what Redis lost.
                log.error("lost Redis (%s); starting the worker again in %.0f s", error, wait)
                time.sleep(wait)
                wait = min(2 * wait, MAX_RECONNECT_WAIT)
    finally:
        stop.set()
