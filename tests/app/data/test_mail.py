"""E-mail against a real SMTP server (aiosmtpd, started here): reset and verification round
trips, notifications after scoring as the visibility rule allows, retries, refused addresses
and header injection, organisers' messages, and the embedded default's outbox folder."""

from __future__ import annotations

import hashlib
import io
import logging
import re
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from app.data.config import MailSettings
from app.data.db import session_scope
from app.data.errors import MailError
from app.data.mail.messages import build_message, check_address
from app.data.models import (
    AuditEvent,
    Mail,
    MailStatus,
    Role,
    Submission,
    SubmissionStatus,
    System,
    Team,
    User,
    utcnow,
)
from app.data.storage import storage_for
from app.web.services.account_mail import set_unverified_may_upload
from app.web.services.accounts import create_user
from app.web.services.tracks import get_track
from tests.conftest import make_app, make_settings
from tests.support.board import bearer, set_track, upload
from tests.support.factories import (
    GOOD_OUTPUT,
    demo_track,
    login,
    organiser,
    participant,
    run_queue,
)
from tests.support.smtp import Inbox, smtp_server
from worker.mail import send_mail
from worker.notifications import remind_deadlines
from worker.recovery import recover_mail

BASE = "http://board.example"
PASSWORD = "a-long-harbour-walk"


@pytest.fixture
def inbox():
    with smtp_server() as server:
        yield server


@pytest.fixture
def mail_settings(tmp_path, inbox):
    mail = MailSettings(host=inbox.host, port=inbox.port, base_url=BASE)
    return make_settings(tmp_path / "instance", mail=mail)


@pytest.fixture
def mail_app(mail_settings):
    app = make_app(mail_settings, WTF_CSRF_ENABLED=False)
    app.extensions["nlgboard.queue"].start()
    return app


def _user(settings, email: str) -> User:
    with session_scope(settings.database_url) as session:
        return session.scalars(select(User).where(User.email == email)).one()


def test_a_forgotten_password_is_reset_from_the_mailed_link_once(mail_app, mail_settings, inbox):
    token = participant(mail_settings, "ana@uni.example", team="A")
    client = mail_app.test_client()
    answer = client.post("/password/forgot", data={"email": "Ana@uni.example "})
    assert answer.status_code == 302
    run_queue(mail_app)
    [mail] = inbox.wait_for(1)
    assert mail.envelope_to == ["ana@uni.example"]
    assert mail.message["Subject"] == "Reset your password"
    path = Inbox.link(mail, "/password/reset/")
    assert client.get(path).status_code == 200
    form = {"password": PASSWORD, "confirm": PASSWORD, "revoke_token": "y"}
    assert client.post(path, data=form).status_code == 302
    login(client, "ana@uni.example", PASSWORD)
    assert client.get("/api/v1/me", headers=bearer(token)).status_code in (401, 404)
    # Spent: the same link no longer works, and the old password neither.
    assert client.post(path, data=form).status_code == 410
    other = mail_app.test_client()
    refused = other.post("/login", data={"email": "ana@uni.example", "password": "password123"})
    assert refused.status_code == 200
    with session_scope(mail_settings.database_url) as session:
        row = session.scalars(select(Mail)).one()
        assert row.status == MailStatus.SENT and row.body is None  # the link is not kept
        actions = session.scalars(select(AuditEvent.action)).all()
    assert "password reset" in actions
    assert _user(mail_settings, "ana@uni.example").api_token_hash is None


def test_the_reset_form_answers_the_same_for_an_address_without_account(mail_app, inbox):
    client = mail_app.test_client()
    answers = [
        client.post("/password/forgot", data={"email": email}, follow_redirects=True)
        for email in ("nobody@uni.example", "nobody-else@uni.example")
    ]
    participant(mail_app.extensions["nlgboard.settings"], "ana@uni.example")
    answers.append(
        client.post("/password/forgot", data={"email": "ana@uni.example"}, follow_redirects=True)
    )
    texts = {a.get_data(as_text=True).split("<main")[1] for a in answers}
    assert len(texts) == 1 and {a.status_code for a in answers} == {200}
    run_queue(mail_app)
    assert [m.envelope_to for m in inbox.wait_for(1)] == [["ana@uni.example"]]


