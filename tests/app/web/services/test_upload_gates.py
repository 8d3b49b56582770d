"""Who may upload (issue 42, "Accounts"). The finding: "the daily limit is per team and teams
are free: fresh accounts with unconfirmed addresses register, make a team and upload 5 more a
day each". Now a test-phase upload needs a confirmed address, the daily limit counts per person
as well as per team, and a challenge may ask its organisers to approve each team first."""

from __future__ import annotations

import io
import re

import pytest
from sqlalchemy import delete, select

from app.data.db import session_scope
from app.data.models import TEST, AuditEvent, Membership, Submission, Team, User
from app.data.storage import LocalStorage
from app.web.errors import DomainError
from app.web.services.accounts import create_team, create_user
from app.web.services.approvals import (
    find_team,
    set_team_approval,
    set_teams_need_approval,
    team_approved,
    teams_for_approval,
)
from app.web.services.submissions import personal_allowance, submit_output
from app.web.services.tracks import get_challenge, get_track
from tests.support.board import TRACK, set_track, upload
from tests.support.factories import (
    GOOD_OUTPUT,
    demo_track,
    login,
    organiser,
    participant,
)
from tests.support.paths import DEMO_DATA

PASSWORD = "kestrel-harbour-lantern"


def variant(n: int) -> bytes:
    return GOOD_OUTPUT.replace(b"\n", f" v{n}\n".encode(), 1)


def send(app, settings, session, email: str, system: str, n: int) -> list[Submission]:
    user = session.scalar(select(User).where(User.email == email))
    return submit_output(
        session,
        app.extensions["nlgboard.queue"],
        LocalStorage(settings.instance_path / "uploads"),
        user=user,
        team=user.team,
        track=get_track(session, "demo", "main"),
        system_name=system,
        filename="out.txt",
        data=variant(n),
        max_bytes=10_000_000,
    )


def switch_team(session, email: str, team: str) -> None:
    """What an administrator's move (or any way out of a team) does: the person is in another
    team, with a fresh allowance for it."""
    user = session.scalar(select(User).where(User.email == email))
    session.execute(delete(Membership).where(Membership.user_id == user.id))
    session.commit()
    session.expire_all()
    create_team(session, user, team)


# -- 2. the daily limit per person -------------------------------------------------------------


def test_a_person_who_changes_teams_gets_no_more_uploads_a_day(app, settings, session):
    demo_track(settings, daily_limit=2)
    participant(settings, "p@x.org", team="A")
    for n in range(2):
        send(app, settings, session, "p@x.org", "first", n)
    switch_team(session, "p@x.org", "B")
    with pytest.raises(DomainError, match="limit of 2 a day is per person as well as per team"):
        send(app, settings, session, "p@x.org", "second", 2)
    track = get_track(session, "demo", "main")
    user = session.scalar(select(User).where(User.email == "p@x.org"))
    allowance = personal_allowance(session, track, user, "en")
    assert allowance is not None and (allowance.used, allowance.remaining) == (2, 0)
    assert session.scalar(select(Team).where(Team.name == "B")) is not None
    assert len(session.scalars(select(Submission)).all()) == 2


def test_the_personal_count_leaves_the_team_mates_and_failed_uploads_alone(app, settings, session):
    from app.data.models import SubmissionStatus

    demo_track(settings, daily_limit=2)
    participant(settings, "p@x.org", team="A")
    participant(settings, "q@x.org", team="B")
    first = send(app, settings, session, "p@x.org", "s", 0)
    send(app, settings, session, "p@x.org", "s", 1)
    send(app, settings, session, "q@x.org", "t", 2)  # another person's uploads are theirs
    first[0].status = SubmissionStatus.FAILED
    session.commit()
    switch_team(session, "p@x.org", "C")
    send(app, settings, session, "p@x.org", "u", 3)  # the failed one does not count
    with pytest.raises(DomainError, match="per person"):
        send(app, settings, session, "p@x.org", "u", 4)


def test_regression_one_person_two_teams_through_the_api_stops_at_the_limit(app, client, settings):
    """The finding, through the API: a person's second team does not buy a second quota (on
    the code before, the third upload was accepted)."""
    demo_track(settings, daily_limit=2)
    token = participant(settings, "p@x.org", team="A")
    assert upload(client, token, "one", variant(0)).status_code == 202
    assert upload(client, token, "one", variant(1)).status_code == 202
    with session_scope(settings.database_url) as session:
        switch_team(session, "p@x.org", "B")
    refused = upload(client, token, "two", variant(2))
    assert refused.status_code == 400, refused.json
    assert "per person as well as per team" in refused.json["error"]
    assert "used its" not in refused.json["error"]  # not the team's limit: team B has 2 left
    login(client, "p@x.org")
    page = client.get(f"{TRACK}/submit").get_data(as_text=True)
    assert "<strong>0</strong> of 2 left" in page and "as many per person" in page


