"""Organiser onboarding: an account registered on the web becomes an organiser (admin page or
``nlgboard user role``), then creates its challenge from the web."""

from __future__ import annotations

from app.data.db import session_scope
from app.data.models import ChallengeOrganiser, Role, User
from app.web.services.accounts import create_user
from tests.support.factories import demo_track, login
from tests.support.factories import register as register_and_confirm


def test_participant_learns_how_to_become_an_organiser(client, settings):
    register_and_confirm(client, settings, "maria@uni.example", "a long password")
    page = client.get("/organise")
    assert page.status_code == 403
    assert "nlgboard user role maria@uni.example organiser" in page.get_data(as_text=True)


def test_admin_grants_the_role_and_the_new_organiser_creates_a_challenge(app, client, settings):
    register_and_confirm(client, settings, "maria@uni.example", "a long password")
    client.post("/logout")
    with session_scope(settings.database_url) as session:
        create_user(session, "root@board.example", "password123", Role.ADMIN)
    login(client, "root@board.example")
    assert client.get("/organise/accounts").status_code == 200
    unknown = client.post("/organise/accounts", data={"email": "who@x.org", "role": "organiser"})
    assert "Refused: no account for who@x.org" in unknown.get_data(as_text=True)
    granted = client.post(
        "/organise/accounts", data={"email": "Maria@uni.example", "role": "organiser"}
    )
    assert granted.status_code == 302
    client.post("/logout")

    login(client, "maria@uni.example", "a long password")
    created = client.post(
        "/organise", data={"slug": "webnlg", "title": "WebNLG", "description": ""}
    )
    assert created.status_code == 302 and created.location.endswith("/organise/webnlg")
    assert client.get("/organise/webnlg").status_code == 200


def test_user_role_command_grants_a_challenge_to_an_existing_account(runner, settings, client):
    demo_track(settings)
    register_and_confirm(client, settings, "maria@uni.example", "a long password")
    result = runner.invoke(
        args=["user", "role", "maria@uni.example", "organiser", "--challenge", "demo"]
    )
    assert result.exit_code == 0, result.output
    assert "maria@uni.example is now organiser of demo" in result.output
    again = runner.invoke(
        args=["user", "role", "maria@uni.example", "organiser", "--challenge", "demo"]
    )
    assert again.exit_code == 0  # idempotent: one organiser row
    with session_scope(settings.database_url) as session:
        user = session.query(User).filter_by(email="maria@uni.example").one()
        assert user.role == Role.ORGANISER
        assert session.query(ChallengeOrganiser).filter_by(user_id=user.id).count() == 1
    missing = runner.invoke(args=["user", "role", "who@x.org", "organiser"])
    assert missing.exit_code == 1 and "no account for who@x.org" in missing.output
    wrong = runner.invoke(
        args=["user", "role", "maria@uni.example", "admin", "--challenge", "demo"]
    )
    assert wrong.exit_code == 1 and "drop --challenge" in wrong.output