def test_registration_mails_a_link_that_makes_the_account_and_logs_in(
    mail_app, mail_settings, inbox
):
    client = mail_app.test_client()
    data = {"email": "new@uni.example", "password": PASSWORD, "confirm": PASSWORD}
    answer = client.post("/register", data=data)
    assert answer.status_code == 200 and "Check your mail" in answer.get_data(as_text=True)
    assert client.get("/team").status_code == 302  # not logged in: the address is unproven
    refused = client.post("/login", data={"email": "new@uni.example", "password": PASSWORD})
    assert "Wrong e-mail or password" in refused.get_data(as_text=True)  # no account yet
    run_queue(mail_app)
    [mail] = inbox.wait_for(1)
    assert mail.envelope_to == ["new@uni.example"]
    path = Inbox.link(mail, "/verify/")
    assert client.get(path).status_code == 200
    confirmed = client.post(path)
    assert confirmed.status_code == 302 and confirmed.headers["Location"] == "/team"
    assert client.get("/team").status_code == 200  # logged in
    assert _user(mail_settings, "new@uni.example").email_verified
    assert client.post(path).status_code == 410  # once
    assert client.get("/verify/" + "x" * 40).status_code == 410
    other = mail_app.test_client()
    login(other, "new@uni.example", PASSWORD)


def test_an_unconfirmed_account_may_not_upload_when_the_admin_says_so(
    mail_app, mail_settings, inbox
):
    """Accounts registered before registration waited for the link start unconfirmed; the
    Team page mails them a link that confirms the address."""
    demo_track(mail_settings)
    with session_scope(mail_settings.database_url) as session:
        admin = User(email="root@x.org", role=Role.ADMIN)
        session.add(admin)
        session.flush()
        set_unverified_may_upload(session, admin, False)
        create_user(session, "new@uni.example", PASSWORD, verified=False)
    client = mail_app.test_client()
    login(client, "new@uni.example", PASSWORD)
    assert client.post("/team/create", data={"create-name": "New"}).status_code == 302
    refused = client.post(
        "/challenges/demo/tracks/main/submit",
        data={"system": "s1", "file": (io.BytesIO(GOOD_OUTPUT), "out.txt")},
    )
    assert "confirm your e-mail address first" in refused.get_data(as_text=True)
    assert client.post("/account/verify").status_code == 302
    run_queue(mail_app)
    [mail] = inbox.wait_for(1)
    assert mail.envelope_to == ["new@uni.example"]
    path = Inbox.link(mail, "/verify/")
    assert client.get(path).status_code == 200
    assert client.post(path).status_code == 302
    assert _user(mail_settings, "new@uni.example").email_verified


def _scored_mail(app, settings, inbox, **track) -> str:
    demo_track(settings)
    set_track(settings, **track)
    token = participant(settings, "a@x.org", team="A")
    participant(settings, "b@x.org", team="B")  # another team: hears nothing
    assert upload(app.test_client(), token, "marlin").status_code == 202
    run_queue(app)
    [mail] = inbox.wait_for(1)
    assert mail.envelope_to == ["a@x.org"]
    assert mail.message["Subject"] == "marlin on main: scored"
    return mail.body


def test_a_scored_submission_mails_its_team_the_scores_it_may_see(mail_app, mail_settings, inbox):
    body = _scored_mail(mail_app, mail_settings, inbox)
    with session_scope(mail_settings.database_url) as session:
        bleu = session.scalars(select(Submission).join(System).where(System.name == "marlin")).one()
        value = next(s.value for s in bleu.scores if s.metric == "BLEU" and s.subset == "")
    assert f"BLEU: {value:.4f}" in body
    assert f"{BASE}/submissions" in body


def test_a_scored_mail_in_a_phase_hiding_scores_from_the_team_has_no_numbers(
    mail_app, mail_settings, inbox
):
    body = _scored_mail(mail_app, mail_settings, inbox, phase="test", hide_own_scores=True)
    assert "It was scored" in body and "hide the scores" in body
    assert "BLEU" not in body and "METEOR" not in body


def test_a_test_phase_scored_mail_rounds_as_the_published_table(mail_app, mail_settings, inbox):
    body = _scored_mail(mail_app, mail_settings, inbox, phase="test")
    assert "Rounded as the published table prints them" in body
    with session_scope(mail_settings.database_url) as session:
        score = session.scalars(select(Submission)).one().scores[0]
        exact = score.value
    assert f"{exact:.6f}" not in body or round(exact, 4) == exact


def test_a_failed_submission_mails_the_file_line_and_rule(mail_app, mail_settings, inbox):
    """A stored file the scorer refuses (as after a reader became stricter and the track was
    rescored): the mail carries the stored error, which names the file, line and rule."""
    demo_track(mail_settings)
    participant(mail_settings, "a@x.org", team="A")
    lines = GOOD_OUTPUT.splitlines()
    short = b"\n".join([*lines[:2], b"caf\xe9 by the river", *lines[3:]]) + b"\n"
    storage_for(mail_settings).put(short)
    with session_scope(mail_settings.database_url) as session:
        track = get_track(session, "demo", "main")
        team_id = session.scalars(select(Team.id).where(Team.name == "A")).one()
        system = System(track_id=track.id, team_id=team_id, name="marlin")
        submission = Submission(
            system=system,
            language="en",
            filename="outputs.txt",
            file_sha256=hashlib.sha256(short).hexdigest(),
            status=SubmissionStatus.QUEUED,
        )
        session.add_all([system, submission])
        session.flush()
        submission_id = submission.id
    mail_app.extensions["nlgboard.queue"].enqueue(submission_id)
    run_queue(mail_app)
    [mail] = inbox.wait_for(1)
    with session_scope(mail_settings.database_url) as session:
        error = session.get_one(Submission, submission_id).error
    assert mail.message["Subject"] == "marlin on main: failed"
    assert error == (
        "outputs.txt, line 3: is not valid UTF-8 (byte 0xe9 at offset 121); save the file as UTF-8"
    )
    assert error in mail.body


