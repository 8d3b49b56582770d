"""The audit log: one row per action that changes what a challenge shows or hides."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.models import AuditEvent, User

CLI = "cli"
"""The actor of commands run on the server (``nlgboard ...``): whoever has shell access."""


def record(
    session: Session,
    user: User | None,
    action: str,
    target: str,
    challenge_id: int | None,
    **details: object,
) -> None:
    """Add an event to the session; it commits with the action it describes."""
    actor = getattr(user, "email", None) if user is not None else None
    session.add(
        AuditEvent(
            user_id=getattr(user, "id", None),
            actor=actor or CLI,
            challenge_id=challenge_id,
            action=action,
            target=target[:300],
            details={k: v for k, v in details.items() if v is not None} or None,
        )
    )


def challenge_events(session: Session, challenge_id: int, limit: int = 500) -> list[AuditEvent]:
    return list(
        session.scalars(
            select(AuditEvent)
            .where(AuditEvent.challenge_id == challenge_id)
            .order_by(AuditEvent.id.desc())
            .limit(limit)
        )
    )
