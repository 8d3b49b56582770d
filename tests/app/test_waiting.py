"""A waiting submission says where it stands: its place in the scoring line and an estimate
from recent jobs, on My submissions (which updates itself meanwhile) and in the API."""

from __future__ import annotations

from datetime import timedelta

from app.db import session_scope
from app.models import Submission, SubmissionStatus, utcnow
from tests.support.board import bearer, upload
from tests.support.factories import demo_track, login, participant, run_queue


def test_queue_place_and_estimate_on_the_page_and_in_the_api(app, client, settings):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    assert upload(client, token, "first").status_code == 202
    with session_scope(settings.database_url) as session:  # one job done in 12 s (nobody runs
        done = session.get(Submission, 1)  # the queue until the end of the test)
        done.status = SubmissionStatus.SCORED
        done.started_at, done.finished_at = utcnow() - timedelta(seconds=12), utcnow()
    for name in ("second", "third"):
        assert upload(client, token, name).status_code == 202
    status = client.get("/api/v1/submissions/3", headers=bearer(token)).json
    assert (status["status"], status["position"], status["estimate_seconds"]) == ("queued", 2, 24.0)
    assert "position" not in client.get("/api/v1/submissions/1", headers=bearer(token)).json
    second = client.get("/api/v1/submissions/2", headers=bearer(token)).json
    assert (second["position"], second["estimate_seconds"]) == (1, 12.0)

    login(client, "a@x.org")
    page = client.get("/submissions").get_data(as_text=True)
    assert 'data-waiting="1"' in page and "/static/status.js" in page  # updates by itself
    assert ">check again</a>" in page  # and without JavaScript
    assert "next in line · scores in about 12 s" in page
    assert "2 in line · scores in about 24 s" in page

    run_queue(app)
    page = client.get("/submissions").get_data(as_text=True)
    assert 'data-waiting=""' in page and "in line" not in page
    with session_scope(settings.database_url) as session:
        assert session.get(Submission, 3).status == SubmissionStatus.SCORED
