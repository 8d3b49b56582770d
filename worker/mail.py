"""The sending job: one outbox row, sent once (or tried again later), in an RQ worker or the
embedded default's mail thread.

The row is the truth. The job claims it, sends it, and records the outcome; a send that
fails puts the row back with a later ``next_attempt_at``, and the recovery pass enqueues it
again when it is due. Nothing the mail reports on waits for it or is undone by its failure.
"""

from __future__ import annotations

import logging
import smtplib

from app.data.config import Settings
from app.data.db import session_scope
from app.data.errors import MailError
from app.data.mail import outbox
from app.data.mail.messages import build_message
from app.data.mail.transport import deliver

log = logging.getLogger(__name__)


def send_mail(mail_id: int, settings: Settings | None = None) -> str:
    """Send one mail; return ``sent``, ``retry``, ``failed`` or ``skipped`` (not due, taken
    by another job, or sent already)."""
    settings = settings or Settings.from_env()
    with session_scope(settings.database_url) as session:
        claimed = outbox.claim(session, mail_id)
    if claimed is None:
        return "skipped"
    try:
        message = build_message(settings.mail.sender, claimed.to, claimed.subject, claimed.body)
        deliver(settings, claimed.id, message)
    except (MailError, smtplib.SMTPRecipientsRefused) as error:
        return _failed_try(settings, mail_id, error, permanent=True)
    except (smtplib.SMTPException, OSError) as error:
        return _failed_try(settings, mail_id, error, permanent=False)
    with session_scope(settings.database_url) as session:
        outbox.mark_sent(session, mail_id)
    return "sent"


def _failed_try(settings: Settings, mail_id: int, error: Exception, permanent: bool) -> str:
    """A refused recipient or a bad header will not improve; a server that is down may."""
    reason = f"{type(error).__name__}: {error}"
    with session_scope(settings.database_url) as session:
        outcome = outbox.mark_failed_try(session, mail_id, reason, permanent)
    log.warning("mail %s: not sent (%s); %s", mail_id, reason, outcome)
    return outcome
