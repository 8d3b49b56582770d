"""Business rules, one place each; views and CLI commands call these and only render.

A service that changes what is stored takes the acting person, checks the rule, records the
audit event and commits (``action``); views and commands never commit."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Concatenate, ParamSpec, TypeVar

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.web.errors import DomainError


@contextmanager
def action(session: Session) -> Iterator[Session]:
    """One person's action as one transaction: committed whole when it succeeds, rolled back
    whole when a rule refuses it (or anything fails), so nothing is half-stored."""
    try:
        yield session
        session.commit()  # its flush checks too (names.py): a refusal there rolls back as well
    except BaseException:
        session.rollback()
        raise


P = ParamSpec("P")
R = TypeVar("R")


def committed(
    function: Callable[Concatenate[Session, P], R],
) -> Callable[Concatenate[Session, P], R]:
    """A service that is one whole ``action`` on the session it is given first."""

    @wraps(function)
    def run(session: Session, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with action(session):
            return function(session, *args, **kwargs)

    return run


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
