"""Business rules, one place each; views and CLI commands call these and only render."""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session


class DomainError(Exception):
    """A request that breaks a rule; the message is shown to the person as it is."""


def add_unique(session: Session, *rows: object, duplicate: str) -> None:
    """Insert rows; a unique-constraint violation becomes a DomainError saying ``duplicate``.

    The database's constraint decides, not a check-then-insert that two requests can race.
    """
    session.add_all(rows)
    try:
        session.flush()
    except IntegrityError:
        session.rollback()
        raise DomainError(duplicate) from None
