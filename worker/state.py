"""What the jobs of one scoring process share: one ``JobsState``, made where the process is put
together and handed to every job it runs.

An RQ worker (``worker.runner``) makes one for its process and hands it to each job it performs;
the embedded default's queue (``worker.embedded``) holds one for the web process's job threads;
the start-up warm-up (``worker.warming``) and a stop (``worker.stopping``) work on the same one.
A job called on its own (the CLI's ``score_now``, a test) gets a fresh one: nothing in hand, no
test set read yet.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.data.testsets import TestSetCache

if TYPE_CHECKING:
    from app.data.queue import RedisQueue


@dataclass(frozen=True)
class Claim:
    """A submission this process moved to ``running``, under its token."""

    submission_id: int
    token: str


class JobsState:
    """The test sets kept between jobs, the claims in hand, the scoring turn, and which thread
    runs a job (and the seconds its stages took)."""

    def __init__(self) -> None:
        self.test_sets = TestSetCache()
        """The process's test sets, kept between jobs (see ``TestSetCache``)."""
        self.scoring = threading.Lock()
        """Held while a submission's metrics are computed, one computation at a time in a
        process: the metrics' caches are not safe to fill from two threads, and the start-up
        warm-up (``worker.warming``) fills them between jobs."""
        self._lock = threading.Lock()
        self._in_hand: dict[int, Claim] = {}
        self._scoring_jobs = 0
        self._thread = threading.local()
        self._queues: dict[str, RedisQueue] = {}

    # The claims in hand: what a stop gives back.

    @contextmanager
    def holding(self, claim: Claim) -> Iterator[None]:
        """``claim`` is in hand while the block runs (unless a stop took it meanwhile)."""
        with self._lock:
            self._in_hand[claim.submission_id] = claim
        try:
            yield
        finally:
            with self._lock:
                self._in_hand.pop(claim.submission_id, None)

    def take_in_hand(self) -> list[Claim]:
        """Every claim in hand, now no longer held by this process's jobs."""
        with self._lock:
            claims = list(self._in_hand.values())
            self._in_hand.clear()
        return claims

    # Scoring jobs under way, which the start-up warm-up waits for.

    @contextmanager
    def scoring_job(self) -> Iterator[None]:
        with self._lock:
            self._scoring_jobs += 1
        try:
            yield
        finally:
            with self._lock:
                self._scoring_jobs -= 1

    def scoring_now(self) -> bool:
        """A scoring job is under way in this process."""
        with self._lock:
            return self._scoring_jobs > 0

    # The thread running a job, which a stop signal may interrupt (``worker.runner``).

    @contextmanager
    def running(self) -> Iterator[None]:
        self._thread.depth = getattr(self._thread, "depth", 0) + 1
        try:
            yield
        finally:
            self._thread.depth -= 1

    def running_a_job(self) -> bool:
        """This thread is inside a job function."""
        return getattr(self._thread, "depth", 0) > 0

    # The seconds each stage of this thread's job took, for its closing log line.

    @contextmanager
    def timing(self) -> Iterator[dict[str, float]]:
        """Record this thread's stages (``stage``) in the dictionary yielded."""
        stages: dict[str, float] = {}
        self._thread.stages = stages
        try:
            yield stages
        finally:
            self._thread.stages = None

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Time a stage of the running job (reported on its ``job done`` line: where an
        upload's wait for its scores goes)."""
        started = time.perf_counter()
        try:
            yield
        finally:
            stages = getattr(self._thread, "stages", None)
            if stages is not None:
                stages[name] = stages.get(name, 0.0) + time.perf_counter() - started

    @contextmanager
    def turn(self) -> Iterator[None]:
        """``scoring`` for this job; waiting for it (a warm-up step under way) is a stage."""
        with self.stage("wait"):
            self.scoring.acquire()
        try:
            yield
        finally:
            self.scoring.release()

    def redis_queue(self, redis_url: str) -> RedisQueue:
        """One connection pool per process, not one per job."""
        from app.data.queue import RedisQueue

        with self._lock:
            if redis_url not in self._queues:
                self._queues[redis_url] = RedisQueue(redis_url)
            return self._queues[redis_url]
