"""The embedded default's queue: one daemon thread in the web process runs the worker's jobs.

Only the composition root (``app.entry.root``) builds it, so the web layer never imports the worker.
"""

from __future__ import annotations

import itertools
import logging
import queue
import threading

from app.data.config import Settings

log = logging.getLogger(__name__)


class EmbeddedQueue:
    """Jobs served by one daemon thread in the web process, running the same job functions:
    scoring first, in arrival order, then describing. Mail has a thread of its own, so a
    message does not wait for the scoring of a long file."""

    SCORE, DESCRIBE = 0, 1

    def __init__(self, settings: Settings):
        self.settings = settings
        self._queue: queue.PriorityQueue[tuple[int, int, int]] = queue.PriorityQueue()
        self._pending: set[tuple[int, int]] = set()
        self._arrivals = itertools.count()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._mail: queue.Queue[int] = queue.Queue()
        self._mail_pending: set[int] = set()
        self._mail_thread: threading.Thread | None = None
        self._stopped = threading.Event()

    def enqueue(self, submission_id: int) -> None:
        self._put(self.SCORE, submission_id)

    def enqueue_description(self, submission_id: int) -> None:
        self._put(self.DESCRIBE, submission_id)

    def enqueue_mail(self, mail_id: int) -> None:
        with self._lock:
            if mail_id in self._mail_pending:
                return
            self._mail_pending.add(mail_id)
        self._mail.put(mail_id)

    def is_pending(self, submission_id: int, started_within: float | None = None) -> bool:
        with self._lock:
            return (self.SCORE, submission_id) in self._pending

    def discard(self, submission_id: int) -> None:
        """Nothing to drop: a job of this process cannot outlive the thread that runs it."""

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, daemon=True, name="scoring")
            self._thread.start()
        if self._mail_thread is None:
            self._mail_thread = threading.Thread(target=self._send, daemon=True, name="mail")
            self._mail_thread.start()

    def stop(self) -> None:
        """Take no further job (the process is stopping; what is left waits in the database)."""
        self._stopped.set()

    def join(self) -> None:
        """Wait until everything enqueued so far has been processed (tests, CLI): the
        scoring (whose notifications enqueue mail) first, then the mail."""
        self._queue.join()
        self._mail.join()

    def _put(self, kind: int, submission_id: int) -> None:
        with self._lock:
            if (kind, submission_id) in self._pending:
                return
            self._pending.add((kind, submission_id))
        self._queue.put((kind, next(self._arrivals), submission_id))

    def _serve(self) -> None:
        """The jobs' modules load here, in the thread, not with the web app."""
        from worker.jobs import describe_submission, score_submission

        while True:
            kind, _, submission_id = self._queue.get()
            with self._lock:
                self._pending.discard((kind, submission_id))
            if self._stopped.is_set():
                self._queue.task_done()
                continue
            try:
                if kind == self.DESCRIBE:
                    describe_submission(submission_id, self.settings)
                else:
                    score_submission(
                        submission_id, self.settings, self.enqueue_description, self.enqueue_mail
                    )
            except Exception:
                log.exception("embedded worker: submission %s crashed", submission_id)
            finally:
                self._queue.task_done()

    def _send(self) -> None:
        from worker.mail import send_mail

        while True:
            mail_id = self._mail.get()
            with self._lock:
                self._mail_pending.discard(mail_id)
            try:
                send_mail(mail_id, self.settings)
            except Exception:
                log.exception("embedded worker: mail %s crashed", mail_id)
            finally:
                self._mail.task_done()
