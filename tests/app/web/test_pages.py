"""The public pages a newcomer reads first: the home page's summary of each challenge, and a
leaderboard whose every column says which way is better and how it was computed."""

from __future__ import annotations

from datetime import datetime

from app.data.db import session_scope
from app.web.services.tracks import get_challenge
from tests.support.board import set_track, upload
from tests.support.factories import demo_track, participant, run_queue


def test_home_page_summarises_each_challenge(app, client, settings):
    demo_track(settings, deadline=datetime(2099, 1, 31, 23, 59))
    with session_scope(settings.database_url) as session:
        get_challenge(session, "demo").description = "Generate restaurant descriptions from MRs."
    for team in ("A", "B"):
        token = participant(settings, f"{team.lower()}@x.org", team=team)
        assert upload(client, token, f"sys-{team}").status_code == 202
    run_queue(app)
    page = client.get("/").get_data(as_text=True)
    assert "Generate restaurant descriptions from MRs." in page
    assert "2 teams · 2 submissions" in page and "next deadline 2099-01-31 23:59 UTC" in page
    assert "<td>development</td>" in page and "2099-01-31 23:59" in page
    assert "A / sys-A · norm_avg " in page or "B / sys-B · norm_avg " in page

    set_track(settings, phase="test")
    page = client.get("/").get_data(as_text=True)
    assert "results not published yet" in page and "sys-A" not in page


def test_every_leaderboard_column_says_its_direction_and_signature(app, client, settings):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    assert upload(client, token, "sys-a").status_code == 202
    run_queue(app)
    page = client.get("/challenges/demo/tracks/main").get_data(as_text=True)
    assert 'title="lower is better · SER|' in page and 'title="higher is better · BLEU|' in page
    assert 'href="#sig-SER"' in page and '<li id="sig-SER"><strong>SER</strong>' in page
    assert '<li id="sig-MSTTR-50"><strong>MSTTR-50</strong>\n    (descriptive)' in page
    assert 'role="region" aria-label="Leaderboard (scrolls sideways)"' in page
    assert "Scroll the table sideways for more columns" in page
