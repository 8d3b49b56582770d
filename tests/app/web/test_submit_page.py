"""The submit page states the track's rules (deadline with time left, late policy, daily limit
and what is left of it, system limits, phase), and a limit refusal says when to come back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.web.services.submissions import until
from tests.support.board import upload
from tests.support.factories import demo_track, login, participant

PAGE = "/challenges/demo/tracks/main/submit"


def test_until_says_how_long_in_words() -> None:
    now = datetime(2026, 1, 1, 12, 0)
    assert until(now + timedelta(days=3, hours=4, minutes=5), now) == "in 3 days 4 h"
    assert until(now + timedelta(days=1, minutes=5), now) == "in 1 day 0 h"
    assert until(now + timedelta(hours=2, minutes=5), now) == "in 2 h 5 min"
    assert until(now + timedelta(seconds=40), now) == "in 40 s"
    assert until(now - timedelta(seconds=1), now) == "passed"


def test_submit_page_states_deadline_limit_and_what_is_left(client, settings):
    deadline = (datetime.now(UTC) + timedelta(days=3, hours=1)).replace(microsecond=0, tzinfo=None)
    demo_track(settings, daily_limit=2, deadline=deadline)
    token = participant(settings, "a@x.org", team="A")
    login(client, "a@x.org")
    page = client.get(PAGE).get_data(as_text=True)
    assert f"{deadline:%Y-%m-%d %H:%M} UTC" in page and "(in 3 days " in page
    assert "accepted, scored and marked late" in page
    assert "<strong>2</strong> of 2 left" in page
    assert "development: scores are public" in page

    assert upload(client, token, "sys-a").status_code == 202
    page = client.get(PAGE).get_data(as_text=True)
    assert "<strong>1</strong> of 2 left; the next frees up " in page and "(in 23 h " in page


def test_the_daily_limit_refusal_says_when_the_next_upload_counts(client, settings):
    demo_track(settings, daily_limit=1)
    token = participant(settings, "a@x.org", team="A")
    assert upload(client, token, "sys-a").status_code == 202
    refused = upload(client, token, "sys-b")
    assert refused.status_code == 400
    message = refused.get_json()["error"]
    assert "used its 1 submissions for this track in the last 24 hours" in message
    assert "the next one can be uploaded from " in message and " UTC (in 23 h " in message
