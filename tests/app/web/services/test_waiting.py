"""A waiting submission says where it stands: its place in the scoring line and an estimate
from recent jobs, on My submissions (which updates itself meanwhile) and in the API."""

from __future__ import annotations

import io
from datetime import timedelta
from pathlib import Path

import pytest

from app.data.db import session_scope
from app.data.models import Submission, SubmissionStatus, utcnow
from app.web.services.waiting import JobTimes
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


def _timed_jobs(settings, challenge: str, seconds: float, count: int) -> None:
    """``count`` scored baseline jobs on ``challenge``'s track, each timed at ``seconds``."""
    from app.data.models import System
    from app.web.services.tracks import get_track

    with session_scope(settings.database_url) as session:
        track = get_track(session, challenge, "main")
        system = System(track=track, name=f"timed-{seconds}", is_baseline=True)
        for k in range(count):
            finished = utcnow() - timedelta(minutes=count - k)
            session.add(
                Submission(
                    system=system,
                    language="en",
                    filename="timed.txt",
                    file_sha256=f"{k:064d}",
                    status=SubmissionStatus.SCORED,
                    started_at=finished - timedelta(seconds=seconds),
                    finished_at=finished,
                )
            )


def test_the_estimate_adds_each_waiting_jobs_own_measured_time(app, client, settings):
    """Fifteen 1 s jobs on a small track, then two 10 s jobs on this one: three uploads here
    take about 10, 20 and 30 s (the median of all recent jobs said 1, 2 and 3 s)."""
    demo_track(settings)
    demo_track(settings, challenge="small")
    _timed_jobs(settings, "small", 1.0, 15)
    _timed_jobs(settings, "demo", 10.0, 2)
    token = participant(settings, "a@x.org", team="A")
    ids = [upload(client, token, name).json["id"] for name in ("one", "two", "three")]
    estimates = [client.get(f"/api/v1/submissions/{i}", headers=bearer(token)).json for i in ids]
    assert [(s["position"], s["estimate_seconds"]) for s in estimates] == [
        (1, 10.0),
        (2, 20.0),
        (3, 30.0),
    ]

    with session_scope(settings.database_url) as session:  # the first one started 4 s ago
        running = session.get(Submission, ids[0])
        running.status, running.started_at = (
            SubmissionStatus.RUNNING,
            utcnow() - timedelta(seconds=4),
        )
    third = client.get(f"/api/v1/submissions/{ids[2]}", headers=bearer(token)).json
    assert third["estimate_seconds"] == pytest.approx(26.0, abs=0.5)
    with session_scope(settings.database_url) as session:  # a second worker took the second
        second = session.get(Submission, ids[1])
        second.status, second.started_at = SubmissionStatus.RUNNING, utcnow()
    third = client.get(f"/api/v1/submissions/{ids[2]}", headers=bearer(token)).json
    assert third["estimate_seconds"] == pytest.approx(16.0, abs=0.5)  # after the first's 6 s


def test_a_test_set_never_timed_is_estimated_from_seconds_per_item():
    times = JobTimes({(1, "en"): 10.0}, per_item=0.02, overall=10.0)
    assert times.expected((1, "en"), 630) == 10.0
    assert times.expected((2, "en"), 630) == pytest.approx(12.6)
    assert times.expected((2, "en"), None) == 10.0
    assert JobTimes({}, None, None).expected((2, "en"), 630) is None


def test_the_queued_notice_is_marked_for_the_page_to_drop_once_scored(app, client, settings):
    """The upload's "queued for scoring" flash carries the class status.js removes when
    nothing waits any more (the browser test watches it go)."""
    from tests.support.factories import GOOD_OUTPUT

    demo_track(settings)
    participant(settings, "a@x.org", team="A")
    login(client, "a@x.org")
    page = client.post(
        "/challenges/demo/tracks/main/submit",
        data={"system": "s", "file": (io.BytesIO(GOOD_OUTPUT), "out.txt")},
        content_type="multipart/form-data",
        follow_redirects=True,
    ).get_data(as_text=True)
    assert '<p class="flash info queued" role="status">Submission 1 (en) queued' in page
    script = (Path(app.static_folder) / "status.js").read_text()
    assert ".flash.queued" in script


def test_no_queued_notice_on_a_page_loaded_after_the_scores(app, client, settings):
    """Scored before the redirect after the upload was served (a loaded machine, a quick test
    set): the page loads with nothing waiting, so status.js never runs and could not drop the
    "queued for scoring" notice; the page leaves it out."""
    from tests.support.factories import GOOD_OUTPUT

    demo_track(settings)
    participant(settings, "a@x.org", team="A")
    login(client, "a@x.org")
    uploaded = client.post(
        "/challenges/demo/tracks/main/submit",
        data={"system": "s", "file": (io.BytesIO(GOOD_OUTPUT), "out.txt")},
        content_type="multipart/form-data",
    )
    assert uploaded.status_code == 302
    with session_scope(settings.database_url) as session:
        session.get(Submission, 1).status = SubmissionStatus.SCORED
    page = client.get("/submissions").get_data(as_text=True)
    assert 'data-waiting=""' in page and "status-scored" in page
    assert "queued for scoring" not in page
    assert "queued for scoring" not in client.get("/submissions").get_data(as_text=True)
