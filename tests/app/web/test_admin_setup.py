"""A fresh board's first administrator: ``nlgboard run`` prints a one-time setup link (signed
with the instance's secret key) while the board has no admin; the account that opens it,
logged in or registered through it, confirms and becomes the admin, once. Organisers opening
the accounts page learn who grants roles instead of getting a bare 404."""

from __future__ import annotations

import logging
import re

import pytest
from itsdangerous import URLSafeTimedSerializer

from app.data.db import session_scope
from app.data.logs import FORMAT_ENV, RedactTokens
from app.data.models import Role, User
from app.web.services import admin_setup
from tests.support.factories import demo_track, login, organiser, participant
from tests.support.factories import register as register_and_confirm
from tests.support.servers import free_port

LINK = re.compile(r"http://127\.0\.0\.1:\d+(/setup/admin/[^\s]+)")


def run_output(runner, monkeypatch, *options: str) -> str:
    """``nlgboard run``'s start-up lines, without serving or starting a worker."""
    import werkzeug.serving

    from app.entry.cli import operations

    monkeypatch.setattr(werkzeug.serving, "run_simple", lambda *args, **kwargs: None)
    monkeypatch.setattr(operations, "start_embedded_worker", lambda app: None)
    monkeypatch.setattr(operations, "stop_on_signals", lambda app: None)  # pytest's stay
    monkeypatch.setattr(operations, "configure_logging", lambda: None)
    monkeypatch.setenv(FORMAT_ENV, "text")
    result = runner.invoke(args=["run", "--port", str(free_port()), *options])
    assert result.exit_code == 0, result.output
    return result.output


def test_run_with_upgrade_migrates_the_database_before_serving(runner, settings, monkeypatch):
    """make run starts one process, not ``db upgrade`` and then ``run``."""
    from app.data import migrate

    upgraded = []
    monkeypatch.setattr(migrate, "upgrade", upgraded.append)
    run_output(runner, monkeypatch)
    assert upgraded == []
    run_output(runner, monkeypatch, "--upgrade")
    assert upgraded == [settings.database_url]


def role_of(settings, email: str) -> Role:
    with session_scope(settings.database_url) as session:
        return session.query(User).filter_by(email=email).one().role


def test_run_prints_a_link_that_makes_the_account_opening_it_admin_once(
    app, client, runner, settings, monkeypatch
):
    output = run_output(runner, monkeypatch)
    assert "no administrator yet: open http://127.0.0.1:" in output
    assert f"a confirmation mail is written to {settings.outbox_path}/NNNNNNNN.txt" in output
    path = LINK.search(output).group(1)
    participant(settings, "first@x.org")
    login(client, "first@x.org")
    page = client.get(path)
    assert page.status_code == 200 and "no-store" in page.headers["Cache-Control"]
    assert "Make <strong>first@x.org</strong> the board's administrator?" in page.text
    assert role_of(settings, "first@x.org") == Role.PARTICIPANT  # opening it changes nothing
    done = client.post(path, follow_redirects=True)
    assert (
        done.request.path == "/organise/accounts"
        and "is the board&#39;s administrator" in done.text
    )
    assert role_of(settings, "first@x.org") == Role.ADMIN

    participant(settings, "second@x.org")
    login(client, "second@x.org")
    again = client.post(path)
    assert again.status_code == 410 and "already used" in again.text
    assert role_of(settings, "second@x.org") == Role.PARTICIPANT
    assert "no administrator yet" not in run_output(runner, monkeypatch)
    with session_scope(settings.database_url) as session:  # even with no admin left
        session.query(User).filter_by(email="first@x.org").one().role = Role.PARTICIPANT
    assert client.post(path).status_code == 410
    assert role_of(settings, "second@x.org") == Role.PARTICIPANT


