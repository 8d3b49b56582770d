"""Before publication, the test phase tells nobody outside a team about its systems (issue 34):
not their system page (name, team, submission times), not the statistics of the hidden
references, and not, through "name is taken", that a name is some other team's."""

from __future__ import annotations

from sqlalchemy import select

from app import models
from app.db import session_scope
from tests.support.board import API, TRACK, bearer, set_track
from tests.support.factories import login

REFERENCE_FIGURES = {"test set all": {"MSTTR": 0.654321, "tokens": 4321.0}}


def system_id(settings, name: str) -> int:
    with session_scope(settings.database_url) as session:
        return session.scalar(select(models.System.id).where(models.System.name == name))


def test_a_test_phase_system_page_is_for_its_team_and_the_organisers(app, settings, two_teams):
    """``/systems/<id>`` showed team A's system name, team and submission times to team B
    and to the public while the results were hidden; now it is a 404, as for an id that
    does not exist (a minimal page would still confirm the system)."""
    set_track(settings, phase="test", hide_own_scores=True)
    page = f"/systems/{system_id(settings, 'marlin')}"
    visitors = {email: app.test_client() for email in ("a@x.org", "b@x.org", "org@x.org")}
    for email, client in visitors.items():
        login(client, email)
    assert app.test_client().get(page).status_code == 404
    assert visitors["b@x.org"].get(page).status_code == 404
    for own in ("a@x.org", "org@x.org"):  # its team even while its scores are hidden
        shown = visitors[own].get(page)
        assert shown.status_code == 200 and "marlin" in shown.get_data(as_text=True)
    set_track(settings, is_published=True)
    shown = app.test_client().get(page).get_data(as_text=True)
    assert "marlin" in shown and "Team A" in shown


def test_reference_statistics_wait_for_publication(app, settings, two_teams):
    """The statistics of the hidden references ("test set all") were on the track page and in
    the API for a team that could see its own row in the test phase."""
    with session_scope(settings.database_url) as session:
        session.scalars(select(models.TestSet)).one().described = REFERENCE_FIGURES
    set_track(settings, phase="test")
    team = bearer(two_teams["A"])
    assert client_json(app, f"{API}/leaderboard", team)["references"] == {}
    organiser = bearer(two_teams["org"])
    assert client_json(app, f"{API}/leaderboard", organiser)["references"] == REFERENCE_FIGURES
    browser = app.test_client()
    login(browser, "a@x.org")
    assert "0.654" not in browser.get(TRACK).get_data(as_text=True)
    set_track(settings, is_published=True)
    assert client_json(app, f"{API}/leaderboard", team)["references"] == REFERENCE_FIGURES


def client_json(app, url: str, headers: dict) -> dict:
    answer = app.test_client().get(url, headers=headers)
    assert answer.status_code == 200
    return answer.json
