"""Mail through the production queue: the web process enqueues on RQ's ``mail`` queue, a real
``nlgboard worker`` sends to a real SMTP server (aiosmtpd); the scoring job's notification goes
the same way."""

from __future__ import annotations

import pytest
import requests

from tests.integration.conftest import wait_until
from tests.support.factories import GOOD_OUTPUT, demo_track, participant
from tests.support.smtp import smtp_server
from tests.support.waiting import STATE_DEADLINE


@pytest.mark.integration
def test_the_rq_worker_sends_a_reset_mail_and_a_scored_notification(make_stack):
    with smtp_server() as inbox:
        stack = make_stack("redis", "sqlite")
        demo_track(stack.settings)
        token = participant(stack.settings, "team@uni.example", team="Uni NLG")
        stack.start_worker(SMTP_URL=inbox.url, NLGBOARD_BASE_URL="http://board.example")
        answer = requests.post(
            f"{stack.base_url}/password/forgot",
            data={"email": "team@uni.example"},
            allow_redirects=False,
            timeout=10,
        )
        assert answer.status_code == 302
        uploaded = requests.post(
            f"{stack.base_url}/api/v1/challenges/demo/tracks/main/submissions",
            files={"file": ("out.txt", GOOD_OUTPUT)},
            data={"system": "marlin"},
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert uploaded.status_code == 202, uploaded.text
        wait_until(lambda: len(inbox.received) >= 2, STATE_DEADLINE, "two mails", stack)
        subjects = sorted(mail.message["Subject"] for mail in inbox.received)
        assert subjects == ["Reset your password", "marlin on main: scored"]
        scored = next(m for m in inbox.received if "scored" in m.message["Subject"])
        assert "BLEU: " in scored.body and "http://board.example/submissions" in scored.body
