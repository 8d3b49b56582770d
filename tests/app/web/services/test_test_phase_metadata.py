"""Before publication, the test phase tells nobody outside a team about its systems (issue 34):
not their system page (name, team, submission times), not the statistics of the hidden
references, and not, through "name is taken", that a name is some other team's."""

from __future__ import annotations

import io

from sqlalchemy import select

from app.data import models
from app.data.db import session_scope
from tests.support.board import API, TRACK, bearer, set_track
from tests.support.factories import login, run_queue

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


def test_choosing_a_name_says_nothing_about_other_teams_systems(app, settings, two_teams):
    """Team B tried team A's anonymised (or not yet published) system's name and was told it
    was taken; now the name is B's own system, and A's is untouched."""
    from tests.support.board import upload

    set_track(settings, phase="test")
    with session_scope(settings.database_url) as session:
        session.scalar(
            select(models.System).where(models.System.name == "marlin")
        ).is_anonymous = True
    client = app.test_client()
    taken = upload(client, two_teams["B"], "marlin")
    assert taken.status_code == 202
    free = upload(client, two_teams["B"], "never-used")
    assert free.status_code == 202  # the same answer as for a name nobody has
    with session_scope(settings.database_url) as session:
        owners = session.execute(
            select(models.Team.name, models.System.is_anonymous)
            .join(models.System.team)
            .where(models.System.name == "marlin")
            .order_by(models.System.id)
        ).all()
    assert owners == [("A", True), ("B", False)]


def test_a_baselines_name_stays_apart_from_the_teams(client, settings, two_teams):
    """Baselines are the organisers' systems, named in the open: a team cannot take a
    baseline's name (nor a baseline a team's), so a name on the board means one system."""
    from tests.support.board import upload
    from tests.support.factories import GOOD_OUTPUT, login

    login(client, "org@x.org")
    page = client.post(
        "/organise/demo/tracks/main/baselines",
        data={"baseline-name": "TGen", "baseline-file": (io.BytesIO(GOOD_OUTPUT), "tgen.txt")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert b"Baseline TGen: 1 submission(s) queued" in page.data
    refused = upload(client, two_teams["A"], "TGen")
    assert refused.status_code == 400 and "name of a baseline" in refused.json["error"]
    page = client.post(
        "/organise/demo/tracks/main/baselines",
        data={"baseline-name": "quokka", "baseline-file": (io.BytesIO(GOOD_OUTPUT), "q.txt")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert b"name the baseline otherwise" in page.data


def test_two_teams_systems_of_one_name_are_two_rows_everywhere(app, settings, two_teams):
    from tests.support.board import upload

    client = app.test_client()
    other = b"\n".join(b"a restaurant" for _ in range(10)) + b"\n"
    assert upload(client, two_teams["B"], "marlin", other).status_code == 202
    run_queue(app)
    with session_scope(settings.database_url) as session:
        for system in session.scalars(select(models.System)):
            system.is_primary = True
    rows = client.get(f"{API}/leaderboard").json["rows"]
    assert sorted((row["system"], row["team"]) for row in rows) == [
        ("marlin", "A"), ("marlin", "B"), ("quokka", "B")
    ]  # fmt: skip
    for url in ("", "/export.csv", "/export.json", "/export.tex", "/plots/bars.svg?metric=BLEU"):
        assert client.get(f"{TRACK}{url}").status_code == 200, url


def test_a_withdrawn_systems_page_is_gone_with_it(app, settings, two_teams):
    """Withdrawn means gone from every public view; ``/systems/<id>`` still showed the name
    and team of a system whose every submission was withdrawn (in the development phase, and
    once the test results were out), to the public and to other teams."""
    page = f"/systems/{system_id(settings, 'marlin')}"
    with session_scope(settings.database_url) as session:
        for submission in session.scalars(select(models.Submission)):
            if submission.system.name == "marlin":
                submission.withdrawn_at = models.utcnow()
    team_b, team_a, staff = (app.test_client() for _ in range(3))
    login(team_b, "b@x.org")
    login(team_a, "a@x.org")
    login(staff, "org@x.org")
    for phase, published in (("development", False), ("test", True)):
        set_track(settings, phase=phase, is_published=published)
        assert app.test_client().get(page).status_code == 404
        assert team_b.get(page).status_code == 404
        for own in (team_a, staff):  # its team restores it from there; organisers keep it
            shown = own.get(page)
            assert shown.status_code == 200 and "marlin" in shown.get_data(as_text=True)
    quokka = app.test_client().get(f"/systems/{system_id(settings, 'quokka')}")
    assert quokka.status_code == 200
