"""Published human evaluations follow the leaderboard's visibility rule (issue 34, points 2-4
and 13): hidden scores, withdrawn systems and anonymised names stay hidden in every table, plot
and export; each plot shows its own campaign; the references are never a team's system."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import Campaign, Submission, System, utcnow
from app.web.services.campaigns import CampaignSpec, create_campaign
from app.web.services.human_results import analyse
from app.web.services.tracks import get_track
from tests.support.board import set_track, upload
from tests.support.factories import login, participant, scored_system
from tests.support.human import BLEU, QUALITY, human_board, judge

TRACK = "/challenges/demo/tracks/main"


@pytest.fixture
def board(app, settings):
    human_board(settings)


def published_campaign(settings, name: str, quality: dict[str, float], **spec) -> None:
    with session_scope(settings.database_url) as session:
        track = get_track(session, "demo", "main")
        options = {"items": 10, "include_baselines": True, **spec}
        campaign = create_campaign(
            session, track, CampaignSpec(name, "rankme", "quality", **options)
        )
        judge(session, campaign, quality)
        analyse(session, campaign, runs=40)
        campaign.is_published = True


def human_section(page: str) -> str:
    return page[page.index('id="human-evaluation"') :]


def test_in_the_test_phase_a_team_sees_no_hidden_score_of_another_team(app, settings, board):
    """Point 2: the human table was built from the organisers' leaderboard, so team B read team
    A's hidden BLEU beside A's human score (and a correlation computed from hidden scores)."""
    published_campaign(settings, "quality", QUALITY)
    set_track(settings, phase="test")
    team_b = app.test_client()
    login(team_b, "b@x.org")
    page = team_b.get(TRACK).get_data(as_text=True)
    section = human_section(page)
    assert "<td>A / alpha</td>" in section  # the published human result itself is public
    assert "0.6543" not in page and "0.4321" not in page and "0.3012" not in page
    assert "0.5432" in section  # its own score: the leaderboard shows it to the team too
    assert "Pearson" not in section
    public = app.test_client().get(TRACK).get_data(as_text=True)
    assert not any(f"{bleu:.4f}" in public for bleu in BLEU.values())
    staff = app.test_client()
    login(staff, "org@x.org")
    assert "0.6543" in human_section(staff.get(TRACK).get_data(as_text=True))


def test_a_withdrawn_system_is_absent_from_the_published_human_results(app, settings, board):
    published_campaign(settings, "quality", QUALITY)
    with session_scope(settings.database_url) as session:
        alpha = session.scalar(select(System).where(System.name == "alpha"))
        session.scalar(
            select(Submission).where(Submission.system_id == alpha.id)
        ).withdrawn_at = utcnow()
    public = app.test_client()
    page = public.get(TRACK).get_data(as_text=True)
    assert "<td>B / beta</td>" in human_section(page)
    assert "alpha" not in page
    plot = public.get(f"{TRACK}/plots/human-quality.svg?metric=BLEU")
    assert plot.status_code == 200 and b"beta" in plot.data and b"alpha" not in plot.data
    team_a = app.test_client()
    login(team_a, "a@x.org")
    assert "alpha" not in human_section(team_a.get(TRACK).get_data(as_text=True))
    staff = app.test_client()
    login(staff, "org@x.org")
    assert "<td>A / alpha</td>" in human_section(staff.get(TRACK).get_data(as_text=True))


def test_each_campaigns_plot_shows_that_campaigns_scores(app, settings, board, monkeypatch):
    """Point 3: the plot picked the human column by criterion, so campaign q1's plot showed
    q2's TrueSkill values (both judged quality)."""
    published_campaign(settings, "q1", QUALITY)
    reversed_quality = {"alpha": 10, "beta": 30, "gamma": 60, "base": 90, "references": 100}
    published_campaign(settings, "q2", reversed_quality, seed=7)

    def scatter(metric, human, labels, x, y):  # what would be drawn, as the "image"
        return json.dumps({"human": human, "y": dict(zip(labels, y, strict=True))}).encode()

    monkeypatch.setattr("app.web.exports.human_scatter", scatter)
    client = app.test_client()
    drawn = [client.get(f"{TRACK}/plots/human-{name}.svg?metric=BLEU") for name in ("q1", "q2")]
    assert [plot.status_code for plot in drawn] == [200, 200]
    (label1, q1), (label2, q2) = (json.loads(plot.data).values() for plot in drawn)
    assert q1["A / alpha"] > q1["B / beta"] > q1["C / gamma"]
    assert q2["A / alpha"] < q2["B / beta"] < q2["C / gamma"]
    assert label1 != label2


def test_two_campaigns_on_one_criterion_have_their_own_headings(app, settings, board):
    """Point 13: both headings said "Quality (RankME + TrueSkill)"."""
    published_campaign(settings, "crowd-quality", QUALITY)
    published_campaign(settings, "expert-quality", QUALITY, items=5)
    section = human_section(app.test_client().get(TRACK).get_data(as_text=True))
    headings = [line for line in section.splitlines() if line.startswith("<h3")]
    assert len(headings) == 2 and headings[0] != headings[1]
    assert "crowd-quality" in headings[0] and "120 judgements" in headings[0]
    assert "expert-quality" in headings[1] and "60 judgements" in headings[1]


def test_a_team_system_named_human_keeps_its_own_outputs_and_score(app, settings, board):
    """Point 4: create_campaign replaced the outputs of a team system called "HUMAN" by the
    references, and the leaderboard gave that system the references' human score."""
    participant(settings, "d@x.org", team="D")
    with session_scope(settings.database_url) as session:
        scored_system(session, "demo", "main", "HUMAN", {"BLEU": 0.2, "NIST": 2.0}, team="D")
        track = get_track(session, "demo", "main")
        track.deadline = datetime.now(UTC) - timedelta(days=1)
        team_human = session.scalar(select(System).where(System.name == "HUMAN")).id
    published_campaign(settings, "quality", {**QUALITY, "HUMAN": 5}, include_human=True)
    with session_scope(settings.database_url) as session:
        campaign = session.scalar(select(Campaign))
        entries = [entry for unit in campaign.units for entry in unit.entries]
        assert any(entry.system_id == team_human for entry in entries)
        assert any(entry.system_id is None for entry in entries)  # the references
        from app.web.services.columns import add_human_scores
        from app.web.services.leaderboard import leaderboard

        track = get_track(session, "demo", "main")
        _, rows = leaderboard(session, track, include_secondary=True)
        add_human_scores(session, track, "en", rows)
        human = {row.system: value for row in rows for value in row.human.values()}
    assert human["HUMAN"] == min(human.values())  # scored 5, the references 100
    assert human["alpha"] > human["beta"] > human["gamma"] > human["HUMAN"]


def test_the_references_label_is_reserved(app, settings, board):
    token = participant(settings, "e@x.org", team="E")
    for name in ("HUMAN", "human"):
        answer = upload(app.test_client(), token, name)
        assert answer.status_code == 400, answer.json
        assert "reserved" in answer.json["error"]
