"""A challenge's public page: the organisers' Markdown description (sanitised), each track's
phase, deadline and inputs to download, a test phase's team and submission counts, and a
glossary of the columns (meaning, direction, signature)."""

from __future__ import annotations

import html
import re
from datetime import timedelta

from app.data.db import session_scope
from app.data.models import TEST, Submission, SubmissionStatus, utcnow
from app.web.services.markdown import markdown_html, markdown_text
from tests.support.board import set_track, upload
from tests.support.factories import demo_track, login, organiser, participant

DESCRIPTION = """The E2E-style demo.

- Training data: [trainset.csv](https://example.org/e2e/trainset.csv)
- Rules: [the rules page](https://example.org/rules)

See *the paper* for details.

<script>alert("x")</script> [click](javascript:alert(1)) <img src=x onerror=alert(1)>
"""


def test_markdown_keeps_links_lists_and_paragraphs_and_drops_anything_that_runs():
    shown = str(markdown_html(DESCRIPTION))
    assert (
        '<a href="https://example.org/e2e/trainset.csv" rel="nofollow noopener noreferrer">'
        "trainset.csv</a>" in shown
    )
    assert shown.count("<li>") == 2 and shown.count("<p>") == 3 and "<em>the paper</em>" in shown
    assert "<script" not in shown and "<img" not in shown and 'href="javascript' not in shown
    assert "&lt;script&gt;" in shown  # raw HTML is shown as text, not run
    assert str(markdown_html("# Data\n## Format")) == "<h2>Data</h2>\n<h3>Format</h3>\n"
    assert markdown_text("A [link](https://x.org) & *this*") == "A link & this"


def test_an_organisers_markdown_description_is_rendered_on_the_challenge_page(client, settings):
    demo_track(settings)
    organiser(settings, "org@x.org", "demo")
    login(client, "org@x.org")
    saved = client.post(
        "/organise/demo",
        data={"action": "edit", "edit-title": "Demo", "edit-description": DESCRIPTION},
        follow_redirects=True,
    )
    assert "Challenge saved." in saved.get_data(as_text=True)
    client.post("/logout")
    page = client.get("/challenges/demo").get_data(as_text=True)
    assert 'href="https://example.org/rules" rel="nofollow noopener noreferrer"' in page
    description = page.split('<div class="description">')[1].split("</div>")[0]
    assert "<li>" in description and "<script" not in description and "<img" not in description
    index = client.get("/").get_data(as_text=True)
    assert "Training data: trainset.csv Rules: the rules page" in html.unescape(index)


def test_the_page_shows_phases_deadlines_data_and_a_glossary(client, settings):
    demo_track(settings)
    set_track(settings, deadline=utcnow() + timedelta(days=3))
    page = client.get("/challenges/demo").get_data(as_text=True)
    assert 'href="/challenges/demo/tracks/main/inputs?lang=en">inputs (en, 10)</a>' in page
    assert "development · scores public at once" in page
    deadline = (utcnow() + timedelta(days=3)).strftime("%Y-%m-%d")
    assert re.search(rf"<td>{deadline} \d\d:\d\d</td>", page)
    glossary = page.split('id="glossary"')[1]
    for name in ("BLEU", "norm_avg", "SER", "OK%", "A%", "M%", "A+M%"):
        assert f"<dt><strong>{name}</strong>" in glossary, name
    assert "Share of outputs that realise their MR exactly" in glossary
    assert "↓ lower is better" in glossary.split("<strong>SER</strong>")[1].split("</dt>")[0]
    assert "↑ higher is better" in glossary.split("<strong>OK%</strong>")[1].split("</dt>")[0]
    assert "<code>SER|e2e-slot-error-script|" in glossary


def test_a_test_phase_page_counts_teams_and_submissions(client, settings):
    demo_track(settings)
    tokens = [participant(settings, f"{n}@x.org", team=n.upper()) for n in ("a", "b")]
    for token, system in ((tokens[0], "s1"), (tokens[0], "s2"), (tokens[1], "t1")):
        assert upload(client, token, system).status_code == 202
    assert upload(client, tokens[1], "t2").status_code == 202
    with session_scope(settings.database_url) as session:  # neither of these counts
        session.get(Submission, 4).withdrawn_at = utcnow()
    page = client.get("/challenges/demo").get_data(as_text=True)
    assert 'class="participation"' not in page  # development: the leaderboard says it all
    set_track(settings, phase=TEST)
    page = client.get("/challenges/demo").get_data(as_text=True)
    assert '<span class="participation">2 teams, 3 submissions</span>' in page
    assert "test · scores hidden until published" in page
    with session_scope(settings.database_url) as session:
        session.get(Submission, 3).status = SubmissionStatus.FAILED
    page = client.get("/challenges/demo").get_data(as_text=True)
    assert '<span class="participation">1 team, 2 submissions</span>' in page
