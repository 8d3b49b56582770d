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
from app.models.human import (
    HUMAN_SYSTEM,
    AnnotationLink,
    Campaign,
    CampaignUnit,
    HitAssignment,
    Judgement,
    Method,
    UnitEntry,
)
from app.models.submissions import DESCRIBED, Output, Score, Submission, SubmissionStatus, System

__all__ = [
    "DESCRIBED",
    "HUMAN_SYSTEM",
    "AnnotationLink",
    "Base",
    "Campaign",
    "CampaignUnit",
    "Challenge",
    "ChallengeOrganiser",
    "HitAssignment",
    "Item",
    "ItemSubset",
    "Judgement",
    "Membership",
    "Method",
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
    "UnitEntry",
    "User",
    "hash_token",
    "utcnow",
]
