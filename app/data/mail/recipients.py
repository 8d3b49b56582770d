"""Who receives a notification: verified addresses of the people it concerns who have not
switched it off (an unverified address may be someone else's)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.models import ChallengeAnnotator, Membership, System, Track, User


def _wanting(users: list[User], notification: str) -> list[User]:
    return [user for user in users if user.email_verified and user.wants(notification)]


def team_members(session: Session, team_id: int, notification: str) -> list[User]:
    found = select(User).join(Membership).where(Membership.team_id == team_id).order_by(User.id)
    return _wanting(list(session.scalars(found)), notification)


def track_participants(session: Session, track_id: int, notification: str) -> list[User]:
    """Members of the teams with a system on the track."""
    teams = select(System.team_id).where(System.track_id == track_id, System.team_id.is_not(None))
    found = select(User).join(Membership).where(Membership.team_id.in_(teams)).order_by(User.id)
    return _wanting(list(session.scalars(found.distinct())), notification)


def challenge_participants(session: Session, challenge_id: int, notification: str) -> list[User]:
    """Members of the teams with a system on any track of the challenge."""
    tracks = select(Track.id).where(Track.challenge_id == challenge_id)
    teams = select(System.team_id).where(System.track_id.in_(tracks), System.team_id.is_not(None))
    found = select(User).join(Membership).where(Membership.team_id.in_(teams)).order_by(User.id)
    return _wanting(list(session.scalars(found.distinct())), notification)


def challenge_annotators(session: Session, challenge_id: int, notification: str) -> list[User]:
    found = (
        select(User)
        .join(ChallengeAnnotator, ChallengeAnnotator.user_id == User.id)
        .where(ChallengeAnnotator.challenge_id == challenge_id)
        .order_by(User.id)
    )
    return _wanting(list(session.scalars(found)), notification)
