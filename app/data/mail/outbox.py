"""The outbox table: a mail is a row written with the action that causes it, then sent by a
job; a failed send puts it back for a later try, so nothing that caused a mail waits on it."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, or_, select, update
from sqlalchemy.orm import Session

from app.data.mail.messages import check_address, check_header_text
from app.data.models import Mail, MailStatus, User, utcnow
from app.data.queue import MailQueue

log = logging.getLogger(__name__)

RETRY_DELAYS = (timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=30),
                timedelta(hours=2), timedelta(hours=6))  # fmt: skip
"""Waits after the 1st, 2nd ... failed send; after the last one the mail is given up
(``failed``, with the server's answer)."""
SENDING_STALE = timedelta(minutes=10)
"""A mail ``sending`` for longer than this lost its worker: it is sent again (at least once,
never silently dropped)."""
BODY_MAX = 20_000


def add_mail(
    session: Session,
    *,
    kind: str,
    to: str,
    subject: str,
    body: str,
    user: User | None = None,
    secret: bool = False,
) -> Mail:
    """A queued mail in the caller's transaction; a bad address or subject raises MailError."""
    mail = Mail(
        kind=kind,
        user_id=user.id if user is not None else None,
        to_address=check_address(to),
        subject=check_header_text(subject, "the subject"),
        body=body[:BODY_MAX],
        secret=secret,
        status=MailStatus.QUEUED,
        attempts=0,
        created_at=utcnow(),
        next_attempt_at=utcnow(),
    )
    session.add(mail)
    return mail


def post(queue: MailQueue, mail_ids: Iterable[int]) -> None:
    """Hand committed mails to the queue. A queue that is down does not fail the action that
    wrote them: the recovery pass finds them in the table."""
    for mail_id in mail_ids:
        try:
            queue.enqueue_mail(mail_id)
        except Exception as error:
            log.warning(
                "mail %s: not enqueued (%s); the recovery pass will send it", mail_id, error
            )


@dataclass(frozen=True)
class Claimed:
    id: int
    to: str
    subject: str
    body: str
    attempts: int


def claim(session: Session, mail_id: int) -> Claimed | None:
    """Take a due queued mail (one UPDATE, so two jobs for it cannot both send it)."""
    now = utcnow()
    taken = session.execute(
        update(Mail)
        .where(
            Mail.id == mail_id,
            or_(
                (Mail.status == MailStatus.QUEUED) & (Mail.next_attempt_at <= now),
                (Mail.status == MailStatus.SENDING) & (Mail.claimed_at < now - SENDING_STALE),
            ),
        )
        .values(status=MailStatus.SENDING, claimed_at=now, attempts=Mail.attempts + 1)
        .execution_options(synchronize_session=False)
    )
    if cast(CursorResult[Any], taken).rowcount != 1:
        return None
    mail = session.get_one(Mail, mail_id)
    session.refresh(mail)
    return Claimed(mail.id, mail.to_address, mail.subject, mail.body or "", mail.attempts)


def mark_sent(session: Session, mail_id: int) -> None:
    mail = session.get_one(Mail, mail_id)
    mail.status, mail.sent_at, mail.last_error = MailStatus.SENT, utcnow(), None
    if mail.secret:
        mail.body = None


def mark_failed_try(session: Session, mail_id: int, error: str, permanent: bool = False) -> str:
    """Queue the mail again after its retry delay, or give it up; return ``retry`` or ``failed``."""
    mail = session.get_one(Mail, mail_id)
    mail.last_error = error[:500]
    if permanent or mail.attempts > len(RETRY_DELAYS):
        mail.status = MailStatus.FAILED
        if mail.secret:
            mail.body = None
        return "failed"
    mail.status = MailStatus.QUEUED
    mail.next_attempt_at = utcnow() + RETRY_DELAYS[mail.attempts - 1]
    return "retry"


def due_mail_ids(session: Session, grace: timedelta) -> list[int]:
    """Mails to (re-)enqueue: queued and due (older than ``grace``: a request may still be
    enqueuing a new one), or held by a worker that died."""
    now = utcnow()
    return list(
        session.scalars(
            select(Mail.id)
            .where(
                or_(
                    (Mail.status == MailStatus.QUEUED)
                    & (Mail.next_attempt_at <= now)
                    & (Mail.created_at <= now - grace),
                    (Mail.status == MailStatus.SENDING) & (Mail.claimed_at < now - SENDING_STALE),
                )
            )
            .order_by(Mail.id)
            .limit(1000)
        )
    )
