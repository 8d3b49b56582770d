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
            f"{settings.outbox_path} (NNNNNNNN.txt to read, links whole) and the log"
        )
    return f"mail: sent through {mail.host}:{mail.port} (TLS: {mail.tls}) from {mail.sender}"


def where_mail_goes(settings: Settings) -> str | None:
    """Where the person setting up a board without SMTP finds a confirmation mail (None when
    mail is sent): registering through the admin link mails a link that only works whole."""
    if settings.mail.host is not None:
        return None
    return (
        f"no SMTP server configured (SMTP_URL): a confirmation mail is written to "
        f"{settings.outbox_path}/NNNNNNNN.txt (the newest file; plain text, links whole)"
    )


def outbox_copy(settings: Settings, mail_id: int) -> str | None:
    """Mail ``mail_id``'s readable copy, named from the instance folder (a page may show it
    without showing the server's paths); None when mail is sent."""
    if settings.mail.host is not None:
        return None
    return outbox_file(settings.outbox_path, mail_id).relative_to(settings.instance_path).as_posix()


def deliver(settings: Settings, mail_id: int, message: EmailMessage) -> None:
    """Send ``message`` or raise (``smtplib.SMTPException``, ``OSError``): the caller decides
    whether to try again."""
    if settings.mail.host is None:
        path = write_to_outbox(settings.outbox_path, mail_id, message)
        log.info(
            "mail %s to %s (%s) written to %s (to read: %s):\n%s",
            mail_id,
            message["To"],
            message["Subject"],
            path,
            outbox_file(settings.outbox_path, mail_id),
            message.get_content(),
            extra={"mail_id": mail_id},
        )
        return
    _send_smtp(settings, message)
    log.info("mail %s to %s (%s) sent", mail_id, message["To"], message["Subject"])


def outbox_file(outbox: Path, mail_id: int, suffix: str = ".txt") -> Path:
    """Where mail ``mail_id`` is (or will be) written: ``.eml`` as sent, ``.txt`` to read."""
    return outbox / f"{mail_id:08d}{suffix}"


def write_to_outbox(outbox: Path, mail_id: int, message: EmailMessage) -> Path:
    """One ``.eml`` file per message, named so that ``ls`` lists them in order, and beside it
    a ``.txt`` copy for a person: the ``.eml`` body is quoted-printable, its long lines broken
    by ``=`` soft breaks, so a link copied out of it is cut and answers 410; the ``.txt`` holds
    the headers a reader needs and the body decoded, each link whole on its line."""
    outbox.mkdir(parents=True, exist_ok=True)
    _write(outbox_file(outbox, mail_id, ".txt"), plain_text(message).encode())
    path = outbox_file(outbox, mail_id, ".eml")
    _write(path, message.as_bytes())
    return path


def plain_text(message: EmailMessage) -> str:
    """The message as a person reads it: From, To, Subject, Date, then the decoded body."""
    headers = "".join(
        f"{name}: {message[name]}\n" for name in ("From", "To", "Subject", "Date") if message[name]
    )
    return f"{headers}\n{message.get_content()}"


def _write(path: Path, content: bytes) -> None:
    """Whole or not at all: a reader never sees half a file."""
    temporary = path.with_name(path.name + ".part")
    temporary.write_bytes(content)
    temporary.replace(path)


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
