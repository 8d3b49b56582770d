"""A fresh board's first administrator: a one-time setup link, printed at start-up.

A new instance has no admin, and no page can make one (roles are granted by admins). "The first
account to register becomes admin" races anyone who finds a public site first, so ``nlgboard
run`` prints a link signed with the instance's secret key instead: whoever started the board
opens it, logged in (or registers through it), and that account becomes the administrator.

The link works while the board has no admin, once (its use is kept in the audit log) and for
``MAX_AGE_SECONDS``; ``nlgboard user admin-link`` prints a fresh one.
"""

from __future__ import annotations

import enum
import hashlib
import secrets

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.models import AuditEvent, Role, User
from app.web.services.audit import record

SALT = "nlgboard-admin-setup"
MAX_AGE_SECONDS = 24 * 3600
ACTION = "admin setup"
PATH = "/setup/admin/"
"""Where the link points (its token follows); the access log redacts what comes after it."""


class LinkState(enum.Enum):
    VALID = "valid"
    INVALID = "not a setup link of this board"
    EXPIRED = "expired: ask whoever runs the board for a fresh one (nlgboard user admin-link)"
    USED = "already used"
    ADMIN_EXISTS = "not needed any more: the board has an administrator"


def has_admin(session: Session) -> bool:
    return session.scalar(select(User.id).where(User.role == Role.ADMIN).limit(1)) is not None


def setup_token(secret_key: str) -> str:
    """A new link's secret part: a random nonce, signed and timestamped."""
    return _serializer(secret_key).dumps({"nonce": secrets.token_hex(16)})


def setup_path(secret_key: str) -> str:
    return PATH + setup_token(secret_key)


def link_state(session: Session, secret_key: str, token: str) -> LinkState:
    nonce = _nonce(secret_key, token)
    if isinstance(nonce, LinkState):
        return nonce
    if _used(session, nonce):
        return LinkState.USED
    if has_admin(session):
        return LinkState.ADMIN_EXISTS
    return LinkState.VALID


def redeem(session: Session, user: User, secret_key: str, token: str) -> LinkState:
    """Make ``user`` the administrator if the link is valid, recording its use (so it is
    invalid afterwards); the state found otherwise. Commits."""
    state = link_state(session, secret_key, token)
    if state is not LinkState.VALID:
        return state
    nonce = _nonce(secret_key, token)
    assert isinstance(nonce, str)
    user.role = Role.ADMIN
    record(session, user, ACTION, _digest(nonce), None, account=user.email)
    session.commit()
    return state


def _serializer(secret_key: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret_key, salt=SALT)


def _nonce(secret_key: str, token: str) -> str | LinkState:
    try:
        payload = _serializer(secret_key).loads(token, max_age=MAX_AGE_SECONDS)
    except SignatureExpired:
        return LinkState.EXPIRED
    except BadSignature:
        return LinkState.INVALID
    nonce = payload.get("nonce") if isinstance(payload, dict) else None
    return nonce if isinstance(nonce, str) else LinkState.INVALID


def _digest(nonce: str) -> str:
    """What the audit log keeps of a used link: enough to refuse it again, not to rebuild it."""
    return hashlib.sha256(nonce.encode()).hexdigest()[:32]


def _used(session: Session, nonce: str) -> bool:
    return (
        session.scalar(
            select(AuditEvent.id)
            .where(AuditEvent.action == ACTION, AuditEvent.target == _digest(nonce))
            .limit(1)
        )
        is not None
    )
