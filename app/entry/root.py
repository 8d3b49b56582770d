"""The composition root: the one module of ``app`` that imports the worker.

Everywhere else the web layer enqueues jobs by name (``app.data.queue``). Something must still build
the embedded default's in-process queue (which ``app.web.create_app``, the one app factory, is
given), start workers and score at once from the CLI; that wiring lives here, so no other module
of ``app`` depends on ``worker`` (import-linter checks it).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from flask import Flask

from app.data.config import Settings
from app.data.queue import QUEUE_NAMES, SubmissionQueue

if TYPE_CHECKING:
    from worker.state import JobsState


def submission_queue(settings: Settings) -> SubmissionQueue:
    """The queue the app (``app.web.create_app``) is given: RQ on ``REDIS_URL``, else the
    in-process one (not yet started: ``start_embedded_worker``), with this process's jobs'
    state."""
    if settings.redis_url:
        from app.data.queue import RedisQueue

        return RedisQueue(settings.redis_url)
    from worker.embedded import EmbeddedQueue
    from worker.state import JobsState

    return EmbeddedQueue(settings, JobsState())


def start_embedded_worker(app: Flask) -> None:
    """Start the in-process worker thread and its recovery loop (embedded default only)."""
    from worker.embedded import EmbeddedQueue
    from worker.recovery import start_recovery_loop

    queue = app.extensions["nlgboard.queue"]
    settings = app.extensions["nlgboard.settings"]
    if isinstance(queue, EmbeddedQueue):
        waiting = queue.waiting_scores
        threading.Thread(
            target=_warm_up,
            args=(settings, queue.state, lambda: bool(waiting())),
            daemon=True,
            name="warm-up",
        ).start()
        queue.start()
        start_recovery_loop(settings, queue)


def _warm_up(settings: Settings, state: JobsState, waiting: Callable[[], bool]) -> None:
    """The open tracks' test sets, then the profiles' resources, prepared beside the serving
    thread and imported here: worker.runner brings RQ and Redis, which the embedded board never
    uses (0.8 s of a fresh clone's start-up, compiling them)."""
    from worker import warming
    from worker.runner import warm_up_profiles, warm_up_scorers

    warming.start(settings, state, waiting, warm_up_profiles(), then=warm_up_scorers)


def stop_on_signals(app: Flask) -> None:
    """SIGTERM or SIGINT to ``nlgboard run``: the in-process worker takes no further job, the
    submission it is scoring goes back to the queue (its next start scores it), every child
    process ends, then the server stops (``worker.stopping``)."""
    from worker import stopping
    from worker.embedded import EmbeddedQueue
    from worker.state import JobsState

    queue = app.extensions["nlgboard.queue"]
    settings = app.extensions["nlgboard.settings"]
    state = queue.state if isinstance(queue, EmbeddedQueue) else JobsState()  # RQ: none in hand

    def stop(_signum: int) -> None:
        if isinstance(queue, EmbeddedQueue):
            queue.stop()
        stopping.stop_now(settings, state)
        raise KeyboardInterrupt  # werkzeug's server loop ends on it

    stopping.install(stop)


def run_worker(
    settings: Settings, burst: bool = False, queues: Sequence[str] = QUEUE_NAMES
) -> None:
    from worker.runner import run_worker as serve

    serve(settings, burst=burst, queues=queues)


def is_embedded(queue: SubmissionQueue) -> bool:
    from worker.embedded import EmbeddedQueue

    return isinstance(queue, EmbeddedQueue)


def score_now(settings: Settings, submission_ids: list[int]) -> list[str]:
    """Score (then describe) each submission in this process: the CLI and the demo seeding on
    the embedded default, where nobody else would."""
    from worker.jobs import describe_submission, score_submission
    from worker.state import JobsState

    state = JobsState()

    def describe(submission_id: int) -> None:
        describe_submission(submission_id, settings, state=state)

    return [score_submission(i, settings, describe, state=state) for i in submission_ids]


def analyse_now(settings: Settings, campaign_ids: list[int]) -> list[str]:
    """Analyse each campaign in this process (the CLI on the embedded default)."""
    from worker.human import analyse_campaign

    return [analyse_campaign(campaign_id, settings) for campaign_id in campaign_ids]
