"""The team's scored/failed mail is part of the outcome: written in the transaction that records
it, so a worker that dies once it has committed loses no mail (the recovery pass sends it from
the outbox, once), and a mail that cannot be written never undoes the outcome. On a real SQLite
database; tests/integration/test_pipeline.py kills a real worker on PostgreSQL too."""

from __future__ import annotations

import dataclasses
from email import message_from_bytes, policy

import pytest
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import Mail, MailStatus, Score, Submission, SubmissionStatus
from scorer.errors import InputError
from tests.support.tracks import queued_submission
from worker import jobs, notifications
from worker.mail import send_mail
from worker.recovery import recover_mail


class Killed(BaseException):
    """The process ending where it is (a BaseException: no ``except Exception`` in the job
    code runs on, as none would after a SIGKILL)."""


class MailQueue:
    """The queue as the recovery pass sees it: the mails it was handed."""

    def __init__(self) -> None:
        self.mail_ids: list[int] = []

    def enqueue_mail(self, mail_id: int) -> None:
        self.mail_ids.append(mail_id)


def killed_after_the_outcome(monkeypatch) -> None:
    """Kill the job the moment its outcome has committed, before it posts any mail."""
    score = jobs._score

    def score_then_die(*args, **kwargs):
        score(*args, **kwargs)
        raise Killed

    monkeypatch.setattr(jobs, "_score", score_then_die)


def refused_file(monkeypatch) -> None:
    def compute(*_args, **_kwargs):
        raise InputError("is not valid UTF-8; save the file as UTF-8", filename="out.txt", line=3)

    monkeypatch.setattr(jobs, "_compute", compute)


def sent_subjects(settings) -> list[str]:
    return [
        message_from_bytes(path.read_bytes(), policy=policy.default)["Subject"]
        for path in sorted(settings.outbox_path.glob("*.eml"))
    ]


@pytest.mark.parametrize(("outcome", "file"), [("scored", None), ("failed", refused_file)])
def test_a_job_killed_after_its_outcome_committed_loses_no_mail(
    client, settings, monkeypatch, outcome, file
):
    settings = dataclasses.replace(settings, queued_grace_seconds=0)
    submission_id = queued_submission(client, settings)
    if file:
        file(monkeypatch)
    killed_after_the_outcome(monkeypatch)
    posted: list[int] = []
    with pytest.raises(Killed):
        jobs.score_submission(submission_id, settings, mail_next=posted.append)
    assert posted == []  # killed before the post
    with session_scope(settings.database_url) as session:
        assert session.get_one(Submission, submission_id).status == SubmissionStatus(outcome)
        mails = [tuple(row) for row in session.execute(select(Mail.kind, Mail.status))]
    assert mails == [(outcome, MailStatus.QUEUED)]

    queue = MailQueue()
    [mail_id] = recover_mail(settings, queue)
    assert queue.mail_ids == [mail_id]
    assert send_mail(mail_id, settings) == "sent"
    assert send_mail(mail_id, settings) == "skipped"  # a second job for it sends nothing
    assert recover_mail(settings, MailQueue()) == []
    assert sent_subjects(settings) == [f"s on main: {outcome}"]


def test_the_mails_are_posted_once_the_outcome_has_committed(client, settings):
    submission_id = queued_submission(client, settings)
    posted: list[int] = []
    assert jobs.score_submission(submission_id, settings, mail_next=posted.append) == "scored"
    with session_scope(settings.database_url) as session:
        assert posted == list(session.scalars(select(Mail.id).where(Mail.kind == "scored")))
    assert len(posted) == 1


def test_a_mail_that_cannot_be_written_leaves_the_outcome_standing(client, settings, monkeypatch):
    """Undone to its savepoint alone: the mail half-written before the error goes, the
    scores written before it stay."""
    submission_id = queued_submission(client, settings)
    write = notifications._submission_mails

    def write_then_fail(*args, **kwargs):
        assert write(*args, **kwargs)  # a mail row flushed in the outcome's transaction ...
        raise RuntimeError("the outbox is unwell")  # ... then the notification fails

    monkeypatch.setattr(notifications, "_submission_mails", write_then_fail)
    posted: list[int] = []
    assert jobs.score_submission(submission_id, settings, mail_next=posted.append) == "scored"
    assert posted == []
    with session_scope(settings.database_url) as session:
        assert session.get_one(Submission, submission_id).status == SubmissionStatus.SCORED
        assert session.scalars(select(Score).where(Score.submission_id == submission_id)).first()
        assert session.scalars(select(Mail)).all() == []