# -- 1. confirmed addresses in the test phase --------------------------------------------------


def unconfirmed(settings, email: str, team: str) -> str:
    with session_scope(settings.database_url) as session:
        user = create_user(session, email, "password123", verified=False)
        session.add(Membership(user=user, team=Team(name=team)))
        return user.new_api_token()


def test_an_unconfirmed_account_uploads_in_development_but_not_in_the_test_phase(
    app, client, settings
):
    demo_track(settings)
    token = unconfirmed(settings, "new@x.org", "Fresh")
    assert upload(client, token, "dev", variant(0)).status_code == 202
    set_track(settings, phase=TEST)
    refused = upload(client, token, "test", variant(1))
    assert refused.status_code == 400
    message = refused.json["error"]
    assert "test phase" in message and "confirm new@x.org" in message
    assert "Send the link again" in message and "/team" in message
    with session_scope(settings.database_url) as session:
        assert len(session.scalars(select(Submission)).all()) == 1  # nothing stored
        user = session.scalar(select(User).where(User.email == "new@x.org"))
        from app.data.models import utcnow

        user.email_verified_at = utcnow()
    assert upload(client, token, "test", variant(1)).status_code == 202


def test_the_organisers_may_let_unconfirmed_accounts_upload_in_the_test_phase(
    app, client, settings
):
    demo_track(settings)
    set_track(settings, phase=TEST, confirmed_only_in_test=False)
    token = unconfirmed(settings, "new@x.org", "Fresh")
    assert upload(client, token, "test", variant(0)).status_code == 202


def test_a_new_track_asks_for_confirmed_addresses_and_the_settings_form_keeps_it(
    app, client, settings
):
    from app.data.models import Track

    demo_track(settings)
    organiser(settings, "org@x.org", "demo")
    with session_scope(settings.database_url) as session:
        assert session.scalars(select(Track)).one().confirmed_only_in_test is True
    login(client, "org@x.org")
    page = client.get("/organise/demo/tracks/main").get_data(as_text=True)
    assert re.search(r"<input checked[^>]*settings-confirmed_only_in_test", page)
    fields = {"settings-title": "Main", "settings-phase": "test", "settings-max_primary": "2"}
    assert client.post("/organise/demo/tracks/main", data=fields).status_code == 302
    with session_scope(settings.database_url) as session:
        assert session.scalars(select(Track)).one().confirmed_only_in_test is False
        event = session.scalars(select(AuditEvent).order_by(AuditEvent.id.desc())).first()
        assert event.details["confirmed_only_in_test"] is False


def test_regression_fresh_web_accounts_cannot_upload_in_the_test_phase(app, client, settings):
    """The finding as it was run: register on the web, make a team, upload to a test-phase
    track through the form. A web registration is no account until its mailed link is opened
    (the address confirmed), so the upload never happens; an account left unconfirmed from
    before is refused in the test phase, saying what to do (the test above)."""
    from app.data.models import User

    demo_track(settings)
    set_track(settings, phase=TEST)
    for n, email in enumerate(("one@x.org", "two@x.org")):
        client.get("/logout")
        response = client.post(
            "/register", data={"email": email, "password": PASSWORD, "confirm": PASSWORD}
        )
        assert response.status_code == 200 and "Check your mail" in response.get_data(as_text=True)
        assert client.post("/team/create", data={"create-name": f"T{n}"}).status_code == 302
        page = client.post(
            f"{TRACK}/submit",
            data={"system": "s", "file": (io.BytesIO(variant(n)), "out.txt")},
            content_type="multipart/form-data",
        )
        assert page.status_code in (302, 401, 403), page.status_code  # to the login page
    with session_scope(settings.database_url) as session:
        assert session.scalars(select(Submission)).all() == []
        assert (
            session.scalars(select(User).where(User.email.in_(["one@x.org", "two@x.org"]))).all()
            == []
        )


# -- 3. teams the organisers approve -----------------------------------------------------------


def test_a_challenge_that_approves_teams_refuses_an_unapproved_ones_uploads(app, client, settings):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    with session_scope(settings.database_url) as session:
        set_teams_need_approval(session, None, get_challenge(session, "demo"), True)
    refused = upload(client, token, "s", variant(0))
    assert refused.status_code == 400
    assert "approve each team" in refused.json["error"] and "'A'" in refused.json["error"]
    with session_scope(settings.database_url) as session:
        challenge = get_challenge(session, "demo")
        team = find_team(session, "a")
        assert [s.approved_at for s in teams_for_approval(session, challenge)] == [None]
        set_team_approval(session, None, challenge, team, True)
        assert team_approved(session, team, challenge)
    assert upload(client, token, "s", variant(0)).status_code == 202
    with session_scope(settings.database_url) as session:
        actions = [e.action for e in session.scalars(select(AuditEvent).order_by(AuditEvent.id))]
        assert actions[-2:] == ["team approval rule", "team approve"]


