"""E-mail: the outbox the board writes and its workers send, and the board's own settings."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import JSON, Enum, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.data.models.base import Base, UTCDateTime, utcnow


class MailStatus(enum.StrEnum):
    QUEUED = "queued"
    SENDING = "sending"
    SENT = "sent"
    FAILED = "failed"


class Mail(Base):
    """One message to one address. The row is written with the action that causes it and is
    the truth: the sending job reads it, a failed send leaves it queued for a later try, and
    the recovery pass re-enqueues what a lost queue or a dead worker left behind."""

    __tablename__ = "mails"

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    """What caused it (``reset``, ``verify``, ``registered``: someone tried to register an
    address that has an account, ``scored``, ``failed``, ``published``, ``deadline``,
    ``annotation``, ``message``)."""
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), index=True
    )
    to_address: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str | None] = mapped_column(Text)
    """Erased once a ``secret`` message is sent: a reset link is not kept at rest."""
    secret: Mapped[bool] = mapped_column(default=False)
    status: Mapped[MailStatus] = mapped_column(
        Enum(MailStatus, name="mail_status", values_callable=lambda e: [m.value for m in e]),
        default=MailStatus.QUEUED,
        index=True,
    )
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, index=True)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class BoardSetting(Base):
    """A setting the administrator changes on the web (environment variables configure the
    deployment; these the running board)."""

    __tablename__ = "board_settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[object] = mapped_column(JSON)
