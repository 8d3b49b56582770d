"""E-mail in a real browser against a real SMTP server (aiosmtpd), at each width: register,
receive the confirmation mail, confirm, forget the password, reset it from the mailed link,
log in with the new one; then a submission the scorer refuses mails its team the file, the
line and the rule. Every page on the way passes the width and axe-core checks."""

from __future__ import annotations

import hashlib

from sqlalchemy import select

from app.data.config import MailSettings
from app.data.db import session_scope
from app.data.models import Submission, SubmissionStatus, System, Team
from app.data.storage import storage_for
from app.web.services.tracks import get_track
from tests.browser.conftest import check_page, register
from tests.conftest import make_app, make_settings
from tests.support.factories import GOOD_OUTPUT, demo_track
from tests.support.servers import serve_app
from tests.support.smtp import Inbox, smtp_server

EMAIL = "ana@uni.example"
FIRST, SECOND = "s3cret-passphrase", "a-new-harbour-walk"


def test_register_confirm_forget_reset_log_in_and_a_failure_mail(page, tmp_path, width):
    with smtp_server() as inbox:
        mail = MailSettings(host=inbox.host, port=inbox.port, base_url="http://board.example")
        settings = make_settings(tmp_path / "instance", mail=mail)
        app = make_app(settings)  # CSRF on, as in production
        demo_track(settings)
        app.extensions["nlgboard.queue"].start()
        with serve_app(app) as url:

            def confirmation_link(address: str) -> str:
                [confirmation] = inbox.wait_for(1)
                assert confirmation.envelope_to == [address]
                assert "finish registering" in confirmation.body
                return Inbox.link(confirmation, "/verify/")

            register(page, url, EMAIL, FIRST, confirmation_link, width, shots="mail-1")
            page.get_by_text(f"Welcome! {EMAIL} is confirmed.").wait_for()
            check_page(page, "mail-2-team-confirmed", width)
            page.get_by_label("Team name").first.fill("Ana's lab")
            page.get_by_role("button", name="Create", exact=True).click()
            page.get_by_role("heading", name="Team Ana's lab").wait_for()
            check_page(page, "mail-3-team-confirmed", width)

            page.get_by_role("button", name=f"Log out ({EMAIL})").click()
            page.goto(f"{url}/login")
            page.get_by_role("link", name="Forgot your password?").click()
            check_page(page, "mail-4-forgot", width)
            page.get_by_label("E-mail").fill(EMAIL)
            page.get_by_role("button", name="Send the link").click()
            page.get_by_text("a link to choose a new password is on its way").wait_for()
            reset = inbox.wait_for(2)[1]
            assert reset.message["Subject"] == "Reset your password"
            page.goto(url + Inbox.link(reset, "/password/reset/"))
            check_page(page, "mail-5-reset", width)
            page.get_by_label("New password").fill(SECOND)
            page.get_by_label("Repeat password").fill(SECOND)
            page.get_by_role("button", name="Change the password").click()
            page.get_by_text("Your password is changed").wait_for()

            page.get_by_label("E-mail").fill(EMAIL)
            page.get_by_label("Password").fill(SECOND)
            page.get_by_role("button", name="Log in").click()
            page.get_by_role("button", name=f"Log out ({EMAIL})").wait_for()

            submission_id = _refused_by_the_scorer(settings)
            app.extensions["nlgboard.queue"].enqueue(submission_id)
            failure = inbox.wait_for(3)[2]
            assert failure.envelope_to == [EMAIL]
            assert failure.message["Subject"] == "ana-run on main: failed"
            assert "outputs.txt, line 3: is not valid UTF-8" in failure.body
            assert "save the file as UTF-8" in failure.body
            page.goto(f"{url}/submissions")
            page.get_by_text("outputs.txt, line 3: is not valid UTF-8").wait_for()
            check_page(page, "mail-6-failed-submission", width)


def _refused_by_the_scorer(settings) -> int:
    """A stored file the scorer refuses at line 3 (as after a reader became stricter and the
    track was rescored: the upload gate would refuse it now)."""
    lines = GOOD_OUTPUT.splitlines()
    data = b"\n".join([*lines[:2], b"caf\xe9 by the river", *lines[3:]]) + b"\n"
    storage_for(settings).put(data)
    with session_scope(settings.database_url) as session:
        team_id = session.scalars(select(Team.id).where(Team.name == "Ana's lab")).one()
        system = System(
            track_id=get_track(session, "demo", "main").id, team_id=team_id, name="ana-run"
        )
        submission = Submission(
            system=system,
            language="en",
            filename="outputs.txt",
            file_sha256=hashlib.sha256(data).hexdigest(),
            status=SubmissionStatus.QUEUED,
        )
        session.add_all([system, submission])
        session.flush()
        return submission.id
