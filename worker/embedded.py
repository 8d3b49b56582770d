"""The embedded default's queue: daemon threads in the web process run the worker's jobs.

Only the composition root (``app.entry.root``) builds it, so the web layer never imports the worker.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

from app.data.config import Settings
from worker.state import JobsState

log = logging.getLogger(__name__)

WAIT_FOR_SCORES = ("describe", "analyse")
"""Jobs started only while no scoring job waits: long ones nobody waits for first."""


class EmbeddedQueue:
    """Jobs served by daemon threads in the web process, running the same job functions.

    Scoring has a thread of its own, so a score never waits behind a description in progress
    (textual statistics and D-levels take several times the metrics' time; their parsing runs
    in processes at the lowest CPU priority). The describing thread starts a job only while no
    scoring job waits, so a deadline night's uploads are all scored first; analysing a human
    evaluation (``worker.human``) has a thread under the same rule. Mail has a thread too: a
    message does not wait for the scoring of a long file. Its jobs, the warm-up beside
    them and a stop share ``state``, the process's (``worker.state``; a fresh one when none is
    given)."""

    def __init__(self, settings: Settings, state: JobsState | None = None):
        self.settings = settings
        self.state = state or JobsState()
        self._lock = threading.Lock()
        self._no_score_waits = threading.Condition(self._lock)
        self._scores: queue.Queue[int] = queue.Queue()
        self._descriptions: queue.Queue[int] = queue.Queue()
        self._mail: queue.Queue[int] = queue.Queue()
        self._analyses: queue.Queue[int] = queue.Queue()
        self._waiting: dict[str, set[int]] = {
            "score": set(), "describe": set(), "mail": set(), "analyse": set()
        }  # fmt: skip
        self._threads: list[threading.Thread] = []
        self._stopped = threading.Event()

    def enqueue(self, submission_id: int) -> None:
        self._put("score", self._scores, submission_id)

    def enqueue_description(self, submission_id: int) -> None:
        self._put("describe", self._descriptions, submission_id)

    def enqueue_mail(self, mail_id: int) -> None:
        self._put("mail", self._mail, mail_id)

    def enqueue_analysis(self, campaign_id: int) -> None:
        self._put("analyse", self._analyses, campaign_id)

    def is_pending(self, submission_id: int, started_within: float | None = None) -> bool:
        with self._lock:
            return submission_id in self._waiting["score"]

    def waiting_scores(self) -> set[int]:
        """The submissions waiting for the scoring thread (not the one it is scoring)."""
        with self._lock:
            return set(self._waiting["score"])

    def discard(self, submission_id: int) -> None:
        """Nothing to drop: a job of this process cannot outlive the thread that runs it."""

    def start(self) -> None:
        if self._threads:
            return
        for name, target in (
            ("scoring", self._serve_scores),
            ("describing", self._serve_descriptions),
            ("mail", self._serve_mail),
            ("analysing", self._serve_analyses),
        ):
            thread = threading.Thread(target=target, daemon=True, name=name)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        """Take no further job (the process is stopping; what is left waits in the database)."""
        self._stopped.set()

    def join(self) -> None:
        """Wait until everything enqueued so far has been processed (tests, CLI): the
        scoring (which enqueues descriptions and mail) first, then the rest."""
        self._scores.join()
        self._descriptions.join()
        self._analyses.join()
        self._mail.join()

    def _put(self, kind: str, jobs: queue.Queue[int], job_id: int) -> None:
        with self._lock:
            if job_id in self._waiting[kind]:
                return
            self._waiting[kind].add(job_id)
        jobs.put(job_id)

    def _take(self, kind: str, jobs: queue.Queue[int]) -> int:
        job_id = jobs.get()
        with self._lock:
            self._waiting[kind].discard(job_id)
            if not self._waiting["score"]:
                self._no_score_waits.notify_all()
        return job_id

    def _run(self, kind: str, jobs: queue.Queue[int], job: Callable[[int], object]) -> None:
        """Serve one kind of job forever (a crash is logged and the next job taken)."""
        while True:
            job_id = self._take(kind, jobs)
            try:
                if kind in WAIT_FOR_SCORES:
                    with self._lock:
                        self._no_score_waits.wait_for(lambda: not self._waiting["score"])
                if not self._stopped.is_set():
                    job(job_id)
            except Exception:
                log.exception("embedded worker: %s job %s crashed", kind, job_id)
            finally:
                jobs.task_done()

    def _serve_scores(self) -> None:
        """The jobs' modules load here, in the thread, not with the web app."""
        from worker.jobs import score_submission

        def score(submission_id: int) -> None:
            score_submission(
                submission_id,
                self.settings,
                self.enqueue_description,
                self.enqueue_mail,
                state=self.state,
            )

        self._run("score", self._scores, score)

    def _serve_descriptions(self) -> None:
        from worker import jobs

        def describe(submission_id: int) -> None:
            jobs.describe_submission(submission_id, self.settings, state=self.state)

        self._run("describe", self._descriptions, describe)

    def _serve_mail(self) -> None:
        from worker.mail import send_mail

        self._run("mail", self._mail, lambda i: send_mail(i, self.settings))

    def _serve_analyses(self) -> None:
        from worker.human import analyse_campaign

        self._run("analyse", self._analyses, lambda i: analyse_campaign(i, self.settings))
