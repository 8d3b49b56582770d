"""Systems, their submissions, the scores and the normalised outputs of each submission."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    Enum,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.data.disclosure import Figure, Sealed, SealedBytes
from app.data.models.accounts import Team, User
from app.data.models.base import Base, UTCDateTime, utcnow
from app.data.models.challenges import Track


class SubmissionStatus(enum.StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    SCORED = "scored"
    FAILED = "failed"


class System(Base):
    """A team's entry in a track (or an organisers' baseline), under a name that is the team's
    own: two teams may each have a "primary", so choosing a name tells nothing about another
    team's systems. Baselines (no team) have names unique among themselves."""

    __tablename__ = "systems"
    __table_args__ = (
        UniqueConstraint("track_id", "team_id", "name", name="uq_systems_track_team_name"),
        Index(
            "uq_systems_track_teamless_name",
            "track_id",
            "name",
            unique=True,
            sqlite_where=text("team_id IS NULL"),
            postgresql_where=text("team_id IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    track_id: Mapped[int] = mapped_column(ForeignKey("tracks.id", ondelete="CASCADE"))
    team_id: Mapped[int | None] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(100))
    description: Mapped[str] = mapped_column(Text, default="")
    architecture: Mapped[str] = mapped_column(String(64), default="")
    is_baseline: Mapped[bool] = mapped_column(Boolean, default=False)
    is_primary: Mapped[bool] = mapped_column(Boolean, default=False)
    is_anonymous: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """The team asked to be anonymised: "anonymous" in every public view, export and plot."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    track: Mapped[Track] = relationship()
    team: Mapped[Team | None] = relationship()
    submissions: Mapped[list[Submission]] = relationship(
        back_populates="system", order_by="Submission.id"
    )


class Submission(Base):
    """One uploaded output file. Its row, not the queue, is the truth about its state."""

    __tablename__ = "submissions"

    id: Mapped[int] = mapped_column(primary_key=True)
    system_id: Mapped[int] = mapped_column(ForeignKey("systems.id", ondelete="CASCADE"))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    language: Mapped[str] = mapped_column(String(16))
    filename: Mapped[str] = mapped_column(String(255))
    file_sha256: Mapped[str] = mapped_column(String(64))
    status: Mapped[SubmissionStatus] = mapped_column(
        Enum(
            SubmissionStatus,
            name="submission_status",
            values_callable=lambda e: [m.value for m in e],
        ),
        default=SubmissionStatus.QUEUED,
        index=True,
    )
    error: Mapped[str | None] = mapped_column(Text)
    is_late: Mapped[bool] = mapped_column(Boolean, default=False)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    claim_token: Mapped[str | None] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    heartbeat_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    dedupe_key: Mapped[str | None] = mapped_column(String(200), unique=True)
    """(system, language, file, time window) of an upload: a double-clicked upload finds the
    first one's row instead of making a second (unique, so two racing requests cannot both)."""
    withdrawn_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    """Withdrawn by its team: gone from public views, kept for the organisers."""
    described_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    """When its textual statistics were stored (or found to need none): a second job, behind
    every waiting scoring job, computes them after the scores (``worker.jobs``)."""

    system: Mapped[System] = relationship(back_populates="submissions")
    user: Mapped[User | None] = relationship()
    scores: Mapped[list[Score]] = relationship(
        back_populates="submission", order_by="Score.metric", cascade="all, delete-orphan"
    )


DESCRIBED = "textstats"
"""Score.subset of descriptive statistics of the outputs (not metrics: no references, no
bootstrap), E2E Tables 9-10."""


class Score(Base):
    """A corpus-level figure with the signature that produced it."""

    __tablename__ = "scores"
    __table_args__ = (UniqueConstraint("submission_id", "metric", "subset", "language"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id", ondelete="CASCADE"))
    metric: Mapped[str] = mapped_column(String(64))
    subset: Mapped[str] = mapped_column(String(64), default="")
    language: Mapped[str] = mapped_column(String(16), default="")
    value: Mapped[float] = mapped_column(Float)
    signature: Mapped[str] = mapped_column(Text)

    submission: Mapped[Submission] = relationship(back_populates="scores")


class Output(Base):
    """A submission's normalised output for one item (the per-item detail bootstrap needs)."""

    __tablename__ = "outputs"
    __table_args__ = (UniqueConstraint("submission_id", "item_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id", ondelete="CASCADE"))
    item_id: Mapped[int] = mapped_column(ForeignKey("items.id", ondelete="CASCADE"))
    text: Mapped[str] = mapped_column(Text)
    annotations: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    """What the scorer found in this output (E2E: its slot errors), shown on the submission page."""


class SubmissionStatistics(Base):
    """Every metric's per-item statistics of a scored submission (a compressed ``.npz``):
    what paired bootstrap and confidence intervals resample, without rescoring."""

    __tablename__ = "submission_statistics"

    submission_id: Mapped[int] = mapped_column(
        ForeignKey("submissions.id", ondelete="CASCADE"), primary_key=True
    )
    data: Mapped[Sealed] = mapped_column(SealedBytes(Figure.ITEM))
    """Sealed as it is read: per-item figures computed from the hidden references."""
