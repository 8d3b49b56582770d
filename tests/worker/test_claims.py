"""Exactly-once scoring rests on the claim, not on the queue: the rules, on a real SQLite DB."""

import dataclasses
from datetime import timedelta

from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import Score, Submission, SubmissionStatus, utcnow
from scorer.kinds import get_profile
from tests.support.board import upload
from tests.support.factories import participant
from tests.support.tracks import queued_submission
from worker import jobs
from worker.embedded import EmbeddedQueue
from worker.recovery import recover
from worker.state import JobsState


def test_second_claim_loses_while_the_first_is_alive(client, settings):
    submission_id = queued_submission(client, settings)
    assert jobs.claim_submission(settings, submission_id) is not None
    assert jobs.claim_submission(settings, submission_id) is None


def test_stale_claim_is_taken_over_and_the_old_holder_cannot_write(client, settings):
    submission_id = queued_submission(client, settings)
    old = jobs.claim_submission(settings, submission_id)
    with session_scope(settings.database_url) as session:
        session.get(Submission, submission_id).heartbeat_at = utcnow() - timedelta(hours=1)
    new = jobs.claim_submission(settings, submission_id)
    assert new is not None and new.token != old.token
    assert jobs._finish_failed(settings, old, "late writer").outcome == "skipped"
    assert jobs.score_submission(submission_id, settings) == "skipped"  # still held by `new`


def test_scoring_twice_writes_one_set_of_scores(client, settings):
    submission_id = queued_submission(client, settings)
    assert jobs.score_submission(submission_id, settings) == "scored"
    assert jobs.score_submission(submission_id, settings) == "skipped"
    with session_scope(settings.database_url) as session:
        metrics = session.scalars(select(Score).where(Score.subset == "")).all()
        assert len(metrics) == len(get_profile("e2e").columns)
        row = session.get(Submission, submission_id)
        assert row.status == SubmissionStatus.SCORED and row.attempts == 1


def test_recovery_enqueues_lost_and_abandoned_but_not_finished(client, settings):
    submission_id = queued_submission(client, settings)
    queue = EmbeddedQueue(settings)  # a fresh process: the web request's queue is gone
    assert recover(settings, queue) == []  # younger than the grace period: may be enqueuing
    settings = dataclasses.replace(settings, queued_grace_seconds=0)
    assert recover(settings, queue) == [submission_id]
    assert recover(settings, queue) == []  # already pending: not twice
    jobs.score_submission(submission_id, settings)
    assert recover(settings, EmbeddedQueue(settings)) == []


def test_file_that_became_unreadable_fails_with_a_readable_error(client, settings):
    submission_id = queued_submission(client, settings)
    with session_scope(settings.database_url) as session:
        for item in session.get(Submission, submission_id).system.track.test_sets[0].items[:1]:
            session.delete(item)
    assert jobs.score_submission(submission_id, settings) == "failed"
    with session_scope(settings.database_url) as session:
        row = session.get(Submission, submission_id)
        assert "expected 9 outputs" in row.error and "Traceback" not in row.error


def test_a_submission_handed_back_mid_job_is_queued_and_its_job_writes_nothing(
    client, settings, monkeypatch
):
    submission_id = queued_submission(client, settings)
    compute, handed, state = jobs._compute, [], JobsState()  # the worker process's

    def stopped_meanwhile(*args):
        handed.extend(jobs.hand_back(settings, state))  # what a stop signal does meanwhile
        return compute(*args)

    monkeypatch.setattr(jobs, "_compute", stopped_meanwhile)
    assert jobs.score_submission(submission_id, settings, state=state) == "skipped"
    assert handed == [submission_id]
    assert jobs.hand_back(settings, state) == []  # nothing left in hand
    with session_scope(settings.database_url) as session:
        row = session.get(Submission, submission_id)
        assert (row.status, row.claim_token) == (SubmissionStatus.QUEUED, None)
        assert session.scalars(select(Score)).all() == []
    monkeypatch.setattr(jobs, "_compute", compute)
    assert jobs.score_submission(submission_id, settings) == "scored"  # the next worker's


class _RefusingOne(EmbeddedQueue):
    """A queue whose discard fails for one submission, as RQ's did on a lost execution."""

    def __init__(self, settings, refused: int | None) -> None:
        super().__init__(settings)
        self.refused = refused

    def discard(self, submission_id: int) -> None:
        if submission_id == self.refused:
            raise ValueError("Execution 0123 not found in Redis")
        super().discard(submission_id)


def test_one_submission_the_queue_refuses_does_not_hold_back_the_others(client, settings):
    first = queued_submission(client, settings)
    answer = upload(client, participant(settings, "b@x.org", team="B"), "other")
    second = answer.json["id"]
    settings = dataclasses.replace(settings, queued_grace_seconds=0)
    queue = _RefusingOne(settings, first)
    assert recover(settings, queue) == [second]
    queue.refused = None  # the queue answers again: the next pass takes it
    assert recover(settings, queue) == [first]
