"""The schema, split by concept. Changed only through Alembic migrations (migrations/)."""

from app.models.accounts import Membership, Role, Team, User, hash_token
from app.models.base import Base, utcnow
from app.models.challenges import (
    Challenge,
    ChallengeOrganiser,
    Item,
    ItemSubset,
    Reference,
    TestSet,
    Track,
)
from app.models.submissions import DESCRIBED, Output, Score, Submission, SubmissionStatus, System

__all__ = [
    "DESCRIBED",
    "Base",
    "Challenge",
    "ChallengeOrganiser",
    "Item",
    "ItemSubset",
    "Membership",
    "Output",
    "Reference",
    "Role",
    "Score",
    "Submission",
    "SubmissionStatus",
    "System",
    "Team",
    "TestSet",
    "Track",
    "User",
    "hash_token",
    "utcnow",
]
