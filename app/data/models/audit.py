"""What organisers did (audit log), failed logins, account mails asked for (rate limits), and
the board's change counter."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, BigInteger, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from app.data.models.base import Base, UTCDateTime, utcnow


class AuditEvent(Base):
    """One organiser action (reference upload, publish, rescore, anonymise, ...): who, when,
    on what. Rows are only ever added."""

    __tablename__ = "audit_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    actor: Mapped[str] = mapped_column(String(254))
    """The e-mail (or "cli") at the time: kept when the account goes."""
    challenge_id: Mapped[int | None] = mapped_column(
        ForeignKey("challenges.id", ondelete="CASCADE"), index=True
    )
    action: Mapped[str] = mapped_column(String(64))
    target: Mapped[str] = mapped_column(String(300))
    details: Mapped[dict | None] = mapped_column(JSON, nullable=True)


class LoginAttempt(Base):
    """A failed login, kept for the rate limit's window."""

    __tablename__ = "login_attempts"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, index=True)
    email: Mapped[str] = mapped_column(String(254))
    address: Mapped[str] = mapped_column(String(64))
    device: Mapped[str | None] = mapped_column(String(32))
    """The browser's device id when it showed the account's device cookie (then the failure
    counts for that browser, not for its address)."""


class AccountRequest(Base):
    """A registration, a password-reset or an address-confirmation mail asked for, kept for
    the rate limits' window: counted per source (the client address) and per e-mail address,
    whether or not the address has an account (so a limit reached says nothing about that)."""

    __tablename__ = "account_requests"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, index=True)
    kind: Mapped[str] = mapped_column(String(16))
    """``register``, ``reset`` or ``verify``."""
    email: Mapped[str] = mapped_column(String(254))
    address: Mapped[str] = mapped_column(String(64))


class BoardChanges(Base):
    """One row (``id`` 1) whose counter moves on with every committed write, in that write's
    transaction (``app.data.changes``): what a shared public page is keyed by."""

    __tablename__ = "board_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    counter: Mapped[int] = mapped_column(BigInteger)
