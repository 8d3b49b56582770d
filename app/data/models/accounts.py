"""People: users with a role, teams and team membership."""

from __future__ import annotations

import enum
import hashlib
import secrets
from datetime import datetime
from functools import cache

from flask_login import UserMixin
from sqlalchemy import JSON, Enum, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship
from werkzeug.security import check_password_hash, generate_password_hash

from app.data.models.base import Base, UTCDateTime, utcnow


@cache
def unusable_hash() -> str:
    """Checked when there is no account or no password, so a login costs the same either way
    (made on first use: a scrypt hash at import would slow every command)."""
    return generate_password_hash(secrets.token_hex(16))


class Role(enum.StrEnum):
    PARTICIPANT = "participant"
    ORGANISER = "organiser"
    ADMIN = "admin"
    ANNOTATOR = "annotator"


NOTIFICATIONS = {
    "submissions": "A submission of my team is scored or fails",
    "results": "The results of a track my team entered are published",
    "deadlines": "A deadline of a challenge my team entered is 24 hours away",
    "annotation": "A human-evaluation campaign opens for me (annotators)",
    "messages": "The organisers of a track my team entered write to its participants",
}
"""The e-mail notifications a person may switch off, each on by default."""


class User(UserMixin, Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(255))
    role: Mapped[Role] = mapped_column(
        Enum(Role, name="user_role", values_callable=lambda e: [m.value for m in e]),
        default=Role.PARTICIPANT,
    )
    api_token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    session_nonce: Mapped[str] = mapped_column(String(32), default=lambda: secrets.token_hex(16))
    """Part of every session's user id: changing it ends every session (logout, new password)."""
    email_verified_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    """When the owner of the address followed the link mailed to it (None: not yet)."""
    notifications_off: Mapped[list[str]] = mapped_column(JSON, default=list, server_default="[]")
    """The notifications (``NOTIFICATIONS``) this person switched off; every other one is on."""

    memberships: Mapped[list[Membership]] = relationship(back_populates="user")

    def set_password(self, password: str) -> None:
        self.password_hash = hash_password(password)
        self.end_sessions()

    def check_password(self, password: str) -> bool:
        """Costs one hash check whether or not the account has a password (no timing oracle)."""
        return check_password_hash(self.password_hash or unusable_hash(), password) and bool(
            self.password_hash
        )

    def get_id(self) -> str:
        """Flask-Login keeps this in the session cookie; see ``end_sessions``."""
        return f"{self.id}:{self.session_nonce}"

    def end_sessions(self) -> None:
        """Every session cookie issued so far stops working (server-side, not just the cookie)."""
        self.session_nonce = secrets.token_hex(16)

    def new_api_token(self) -> str:
        """Issue a fresh API token; only its hash is stored, so it is shown once."""
        token = secrets.token_urlsafe(32)
        self.api_token_hash = hash_token(token)
        return token

    @property
    def email_verified(self) -> bool:
        return self.email_verified_at is not None

    def wants(self, notification: str) -> bool:
        return notification not in (self.notifications_off or [])

    @property
    def team(self) -> Team | None:
        return self.memberships[0].team if self.memberships else None


def hash_password(password: str) -> str:
    """The one place a password is hashed (werkzeug's scrypt): a registration costs one call
    whether or not the address has an account."""
    return generate_password_hash(password)


class PendingRegistration(Base):
    """A registration on the web waiting for its address to be confirmed: the account is made
    only when the link mailed to the address is opened, so registering says nothing about
    who has an account (a known address gets a mail, the form the same answer). One per
    address: registering again replaces it (and voids the older link)."""

    __tablename__ = "pending_registrations"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    nonce: Mapped[str] = mapped_column(String(32), default=lambda: secrets.token_hex(16))
    """In the mailed link: a newer registration of the address changes it."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Team(Base):
    __tablename__ = "teams"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    join_code: Mapped[str] = mapped_column(String(32), default=lambda: secrets.token_hex(8))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    memberships: Mapped[list[Membership]] = relationship(back_populates="team")


class Membership(Base):
    """A user belongs to at most one team (unique user_id): submissions count per team."""

    __tablename__ = "memberships"
    __table_args__ = (UniqueConstraint("user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    user: Mapped[User] = relationship(back_populates="memberships")
    team: Mapped[Team] = relationship(back_populates="memberships")
