"""How a message leaves the board: through the configured SMTP server, or (no server: the
embedded default) into the instance folder's ``outbox`` and the log."""

from __future__ import annotations

import logging
import smtplib
import ssl
from email.message import EmailMessage
from pathlib import Path

from app.data.config import Settings

log = logging.getLogger(__name__)

SMTP_TIMEOUT_SECONDS = 30


def describe(settings: Settings) -> str:
    """Where mail goes, in one line (``nlgboard run`` prints it at start)."""
    mail = settings.mail
    if mail.host is None:
        return (
            f"mail: no SMTP server configured (SMTP_URL); messages are written to "
            f"{settings.outbox_path} and the log"
        )
    return f"mail: sent through {mail.host}:{mail.port} (TLS: {mail.tls}) from {mail.sender}"


def deliver(settings: Settings, mail_id: int, message: EmailMessage) -> None:
    """Send ``message`` or raise (``smtplib.SMTPException``, ``OSError``): the caller decides
    whether to try again."""
    if settings.mail.host is None:
        path = write_to_outbox(settings.outbox_path, mail_id, message)
        log.info(
            "mail %s to %s (%s) written to %s:\n%s",
            mail_id,
            message["To"],
            message["Subject"],
            path,
            message.get_content(),
            extra={"mail_id": mail_id},
        )
        return
    _send_smtp(settings, message)
    log.info("mail %s to %s (%s) sent", mail_id, message["To"], message["Subject"])


def write_to_outbox(outbox: Path, mail_id: int, message: EmailMessage) -> Path:
    """One ``.eml`` file per message, named so that ``ls`` lists them in order."""
    outbox.mkdir(parents=True, exist_ok=True)
    path = outbox / f"{mail_id:08d}.eml"
    temporary = path.with_suffix(".part")
    temporary.write_bytes(message.as_bytes())
    temporary.replace(path)
    return path


def _send_smtp(settings: Settings, message: EmailMessage) -> None:
    mail = settings.mail
    assert mail.host is not None
    smtp: smtplib.SMTP
    if mail.tls == "ssl":
        context = ssl.create_default_context()
        smtp = smtplib.SMTP_SSL(mail.host, mail.port, timeout=SMTP_TIMEOUT_SECONDS, context=context)
    else:
        smtp = smtplib.SMTP(mail.host, mail.port, timeout=SMTP_TIMEOUT_SECONDS)
    with smtp:
        if mail.tls == "starttls":
            smtp.starttls(context=ssl.create_default_context())
        if mail.user:
            smtp.login(mail.user, mail.password or "")
        smtp.send_message(message)
