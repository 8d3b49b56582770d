"""Who may see what: the one place visibility rules live (the rule itself, ``Viewer``, is
in ``app.data.visibility`` so that the worker asks it too)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.models import (
    ChallengeAnnotator,
    ChallengeOrganiser,
    Role,
    Submission,
    SubmissionStatus,
    User,
)
from app.data.visibility import ANONYMOUS, MIN_SUBSET_ITEMS, ORGANISERS, PUBLIC, Viewer

__all__ = [
    "ANONYMOUS",
    "MIN_SUBSET_ITEMS",
    "ORGANISERS",
    "PUBLIC",
    "Viewer",
    "can_see_outputs",
    "can_see_scores",
    "can_see_submission",
    "is_organiser_of",
    "may_annotate",
    "viewer_of",
]


def viewer_of(session: Session, user: User | None, challenge_id: int) -> Viewer:
    team = user.team if user is not None and getattr(user, "is_authenticated", False) else None
    return Viewer(is_organiser_of(session, user, challenge_id), team.id if team else None)


def is_organiser_of(session: Session, user: User | None, challenge_id: int) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if user.role == Role.ADMIN:
        return True
    return user.role == Role.ORGANISER and _listed(session, ChallengeOrganiser, challenge_id, user)


def _listed(
    session: Session,
    staff: type[ChallengeOrganiser] | type[ChallengeAnnotator],
    challenge_id: int,
    user: User,
) -> bool:
    """Whether ``user`` has a row in a per-challenge staff table (organisers, annotators)."""
    found = select(staff.id).where(staff.challenge_id == challenge_id, staff.user_id == user.id)
    return session.scalar(found) is not None


def may_annotate(session: Session, user: User | None, challenge_id: int) -> bool:
    """Annotators judge only the campaigns of the challenges they were created for; the
    challenge's organisers (and admins) may try its campaigns too."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if user.role == Role.ANNOTATOR:
        return _listed(session, ChallengeAnnotator, challenge_id, user)
    return is_organiser_of(session, user, challenge_id)


def can_see_submission(session: Session, user: User | None, submission: Submission) -> bool:
    """Status, error message and file of a submission: its team, its challenge's organisers."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    system = submission.system
    if system.team_id is not None and user.team is not None and user.team.id == system.team_id:
        return True
    return is_organiser_of(session, user, system.track.challenge_id)


def can_see_outputs(session: Session, user: User | None, submission: Submission) -> bool:
    """A submission's outputs item by item: its team and organisers; everyone once the test
    results are published (before, other teams could copy outputs on the test inputs). What
    the scorer found per item has its own rule, ``Viewer.sees_item_figures_of``."""
    if can_see_submission(session, user, submission):
        return True
    return (
        submission.system.track.outputs_public
        and submission.withdrawn_at is None
        and submission.status == SubmissionStatus.SCORED
    )


def can_see_scores(session: Session, user: User | None, submission: Submission) -> bool:
    """A submission's scores: who may see the submission, within the track's phase rules."""
    system = submission.system
    return can_see_submission(session, user, submission) and viewer_of(
        session, user, system.track.challenge_id
    ).sees_scores_of(system.track, system)