def test_a_send_that_fails_is_tried_again_and_never_blocks_the_upload(
    mail_app, mail_settings, inbox
):
    inbox.down = True
    demo_track(mail_settings)
    token = participant(mail_settings, "a@x.org", team="A")
    assert upload(mail_app.test_client(), token, "marlin").status_code == 202
    run_queue(mail_app)
    with session_scope(mail_settings.database_url) as session:
        assert session.scalars(select(Submission.status)).one() == SubmissionStatus.SCORED
        mail = session.scalars(select(Mail)).one()
        assert (mail.status, mail.attempts) == (MailStatus.QUEUED, 1)
        assert "451" in mail.last_error and mail.next_attempt_at > utcnow()
        session.execute(
            update(Mail).values(
                next_attempt_at=utcnow(), created_at=utcnow() - timedelta(minutes=5)
            )
        )
    inbox.down = False
    assert recover_mail(mail_settings, mail_app.extensions["nlgboard.queue"]) == [mail.id]
    run_queue(mail_app)
    assert inbox.wait_for(1)[0].envelope_to == ["a@x.org"]


def test_an_address_the_server_refuses_is_given_up_at_once(mail_settings, inbox):
    make_app(mail_settings)
    inbox.refuse.add("gone@x.org")
    from app.data.mail.outbox import add_mail

    with session_scope(mail_settings.database_url) as session:
        mail = add_mail(session, kind="message", to="gone@x.org", subject="Hi", body="Hello")
        session.flush()
        mail_id = mail.id
    assert send_mail(mail_id, mail_settings) == "failed"
    assert send_mail(mail_id, mail_settings) == "skipped"


@pytest.mark.parametrize(
    "address",
    [
        "ana@uni.example\r\nBcc: evil@evil.example",
        "ana@uni.example\nBcc: evil@evil.example",
        "ana@uni.example, evil@evil.example",
        "Ana <ana@uni.example>",
        "ana@@uni.example",
        "ana@localhost",
        "ana uni@example.org",
        "",
    ],
)
def test_bad_addresses_are_refused(address):
    with pytest.raises(MailError):
        check_address(address)


def test_header_injection_in_names_and_subjects_is_refused():
    with pytest.raises(MailError, match="control character"):
        build_message("Board\r\nBcc: evil@evil.example <b@board.example>", "a@x.org", "Hi", ".")
    with pytest.raises(MailError, match="control character U\\+000D at character 3"):
        build_message("b@board.example", "a@x.org", "Hi\r\nBcc: evil@evil.example", ".")
    message = build_message("Böard <b@board.example>", "a@x.org", "Ünïcode subject", "Grüße")
    assert message["To"] == "a@x.org" and "Bcc" not in message


def test_registration_refuses_an_address_that_would_inject_a_header(mail_app, mail_settings):
    client = mail_app.test_client()
    data = {"email": "a@x.org\r\nBcc: evil@evil.example", "password": PASSWORD, "confirm": PASSWORD}
    answer = client.post("/register", data=data)
    assert answer.status_code == 200
    assert "one plain address" in answer.get_data(as_text=True)
    with session_scope(mail_settings.database_url) as session:
        assert session.scalars(select(User)).all() == []


def test_organisers_message_a_track_with_preview_count_and_audit(mail_app, mail_settings, inbox):
    demo_track(mail_settings)
    organiser(mail_settings, "org@x.org", "demo")
    for email, team in (("a@x.org", "A"), ("a2@x.org", "A"), ("b@x.org", "B")):
        token = participant(mail_settings, email, team=team)
    participant(mail_settings, "idle@x.org", team="C")  # no system on the track
    client = mail_app.test_client()
    assert upload(client, participant(mail_settings, "c@x.org", team="D"), "d1").status_code == 202
    assert upload(client, token, "b1").status_code == 202
    run_queue(mail_app)
    inbox.received.clear()
    login(client, "org@x.org")
    page = "/organise/demo/tracks/main/message"
    injected = client.post(page, data={"subject": "Hi\r\nBcc: e@evil.example", "text": "x"})
    assert "control character" in injected.get_data(as_text=True)
    preview = client.post(page, data={"subject": "Deadline moved", "text": "One week more."})
    text = preview.get_data(as_text=True)
    assert "Preview: 2 recipient(s)" in text and "One week more." in text
    assert inbox.received == []
    sent = client.post(
        page, data={"subject": "Deadline moved", "text": "One week more.", "send": "1"}
    )
    assert sent.status_code == 302
    run_queue(mail_app)
    assert sorted(m.envelope_to[0] for m in inbox.wait_for(2)) == ["b@x.org", "c@x.org"]
    assert inbox.received[0].message["Subject"] == "[demo] Deadline moved"
    with session_scope(mail_settings.database_url) as session:
        event = session.scalars(
            select(AuditEvent).where(AuditEvent.action == "message participants")
        ).one()
    assert event.details == {"subject": "Deadline moved", "recipients": 2}


