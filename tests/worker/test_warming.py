"""A worker's start-up: the test sets of open tracks prepared in the background, giving way to
jobs."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import Challenge, Submission, SubmissionStatus, Track, utcnow
from app.data.models import TestSet as StoredTestSet
from app.data.testsets import TestSetCache, load_test_set
from app.entry.root import start_embedded_worker
from scorer.metrics import cider, mteval
from tests.support.board import upload
from tests.support.factories import demo_track, participant
from worker import jobs, runner, warming
from worker.state import JobsState


@pytest.fixture
def state(app) -> JobsState:
    """The jobs' state of the app's embedded worker, fresh as a worker's at its start."""
    return app.extensions["nlgboard.queue"].state


@pytest.fixture
def fresh_copies(state) -> TestSetCache:
    """This process's test sets, as a worker has them at its start: none."""
    return state.test_sets


def stored_test_set(settings, challenge: str) -> int:
    with session_scope(settings.database_url) as session:
        return session.scalars(
            select(StoredTestSet.id).join(Track).join(Challenge).where(Challenge.slug == challenge)
        ).one()


def held(settings, test_set_id: int, copies: TestSetCache) -> bool:
    with session_scope(settings.database_url) as session:
        return copies.holds(session, session.get(StoredTestSet, test_set_id))


def status_of(settings, submission_id: int) -> SubmissionStatus:
    with session_scope(settings.database_url) as session:
        return session.scalar(select(Submission.status).where(Submission.id == submission_id))


def test_start_up_prepares_the_open_tracks_test_sets_not_the_closed_ones(
    app, settings, state, fresh_copies
) -> None:
    demo_track(settings, "open")
    demo_track(settings, "closed", deadline=utcnow() - timedelta(days=1))
    demo_track(settings, "published")
    with session_scope(settings.database_url) as session:
        track = session.scalars(select(Track).join(Challenge).where(Challenge.slug == "published"))
        track.one().is_published = True
    open_id = stored_test_set(settings, "open")

    assert warming.prepare_open_test_sets(settings, state, waiting=lambda: False) == [open_id]

    assert held(settings, open_id, fresh_copies)
    assert not held(settings, stored_test_set(settings, "closed"), fresh_copies)
    assert not held(settings, stored_test_set(settings, "published"), fresh_copies)
    with session_scope(settings.database_url) as session:
        references = load_test_set(session, open_id).references
    assert references in mteval._CACHE and references in cider._CACHE  # BLEU/NIST, CIDEr


def test_a_job_after_the_warm_up_reads_no_test_set(
    app, client, settings, state, fresh_copies
) -> None:
    demo_track(settings)
    warming.prepare_open_test_sets(settings, state, waiting=lambda: False)
    assert fresh_copies.misses == 1
    submission_id = upload(client, participant(settings, "a@x.org", team="A"), "marlin").json["id"]

    assert jobs.score_submission(submission_id, settings, state=state) == "scored"
    assert (fresh_copies.misses, fresh_copies.hits) == (1, 1)


def test_the_warm_up_starts_no_test_set_while_a_job_waits(
    app, settings, state, fresh_copies
) -> None:
    demo_track(settings)
    job_waits = threading.Event()
    job_waits.set()
    thread = warming.start(settings, state, waiting=job_waits.is_set)
    time.sleep(0.5)
    assert thread.is_alive() and not held(settings, stored_test_set(settings, "demo"), fresh_copies)

    job_waits.clear()
    thread.join(60)
    assert not thread.is_alive() and held(settings, stored_test_set(settings, "demo"), fresh_copies)


def test_the_warm_up_starts_no_test_set_while_a_job_runs(
    app, client, settings, state, fresh_copies, monkeypatch
) -> None:
    demo_track(settings)
    submission_id = upload(client, participant(settings, "a@x.org", team="A"), "marlin").json["id"]
    in_job, release = threading.Event(), threading.Event()
    compute = jobs._compute

    def slow_compute(settings, submission_id, state):
        in_job.set()
        release.wait(60)
        return compute(settings, submission_id, state)

    monkeypatch.setattr(jobs, "_compute", slow_compute)
    job = threading.Thread(
        target=jobs.score_submission, args=(submission_id, settings), kwargs={"state": state}
    )
    job.start()
    assert in_job.wait(60)
    prepared: list[list[int]] = []
    warm_up = threading.Thread(
        target=lambda: prepared.append(
            warming.prepare_open_test_sets(settings, state, lambda: False)
        )
    )
    warm_up.start()
    time.sleep(0.5)
    assert not prepared and fresh_copies.misses == 0  # it waits for the job

    release.set()
    job.join(60)
    warm_up.join(60)
    assert status_of(settings, submission_id) == SubmissionStatus.SCORED
    assert prepared == [[]]  # the job read the test set: nothing left to prepare
    assert fresh_copies.misses == 1


def test_the_embedded_worker_scores_while_its_warm_up_goes_on(
    app, client, settings, fresh_copies, monkeypatch
) -> None:
    demo_track(settings)
    loading, release = threading.Event(), threading.Event()

    def slow_profiles() -> None:  # the profiles' warm-up: an embedding model loading, say
        loading.set()
        release.wait(60)

    monkeypatch.setattr(runner, "warm_up_scorers", slow_profiles)
    try:
        start_embedded_worker(app)  # returns at once: the site answers meanwhile
        assert loading.wait(60), "the profiles' warm-up did not follow the test sets"
        assert held(settings, stored_test_set(settings, "demo"), fresh_copies)
        token = participant(settings, "a@x.org", team="A")
        submission_id = upload(client, token, "marlin").json["id"]
        deadline = time.monotonic() + 60
        while status_of(settings, submission_id) != SubmissionStatus.SCORED:
            assert time.monotonic() < deadline, "the score waited for the warm-up"
            time.sleep(0.05)
        assert fresh_copies.misses == 1 and fresh_copies.hits >= 1  # (its describing job too)
    finally:
        release.set()
        app.extensions["nlgboard.queue"].stop()