def test_registering_through_the_link_comes_back_to_confirm(app, client, settings):
    path = admin_setup.setup_path(app.config["SECRET_KEY"])
    page = client.get(path).text
    register = f"/register?next={path}"
    assert f'href="{register}"' in page and f'href="/login?next={path}"' in page
    answer = register_and_confirm(client, settings, "boss@x.org", "a long passphrase", next=path)
    assert answer.headers["Location"] == path  # the mailed link, opened, comes back here
    client.post(path)
    assert role_of(settings, "boss@x.org") == Role.ADMIN


def test_forged_expired_and_late_links_change_nothing(app, client, settings, monkeypatch):
    participant(settings, "a@x.org")
    login(client, "a@x.org")
    assert client.post("/setup/admin/forged.token").status_code == 404
    other_board = URLSafeTimedSerializer("another key", salt=admin_setup.SALT).dumps({"nonce": "x"})
    assert client.post(f"/setup/admin/{other_board}").status_code == 404
    path = admin_setup.setup_path(app.config["SECRET_KEY"])
    monkeypatch.setattr(admin_setup, "MAX_AGE_SECONDS", -1)
    expired = client.post(path)
    assert expired.status_code == 410 and "expired" in expired.text
    monkeypatch.undo()
    participant(settings, "boss@x.org")
    with session_scope(settings.database_url) as session:
        session.query(User).filter_by(email="boss@x.org").one().role = Role.ADMIN
    late = client.post(path)
    assert late.status_code == 410 and "the board has an administrator" in late.text
    assert role_of(settings, "a@x.org") == Role.PARTICIPANT


def test_admin_link_prints_a_fresh_link_only_while_there_is_no_admin(app, runner, settings):
    result = runner.invoke(args=["user", "admin-link", "--url", "https://board.example/"])
    assert result.exit_code == 0 and result.stdout.startswith("https://board.example/setup/admin/")
    token = result.stdout.strip().rsplit("/", 1)[1]
    with session_scope(settings.database_url) as session:
        assert admin_setup.link_state(session, app.config["SECRET_KEY"], token).name == "VALID"
    runner.invoke(args=["user", "create", "boss@x.org", "--role", "admin"])
    refused = runner.invoke(args=["user", "admin-link"])
    assert refused.exit_code != 0 and "the board has an administrator" in refused.output


def test_setup_tokens_are_redacted_in_access_logs():
    lines = [
        "GET /setup/admin/eyJub25jZSI6ImFiIn0.Zx9-_a.sig HTTP/1.1",
        "GET /login?next=/setup/admin/eyJub25jZSI6ImFiIn0.Zx9.sig HTTP/1.1",
        "GET /login?next=%2Fsetup%2Fadmin%2FeyJub25jZSI6ImFiIn0.Zx9.sig HTTP/1.1",
    ]
    for line in lines:
        record = logging.LogRecord("werkzeug", logging.INFO, __file__, 1, "%s", (line,), None)
        RedactTokens().filter(record)
        assert "eyJ" not in record.getMessage() and "[redacted]" in record.getMessage(), line


@pytest.mark.parametrize("role", ["organiser", "participant"])
def test_the_accounts_page_explains_who_grants_roles(client, settings, role):
    demo_track(settings)
    if role == "organiser":
        organiser(settings, "org@x.org", "demo")
        email = "org@x.org"
    else:
        participant(settings, email := "p@x.org")
    login(client, email)
    page = client.get("/organise/accounts")
    assert page.status_code == 403
    if role == "organiser":
        assert "Only the board's administrators give accounts a role" in page.text
        assert "nlgboard user role EMAIL organiser --challenge SLUG" in page.text
        assert "This board has no administrator yet" in page.text
    else:
        assert "ask the board's administrator to make you an organiser" in page.text


def test_admin_link_says_where_the_confirmation_mail_is_without_smtp(runner, settings):
    """Registering through the link mails a confirmation link; with no SMTP server it is a
    file, and the person setting up the board is told which (stderr: stdout stays the link)."""
    result = runner.invoke(args=["user", "admin-link"])
    assert result.exit_code == 0 and result.stdout.count("\n") == 1
    assert f"{settings.outbox_path}/NNNNNNNN.txt" in result.stderr, result.output
