"""Users and teams."""

from __future__ import annotations

import hmac
from datetime import timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from app.models import LoginAttempt, Membership, Role, Team, User, hash_token, utcnow
from app.services import DomainError, add_unique


def create_user(
    session: Session, email: str, password: str | None = None, role: Role = Role.PARTICIPANT
) -> User:
    email = email.strip().lower()
    user = User(email=email, role=role)
    if password:
        user.set_password(password)
    add_unique(session, user, duplicate=f"an account for {email} already exists")
    return user


def authenticate(session: Session, email: str, password: str) -> User | None:
    user = session.scalar(select(User).where(User.email == email.strip().lower()))
    return user if user is not None and user.check_password(password) else None


LOGIN_WINDOW = timedelta(minutes=15)
FAILURES_PER_ACCOUNT = 5
FAILURES_PER_ADDRESS = 20


def login_blocked(session: Session, email: str, address: str) -> bool:
    """Too many failed logins in the window, for this account or from this address (guessing
    one password or spraying many accounts)."""
    since = utcnow() - LOGIN_WINDOW
    recent = select(func.count(LoginAttempt.id)).where(LoginAttempt.at >= since)
    by_account = session.scalar(recent.where(LoginAttempt.email == email.strip().lower()))
    by_address = session.scalar(recent.where(LoginAttempt.address == address))
    return by_account >= FAILURES_PER_ACCOUNT or by_address >= FAILURES_PER_ADDRESS


def note_failed_login(session: Session, email: str, address: str) -> None:
    session.add(LoginAttempt(email=email.strip().lower()[:254], address=address[:64]))
    session.execute(delete(LoginAttempt).where(LoginAttempt.at < utcnow() - 2 * LOGIN_WINDOW))
    session.commit()


def revoke_api_token(session: Session, user: User) -> None:
    """The token stops working at once (only its hash was stored, so nothing else to erase)."""
    user.api_token_hash = None
    session.commit()


def user_for_token(session: Session, token: str) -> User | None:
    return session.scalar(select(User).where(User.api_token_hash == hash_token(token)))


def create_team(session: Session, user: User, name: str) -> Team:
    _require_no_team(user)
    name = " ".join(name.split())
    if session.scalar(select(Team).where(func.lower(Team.name) == name.lower())):
        raise DomainError(f"a team called {name!r} already exists; join it with its code")
    team = Team(name=name)
    add_unique(
        session, team, Membership(user=user, team=team), duplicate=f"a team called {name!r} exists"
    )
    return team


def join_team(session: Session, user: User, name: str, join_code: str) -> Team:
    _require_no_team(user)
    team = session.scalar(select(Team).where(func.lower(Team.name) == name.strip().lower()))
    if team is None or not hmac.compare_digest(team.join_code, join_code.strip()):
        raise DomainError("no team with that name and join code")
    session.add(Membership(user=user, team=team))
    session.flush()
    return team


def find_or_create_team(session: Session, name: str) -> Team:
    team = session.scalar(select(Team).where(Team.name == name))
    if team is None:
        team = Team(name=name)
        session.add(team)
        session.flush()
    return team


def _require_no_team(user: User) -> None:
    if user.team is not None:
        raise DomainError(f"you are already in team {user.team.name!r}")
