"""Who may see what: the one place visibility rules live."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import ChallengeOrganiser, Role, Submission, User


def is_organiser_of(session: Session, user: User | None, challenge_id: int) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if user.role == Role.ADMIN:
        return True
    return (
        user.role == Role.ORGANISER
        and session.scalar(
            select(ChallengeOrganiser.id).where(
                ChallengeOrganiser.challenge_id == challenge_id,
                ChallengeOrganiser.user_id == user.id,
            )
        )
        is not None
    )


def can_see_submission(session: Session, user: User | None, submission: Submission) -> bool:
    """Status, error message and file of a submission: its team, its challenge's organisers."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    system = submission.system
    if system.team_id is not None and user.team is not None and user.team.id == system.team_id:
        return True
    return is_organiser_of(session, user, system.track.challenge_id)
