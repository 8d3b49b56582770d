"""The embedded default's queue: scoring and describing side by side in the web process."""

import threading
import time

from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import Submission, SubmissionStatus
from tests.support.board import upload
from tests.support.factories import demo_track, participant, run_queue
from worker import jobs


def status_of(settings, submission_id: int) -> SubmissionStatus:
    with session_scope(settings.database_url) as session:
        return session.scalar(select(Submission.status).where(Submission.id == submission_id))


def described(settings, submission_id: int) -> bool:
    with session_scope(settings.database_url) as session:
        return session.get(Submission, submission_id).described_at is not None


def test_a_running_description_does_not_delay_a_score(app, client, settings, monkeypatch):
    demo_track(settings)
    started, released = threading.Event(), threading.Event()
    describe = jobs.describe_submission

    def held(submission_id, settings, state):
        started.set()
        released.wait(120)
        return describe(submission_id, settings, state)

    monkeypatch.setattr(jobs, "describe_submission", held)
    queue = app.extensions["nlgboard.queue"]
    first = upload(client, participant(settings, "a@x.org", team="A"), "marlin").json["id"]
    queue.start()
    try:
        assert started.wait(60), "the first submission's describing job never started"
        second = upload(client, participant(settings, "b@x.org", team="B"), "quokka").json["id"]
        deadline = time.monotonic() + 60
        while status_of(settings, second) != SubmissionStatus.SCORED:
            assert time.monotonic() < deadline, "the score waited behind the description"
            time.sleep(0.05)
        assert not described(settings, first)  # still held: the score did not wait for it
    finally:
        released.set()
    queue.join()
    assert described(settings, first) and described(settings, second)


def test_no_description_starts_while_a_score_waits(app, client, settings, monkeypatch):
    demo_track(settings)
    queue = app.extensions["nlgboard.queue"]
    waiting_at_start: list[set[int]] = []
    describe = jobs.describe_submission

    def watched(submission_id, settings, state):
        waiting_at_start.append(queue.waiting_scores())
        return describe(submission_id, settings, state)

    monkeypatch.setattr(jobs, "describe_submission", watched)
    ids = [
        upload(client, participant(settings, f"{team}@x.org", team=team), name).json["id"]
        for team, name in (("A", "marlin"), ("B", "quokka"), ("C", "wombat"))
    ]
    run_queue(app)
    assert waiting_at_start == [set(), set(), set()]
    assert all(described(settings, i) for i in ids)
