"""Regression tests for the accounts and logging findings of issue 42 ("Hidden by
construction"): each attack as it was run, refused."""

from __future__ import annotations

import io
import logging
from urllib.parse import unquote

import pytest

from app.data.logs import RedactTokens, configure_logging

RESET = "eyJ1IjoxLCJwIjoiYWJjIn0.Zx9-_a.c2lnbmF0dXJl"


@pytest.mark.parametrize(
    "line",
    [
        f"GET /password/reset/{RESET} HTTP/1.1",
        f"POST /verify/{RESET}?x=1 HTTP/1.1",
        f"GET /login?next=%2Fpassword%2Freset%2F{RESET} HTTP/1.1",
        f"GET /login?next=/verify/{RESET} HTTP/1.1",
    ],
)
def test_reset_and_verification_tokens_are_redacted_in_access_logs(line):
    """Finding 1: a logged reset link worked for 2 hours."""
    record = logging.LogRecord("werkzeug", logging.INFO, __file__, 1, "%s", (line,), None)
    assert RedactTokens().filter(record)
    assert RESET not in record.getMessage() and "[redacted]" in record.getMessage()


def _encoded(text: str) -> str:
    return "".join(f"%{ord(c):02X}" for c in text)


@pytest.mark.parametrize(
    "line",
    [
        f"GET /password/reset/%{ord(RESET[0]):02X}{RESET[1:]} HTTP/1.1",
        f"GET /verify/{_encoded(RESET)} HTTP/1.1",
        f"GET /password/reset/{RESET.replace('.', '%2e')} HTTP/1.1",
        f"GET /p%61ssword/reset/{RESET} HTTP/1.1",
        f"GET /annotate%2Flink/{RESET} HTTP/1.1",
        f"GET /login?next=%2Fverify%2F%25{ord(RESET[0]):02X}{RESET[1:]}&x=1 HTTP/1.1",
    ],
)
def test_percent_encoded_tokens_and_paths_are_redacted_too(line):
    """Issue 47: the redaction stopped at a percent-encoded token (``/password/reset/%41bc``),
    which the server decodes into a working link; nor may an encoded path hide it. Whoever
    reads the line, decoding it as often as they like, finds no part of the token (its
    payload, time stamp or signature)."""
    record = logging.LogRecord("gunicorn.access", logging.INFO, __file__, 1, "%s", (line,), None)
    assert RedactTokens().filter(record)
    message = record.getMessage()
    assert "[redacted]" in message
    decoded = unquote(unquote(message))
    assert not [part for part in RESET[1:].split(".") if part in decoded], message


