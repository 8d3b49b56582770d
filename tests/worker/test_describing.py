"""Textual statistics come from a second job, after the scores (tests/worker/test_embedded.py:\nscoring never waits for it)."""

import dataclasses
import logging

from sqlalchemy import func, select

from app.data.db import session_scope
from app.data.models import DESCRIBED, Score, Submission, SubmissionStatus
from app.data.models import TestSet as StoredTestSet
from tests.support.board import upload
from tests.support.factories import demo_track, participant, run_queue
from tests.support.tracks import queued_submission
from worker import jobs
from worker.embedded import EmbeddedQueue
from worker.recovery import recover
from worker.state import JobsState


def described_rows(settings, submission_id: int) -> int:
    with session_scope(settings.database_url) as session:
        return session.scalar(
            select(func.count(Score.id)).where(
                Score.submission_id == submission_id, Score.subset == DESCRIBED
            )
        )


def test_each_submission_is_scored_then_described(app, client, settings, caplog):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    first = upload(client, token, "marlin").json["id"]
    second = upload(client, token, "quokka").json["id"]
    with caplog.at_level(logging.INFO, logger="worker.jobs"):
        run_queue(app)
    done = [r.getMessage().split(" in ")[0] for r in caplog.records if "done (" in r.getMessage()]
    for submission_id in (first, second):
        scored = done.index(f"submission {submission_id}: job done (scored)")
        assert done.index(f"submission {submission_id}: describing done (described)") > scored
    assert done.index(f"submission {first}: job done (scored)") < done.index(
        f"submission {second}: job done (scored)"
    )
    assert described_rows(settings, first) > 0 and described_rows(settings, second) > 0


def test_a_submission_is_described_once(client, settings):
    submission_id = queued_submission(client, settings)
    assert jobs.score_submission(submission_id, settings) == "scored"
    assert described_rows(settings, submission_id) == 0  # the scores do not wait for them
    assert jobs.describe_submission(submission_id, settings) == "described"
    rows = described_rows(settings, submission_id)
    assert rows > 0
    assert jobs.describe_submission(submission_id, settings) == "skipped"
    assert described_rows(settings, submission_id) == rows


def test_a_description_read_before_a_rescore_is_not_written(client, settings):
    submission_id = queued_submission(client, settings)
    jobs.score_submission(submission_id, settings)
    stale = jobs._load(settings, submission_id, JobsState())
    with session_scope(settings.database_url) as session:
        session.get(Submission, submission_id).status = SubmissionStatus.QUEUED
    assert jobs.score_submission(submission_id, settings) == "scored"
    described = {"MSTTR-50": 0.5}
    assert jobs._finish_described(settings, submission_id, stale, described) == "skipped"
    assert described_rows(settings, submission_id) == 0
    assert jobs.describe_submission(submission_id, settings) == "described"


def test_recovery_describes_a_scored_submission_whose_job_was_lost(client, settings):
    submission_id = queued_submission(client, settings)
    jobs.score_submission(submission_id, settings)  # its describing job was never queued
    queue = EmbeddedQueue(settings)
    recover(settings, queue)
    assert described_rows(settings, submission_id) == 0  # within the grace period
    recover(dataclasses.replace(settings, queued_grace_seconds=0), queue)
    queue.start()
    queue.join()
    assert described_rows(settings, submission_id) > 0
    with session_scope(settings.database_url) as session:
        assert session.get(Submission, submission_id).described_at is not None


def test_the_track_page_says_which_statistics_are_still_coming(client, settings):
    demo_track(settings)
    first = upload(client, participant(settings, "a@x.org", team="A"), "marlin").json["id"]
    second = upload(client, participant(settings, "b@x.org", team="B"), "quokka").json["id"]
    jobs.score_submission(first, settings)
    jobs.score_submission(second, settings)
    jobs.describe_submission(first, settings)
    page = client.get("/challenges/demo/tracks/main").get_data(as_text=True)
    assert "Textual statistics" in page
    assert "Still being computed for 1 system(s)" in page


def test_describing_reads_the_stored_outputs_not_the_uploaded_file(client, settings, monkeypatch):
    """Scoring stored each item's normalised output; describing uses those rows (the file was
    read twice already: at upload and to score)."""
    submission_id = queued_submission(client, settings)
    assert jobs.score_submission(submission_id, settings) == "scored"
    scored = jobs._load(settings, submission_id, JobsState()).outputs

    def no_file(*_args, **_kwargs):
        raise AssertionError("the uploaded file was read again")

    monkeypatch.setattr(jobs, "storage_for", no_file)
    assert jobs._load(settings, submission_id, JobsState(), stored=True).outputs == scored
    assert jobs.describe_submission(submission_id, settings) == "described"
    assert described_rows(settings, submission_id) > 0


def test_describing_survives_its_pool_shut_down_under_it(
    app, client, settings, monkeypatch, caplog
):
    """Issue 41: "describing the references failed: cannot schedule new futures after
    shutdown". The D-level pool shut down before the describing job reaches it (as the
    interpreter's exit does to a describing thread still running): the job still stores the
    submission's and the references' rows, D-levels included."""
    from scorer.describe import dlevel
    from tests.support.paths import require_link_parser

    require_link_parser()
    monkeypatch.setattr(dlevel, "POOL_MIN_SENTENCES", 1)  # the demo's few sentences, in the pool
    monkeypatch.setattr(dlevel.os, "cpu_count", lambda: 2)
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    submission_id = upload(client, token, "marlin").json["id"]
    dlevel._pool(2).shutdown(wait=True, cancel_futures=True)
    with caplog.at_level(logging.INFO):
        run_queue(app)
    assert "failed" not in caplog.text, caplog.text
    assert f"submission {submission_id}: describing done (described)" in caplog.text
    with session_scope(settings.database_url) as session:
        levels = session.scalars(
            select(Score.metric).where(
                Score.submission_id == submission_id, Score.metric == "D-level mean"
            )
        ).all()
        described = session.scalars(select(StoredTestSet.described)).one().reveal()
    assert levels == ["D-level mean"]
    assert {"D-level mean"} <= set(described["test set all"])