def test_switched_off_notifications_are_not_sent(mail_app, mail_settings, inbox):
    demo_track(mail_settings)
    token = participant(mail_settings, "a@x.org", team="A")
    client = mail_app.test_client()
    login(client, "a@x.org")
    client.post("/account/notifications", data={"notify-results": "on"})
    assert _user(mail_settings, "a@x.org").notifications_off == [
        "annotation", "deadlines", "messages", "submissions",
    ]  # fmt: skip
    assert upload(client, token, "marlin").status_code == 202
    run_queue(mail_app)
    with session_scope(mail_settings.database_url) as session:
        assert session.scalars(select(Mail)).all() == []


def test_publishing_results_and_an_approaching_deadline_notify_participants(
    mail_app, mail_settings, inbox
):
    demo_track(mail_settings)
    set_track(mail_settings, phase="test", deadline=utcnow() + timedelta(hours=3))
    organiser(mail_settings, "org@x.org", "demo")
    token = participant(mail_settings, "a@x.org", team="A")
    client = mail_app.test_client()
    assert upload(client, token, "marlin").status_code == 202
    run_queue(mail_app)
    inbox.received.clear()
    queue = mail_app.extensions["nlgboard.queue"]
    assert len(remind_deadlines(mail_settings, queue.enqueue_mail)) == 1
    assert remind_deadlines(mail_settings, queue.enqueue_mail) == []  # once per deadline
    login(client, "org@x.org")
    client.post("/organise/demo/tracks/main/publish", data={"published": "1"})
    run_queue(mail_app)
    subjects = sorted(m.message["Subject"] for m in inbox.wait_for(2))
    assert subjects[0].startswith("main: deadline ") and subjects[1] == "main: results published"
    assert all("BLEU" not in m.body for m in inbox.received)


def test_the_embedded_default_writes_mail_to_the_outbox_folder_and_the_log(tmp_path, caplog):
    settings = make_settings(tmp_path / "instance")
    app = make_app(settings, WTF_CSRF_ENABLED=False)
    participant(settings, "ana@uni.example")
    with caplog.at_level(logging.INFO, logger="app.data.mail.transport"):
        app.test_client().post("/password/forgot", data={"email": "ana@uni.example"})
        run_queue(app)
    [written] = sorted((settings.instance_path / "outbox").glob("*.eml"))
    assert b"/password/reset/" in written.read_bytes()
    assert str(written) in caplog.text and "Reset your password" in caplog.text


def test_without_smtp_the_registration_page_names_a_readable_copy_whose_link_works(tmp_path):
    """The ``.eml`` is quoted-printable: its long lines are cut by ``=`` soft breaks, so the
    link copied from it is cut too. The ``.txt`` beside it holds the link whole."""
    settings = make_settings(tmp_path / "instance")
    app = make_app(settings, WTF_CSRF_ENABLED=False)
    client = app.test_client()
    data = {"email": "org@uni.example", "password": PASSWORD, "confirm": PASSWORD}
    page = client.post("/register", data=data).get_data(as_text=True)
    assert "the newest <code>outbox/NNNNNNNN.txt</code>" in page and "instance folder" in page
    run_queue(app)
    copy = max((settings.instance_path / "outbox").glob("*.txt"))
    link = re.search(r"^https?://[^/\s]+(/verify/\S+)$", copy.read_text(), re.MULTILINE)
    assert link, copy.read_text()
    assert link.group(1) not in copy.with_suffix(".eml").read_text()  # cut by soft breaks
    assert "Subject: Confirm your e-mail address" in copy.read_text()
    assert client.get(link.group(1)).status_code == 200
    client.post(link.group(1))
    assert _user(settings, "org@uni.example").email_verified_at is not None


def test_with_smtp_the_registration_page_names_no_outbox(mail_app, inbox):
    client = mail_app.test_client()
    data = {"email": "org@uni.example", "password": PASSWORD, "confirm": PASSWORD}
    page = client.post("/register", data=data).get_data(as_text=True)
    assert "Check your mail" in page and "outbox" not in page