def test_tokens_are_redacted_from_every_logger_line_and_traceback():
    """Flask logs "Exception on /password/reset/<token> [GET]" on the app's own logger."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        configure_logging()
        out = io.StringIO()
        root.handlers[0].setStream(out)  # type: ignore[attr-defined]
        try:
            raise RuntimeError(f"while reading /verify/{RESET}")
        except RuntimeError:
            logging.getLogger("app.web").exception("Exception on /password/reset/%s [GET]", RESET)
        logging.getLogger("app.web").info("next=/annotate/link/%s", RESET)
    finally:
        root.handlers[:], _ = saved[0], root.setLevel(saved[1])
    written = out.getvalue()
    assert written.count("[redacted]") >= 3 and RESET not in written, written


# Finding 5: a track title with CR/LF broke every mail of the track; publishing gave a 500.

BREAK = "Results\r\nBcc: everyone@evil.example"


def test_a_line_break_in_a_title_or_name_is_refused_naming_the_field(app, session):
    from app.data.models import Team
    from app.web.errors import DomainError
    from app.web.services.track_imports import import_items
    from app.web.services.tracks import create_challenge
    from tests.support.factories import DEMO_REFS

    with pytest.raises(DomainError, match=r"challenge title .*U\+000D"):
        create_challenge(session, "c", BREAK)
    session.rollback()
    challenge = create_challenge(session, "c", "Fine")
    with pytest.raises(DomainError, match=r"track title .*U\+000D"):
        import_items(session, challenge, "t", "e2e", references=(DEMO_REFS, "r.csv"), title=BREAK)
    session.rollback()
    session.add(Team(name="a\tb", join_code="x" * 12))
    with pytest.raises(DomainError, match=r"team name .*U\+0009"):
        session.flush()
    session.rollback()


def test_the_organisers_forms_and_the_cli_refuse_a_title_with_a_line_break(
    client, runner, settings
):
    from tests.support.factories import demo_track, login, organiser

    demo_track(settings)
    organiser(settings, "org@x.org", "demo")
    login(client, "org@x.org")
    page = client.post(
        "/organise/demo/tracks/main",
        data={"settings-title": BREAK, "settings-phase": "development"},
    )
    assert page.status_code == 200 and "track title" in page.text and "U+000D" in page.text
    page = client.post("/organise/demo", data={"action": "edit", "edit-title": BREAK})
    assert page.status_code in (200, 400) and "challenge title" in page.text
    assert client.get("/organise/demo").text.count("Bcc:") == 0
    result = runner.invoke(args=["challenge", "create", "c2", "--title", BREAK])
    assert result.exit_code != 0 and "challenge title" in result.output


def test_a_title_stored_with_a_line_break_before_still_publishes_its_mails(app, client, settings):
    from sqlalchemy import select, update

    from app.data.db import session_scope
    from app.data.models import Mail, Track
    from tests.support.board import upload
    from tests.support.factories import demo_track, login, organiser, participant

    demo_track(settings)
    upload(client, participant(settings, "a@x.org", team="A"), "s")
    organiser(settings, "org@x.org", "demo")
    with session_scope(settings.database_url) as session:  # as stored before titles were checked
        session.execute(update(Track).values(title=BREAK, phase="test"))
    login(client, "org@x.org")
    answer = client.post("/organise/demo/tracks/main/publish", data={"published": "1"})
    assert answer.status_code == 302
    with session_scope(settings.database_url) as session:
        subjects = session.scalars(select(Mail.subject).where(Mail.kind == "published")).all()
    assert subjects == ["Results Bcc: everyone@evil.example: results published"]


# Finding 6: HTTP 500s.


def test_a_deadline_out_of_range_is_refused_naming_the_option(runner, settings):
    from tests.support.factories import demo_track
    from tests.support.paths import DEMO_DATA

    demo_track(settings)
    for deadline in ("9999-12-31T23:59:59-23:59", "0001-01-01T00:00+01:00", "9999-12-31T23:59"):
        result = runner.invoke(
            args=["track", "import", "demo", "t2", "--kind", "e2e", "--refs", str(DEMO_DATA / "references.csv"), "--deadline", deadline]
        )  # fmt: skip
        assert result.exit_code == 2, (deadline, result.output)
        assert "--deadline" in result.output and "out of range" in result.output


def test_the_track_form_refuses_a_deadline_out_of_range(client, settings):
    from tests.support.factories import demo_track, login, organiser

    demo_track(settings)
    organiser(settings, "org@x.org", "demo")
    login(client, "org@x.org")
    page = client.post(
        "/organise/demo/tracks/main",
        data={"settings-title": "T", "settings-phase": "development", "settings-deadline": "9999-12-31T23:59"},
    )  # fmt: skip
    assert page.status_code == 200 and "deadline" in page.text and "out of range" in page.text


@pytest.mark.parametrize("path", ["/", "/api/v1/submissions/1"])
def test_a_lost_database_connection_answers_503_with_retry_after(client, monkeypatch, path):
    """A request cut by a PostgreSQL restart answered 500."""
    from sqlalchemy.exc import OperationalError
    from sqlalchemy.orm import Session

    def lost(*args, **kwargs):
        raise OperationalError(
            "SELECT 1", {}, Exception("server closed the connection unexpectedly")
        )

    monkeypatch.setattr(Session, "execute", lost)
    monkeypatch.setattr(Session, "scalars", lost)
    monkeypatch.setattr(Session, "scalar", lost)
    answer = client.get(path, headers={"Authorization": "Bearer x" * 8})
    assert answer.status_code == 503, answer.data[:300]
    assert answer.headers["Retry-After"].isdigit()
    assert "server closed" not in answer.text and "database" in answer.text


def _reset_tokens(session) -> list[str]:
    from sqlalchemy import select

    from app.data.models import Mail

    bodies = session.scalars(select(Mail.body).where(Mail.kind == "reset").order_by(Mail.id))
    return [body.split("/password/reset/")[1].split()[0] for body in bodies]


def test_a_newer_reset_link_voids_the_older_ones(session, monkeypatch):
    """Finding 2: an older reset link still worked after a newer one was sent."""
    from datetime import timedelta

    from app.web.errors import DomainError
    from app.web.services import account_mail
    from app.web.services.accounts import create_user

    create_user(session, "a@x.org", "old password 123")
    session.commit()
    monkeypatch.setattr(account_mail, "RESEND_WAIT", timedelta(0))
    for _ in range(2):
        assert account_mail.request_password_reset(session, "s", "a@x.org", "https://b.example")
    older, newer = _reset_tokens(session)
    with pytest.raises(DomainError, match="used or replaced"):
        account_mail.user_for_reset(session, "s", older)
    assert account_mail.user_for_reset(session, "s", newer).email == "a@x.org"
    account_mail.reset_password(session, "s", newer, "new password 456", False)
    with pytest.raises(DomainError, match="used or replaced"):
        account_mail.user_for_reset(session, "s", newer)
