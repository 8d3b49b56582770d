"""``nlgboard worker``: an RQ worker plus the recovery loop, for any number of machines.

It is RQ's ``SimpleWorker``: jobs run in the worker process itself, not in a forked work-horse.
That keeps heavy scorer state (the METEOR JVM, parsers) warm across jobs, and it avoids forking
a process that has a recovery thread and open database connections. A killed worker loses its
running job; the recovery pass re-enqueues it from the database.
"""

from __future__ import annotations

import logging

from worker.queues import QUEUE_NAME, RedisQueue
from worker.recovery import start_recovery_loop
from worker.settings import Settings

log = logging.getLogger(__name__)


def warm_up_scorers() -> None:
    """Load every profile's heavy parts (METEOR's JVMs and paraphrase table) before any job."""
    from scorer.profiles import PROFILES

    for profile in PROFILES.values():
        try:
            profile.warm_up()
        except Exception:
            log.exception(
                "warm-up of profile %s failed; its jobs will report the error", profile.name
            )


def run_worker(settings: Settings, burst: bool = False) -> None:
    """Serve the scoring queue until stopped (or until it is empty with ``burst``)."""
    from rq import SimpleWorker

    if not settings.redis_url:
        raise RuntimeError(
            "REDIS_URL is not set: without Redis the embedded worker runs inside `nlgboard run`"
        )
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    submission_queue = RedisQueue(settings.redis_url)
    warm_up_scorers()
    stop = start_recovery_loop(settings, submission_queue)
    try:
        SimpleWorker([QUEUE_NAME], connection=submission_queue.connection).work(burst=burst)
    finally:
        stop.set()
