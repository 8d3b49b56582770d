"""A worker's start-up: everything the first job of an open track would prepare, prepared
before it arrives.

The first upload after a start-up used to wait while its job loaded the test set from the
database and built every metric's prepared references (METEOR's in each scoring process,
mteval's n-gram tables, CIDEr's vectors, the PTB tokens, SER's reading of the inputs): 2-5 s on
an E2E-sized test set. At start-up, a background thread of the worker scores a placeholder
output (one word per item) against the test set of each track still open for submissions,
which builds all of that and keeps it as a job keeps it. The placeholder's figures are thrown
away: nothing leaves the worker.

It gives way to jobs: it starts a test set only while no scoring job waits or runs, and a
job that arrives meanwhile waits for that one test set at most (``JobsState.scoring``; the
``MAX_REFERENCES`` bound keeps that short). It prepares at most ``MAX_TEST_SETS``, the most
recently submitted to first. It works on the process's ``JobsState`` (``worker.state``), the one
its jobs get.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Collection

from sqlalchemy import func, or_, select

from app.data.config import Settings
from app.data.db import session_scope
from app.data.models import Item, Reference, Submission, System, TestSet, Track, utcnow
from app.data.track_kinds import profile_name
from worker.state import JobsState

log = logging.getLogger(__name__)

MAX_TEST_SETS = 4
"""As many as the metrics keep prepared in memory (``PreparedCache``): more would push the
first ones out again."""
MAX_REFERENCES = 20_000
"""Larger test sets are left to their first job: preparing one holds a job back too long."""
PLACEHOLDER = "x"
"""Every item's output in the preparing pass: short, so only the references cost time."""
IDLE_POLL = 0.05


def open_test_sets(settings: Settings, profiles: Collection[str] = ()) -> list[int]:
    """Ids of the test sets of tracks open for submissions (no deadline passed, results not
    published), of the ``profiles`` (all when empty), at most ``MAX_REFERENCES`` references
    each: the most recently submitted to first, then the newest; at most ``MAX_TEST_SETS``."""
    now = utcnow()
    latest = (
        select(System.track_id, func.max(Submission.created_at).label("at"))
        .join(Submission, Submission.system_id == System.id)
        .group_by(System.track_id)
        .subquery()
    )
    references = (
        select(Item.test_set_id, func.count(Reference.id).label("count"))
        .join(Reference, Reference.item_id == Item.id)
        .group_by(Item.test_set_id)
        .subquery()
    )
    query = (
        select(TestSet.id, Track.kind, Track.kind_definition)
        .join(Track, Track.id == TestSet.track_id)
        .join(references, references.c.test_set_id == TestSet.id)
        .outerjoin(latest, latest.c.track_id == Track.id)
        .where(
            or_(Track.deadline.is_(None), Track.deadline > now),
            Track.is_published.is_(False),
            references.c.count <= MAX_REFERENCES,
        )
        .order_by(latest.c.at.is_(None), latest.c.at.desc(), TestSet.id.desc())
    )
    with session_scope(settings.database_url) as session:
        rows = session.execute(query).all()
    wanted = [
        test_set_id
        for test_set_id, kind, definition in rows
        if not profiles or profile_name(kind, definition) in profiles
    ]
    return wanted[:MAX_TEST_SETS]


def prepare_test_set(settings: Settings, state: JobsState, test_set_id: int) -> bool:
    """Load the test set into the worker's copies and build what its metrics prepare from
    the references, as a first job would (holding ``state.scoring``, as a job does); False
    when a job got there first (or the test set is gone)."""
    with state.scoring:
        with session_scope(settings.database_url) as session:
            test_set = session.get(TestSet, test_set_id)
            if test_set is None or state.test_sets.holds(session, test_set):
                return False
            profile = test_set.track.scoring_profile
            loaded = state.test_sets.get(session, test_set)
        profile.statistics([PLACEHOLDER] * len(loaded.item_ids), loaded.references)
    return True


def prepare_open_test_sets(
    settings: Settings,
    state: JobsState,
    waiting: Callable[[], bool],
    profiles: Collection[str] = (),
) -> list[int]:
    """Prepare each open track's test set in turn, each only once no job waits or runs;
    return the ids prepared. A failure is logged: that test set's first job prepares it."""
    started = time.perf_counter()
    prepared = []
    for test_set_id in open_test_sets(settings, profiles):
        _wait_for_no_job(state, waiting)
        try:
            if prepare_test_set(settings, state, test_set_id):
                prepared.append(test_set_id)
        except Exception:
            log.exception("warm-up: preparing test set %s failed", test_set_id)
    if prepared:
        log.info(
            "warm-up: test sets %s prepared in %.2f s",
            prepared,
            time.perf_counter() - started,
            extra={"test_sets": len(prepared)},
        )
    return prepared


def _wait_for_no_job(state: JobsState, waiting: Callable[[], bool]) -> None:
    while waiting() or state.scoring_now():
        time.sleep(IDLE_POLL)


def start(
    settings: Settings,
    state: JobsState,
    waiting: Callable[[], bool],
    profiles: Collection[str] = (),
    then: Callable[[], object] | None = None,
) -> threading.Thread:
    """``prepare_open_test_sets`` in a background thread, then ``then`` (the profiles' own
    warm-up, where it is not done before serving) once no job is under way."""

    def run() -> None:
        try:
            prepare_open_test_sets(settings, state, waiting, profiles)
        except Exception:  # the database away at start-up: the first jobs prepare instead
            log.exception("warm-up: the open tracks' test sets could not be listed")
        if then is not None:
            _wait_for_no_job(state, waiting)
            then()

    thread = threading.Thread(target=run, daemon=True, name="warm-up")
    thread.start()
    return thread