def test_only_the_challenges_organisers_approve_its_teams(app, settings, session):
    from tests.support.factories import organiser as make_organiser

    demo_track(settings)
    demo_track(settings, challenge="other")
    participant(settings, "a@x.org", team="A")
    make_organiser(settings, "other-org@x.org", "other")
    stranger = session.scalar(select(User).where(User.email == "other-org@x.org"))
    challenge = get_challenge(session, "demo")
    with pytest.raises(DomainError, match="only the organisers of 'demo'"):
        set_team_approval(session, stranger, challenge, find_team(session, "A"), True)
    with pytest.raises(DomainError, match="only the organisers"):
        set_teams_need_approval(session, stranger, challenge, True)


def test_the_organisers_teams_page_switches_the_rule_and_approves(app, client, settings):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    organiser(settings, "org@x.org", "demo")
    login(client, "org@x.org")
    url = "/organise/demo/teams"
    assert client.post(url, data={"action": "rule", "needed": "y"}).status_code == 302
    page = client.get(url).get_data(as_text=True)
    assert "A" in page and "waiting" in page and "a@x.org" not in page
    assert upload(client, token, "s", variant(0)).status_code == 400
    with session_scope(settings.database_url) as session:
        team_id = find_team(session, "A").id
    done = client.post(url, data={"action": "approve", "team": str(team_id)})
    assert done.status_code == 302
    assert upload(client, token, "s", variant(0)).status_code == 202
    assert client.post(url, data={"action": "unapprove", "team": str(team_id)}).status_code == 302
    assert upload(client, token, "s", variant(1)).status_code == 400
    audit = client.get("/organise/demo/audit").get_data(as_text=True)
    assert "team approve" in audit and "team unapprove" in audit


def test_the_cli_approves_a_team(app, runner, settings):
    demo_track(settings)
    participant(settings, "a@x.org", team="A")
    result = runner.invoke(args=["challenge", "teams", "demo", "--need-approval"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(args=["challenge", "approve-team", "demo", "A"])
    assert result.exit_code == 0 and "team A approved for demo" in result.output
    with session_scope(settings.database_url) as session:
        challenge = get_challenge(session, "demo")
        assert challenge.teams_need_approval
        assert team_approved(session, find_team(session, "A"), challenge)
    result = runner.invoke(args=["challenge", "approve-team", "demo", "nobody"])
    assert result.exit_code != 0 and "no team called 'nobody'" in result.output


NOTICE = "test phase of track {track} of {challenge} without your approval"
SWITCH = "nlgboard challenge teams {challenge} --need-approval"


def test_an_organiser_opening_a_test_phase_is_told_how_to_switch_approval_on(app, client, settings):
    """Issue 47: approval is off unless asked for, and opening a test phase said nothing about
    it. Opening one on the track's settings page names the Teams page and the command that
    switch it on; saving again in the test phase, or opening it with approval on, says nothing."""
    demo_track(settings)
    organiser(settings, "org@x.org", "demo")
    login(client, "org@x.org")
    url = "/organise/demo/tracks/main"
    fields = {"settings-title": "Main", "settings-phase": "test", "settings-max_primary": "2"}
    page = client.post(url, data=fields, follow_redirects=True).text
    assert NOTICE.format(track="main", challenge="demo") in page
    assert "/organise/demo/teams" in page and SWITCH.format(challenge="demo") in page
    again = client.post(url, data=fields, follow_redirects=True).text
    assert "Track settings saved." in again and "without your approval" not in again
    client.post(url, data={**fields, "settings-phase": "development"})
    with session_scope(settings.database_url) as session:
        set_teams_need_approval(session, None, get_challenge(session, "demo"), True)
    page = client.post(url, data=fields, follow_redirects=True).text
    assert "Track settings saved." in page and "without your approval" not in page
    with session_scope(settings.database_url) as session:
        assert get_track(session, "demo", "main").phase == TEST


def test_importing_a_bundle_that_opens_a_test_phase_says_how_to_switch_approval_on(
    app, runner, settings
):
    """Issue 47, on the command line: a bundle's track in its (unpublished) test phase opens it
    (the README's example bundle has one, e2e); the challenge is new, so approval is off."""
    result = runner.invoke(args=["challenge", "import", str(DEMO_DATA)])
    assert result.exit_code == 0, result.output
    assert NOTICE.format(track="e2e", challenge="example") in result.output
    assert SWITCH.format(challenge="example") in result.output
