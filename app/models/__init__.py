"""The schema, split by concept. Changed only through Alembic migrations (migrations/)."""

from app.models.accounts import Membership, Role, Team, User, hash_token
from app.models.audit import AuditEvent, LoginAttempt
from app.models.base import Base, utcnow
from app.models.challenges import (
    DEVELOPMENT,
    PHASES,
    TEST,
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
from app.models.submissions import (
    DESCRIBED,
    Output,
    Score,
    Submission,
    SubmissionStatistics,
    SubmissionStatus,
    System,
)

__all__ = [
    "DESCRIBED",
    "DEVELOPMENT",
    "HUMAN_SYSTEM",
    "PHASES",
    "TEST",
    "AnnotationLink",
    "AuditEvent",
    "Base",
    "Campaign",
    "CampaignUnit",
    "Challenge",
    "ChallengeOrganiser",
    "HitAssignment",
    "Item",
    "ItemSubset",
    "Judgement",
    "LoginAttempt",
    "Membership",
    "Method",
    "Output",
    "Reference",
    "Role",
    "Score",
    "Submission",
    "SubmissionStatistics",
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
