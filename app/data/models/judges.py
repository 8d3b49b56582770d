"""An automatic judge's scores of a human campaign's outputs, kept apart from the humans'.

A judge (a model the organisers ran; the board calls none) is not an annotator: its scores live
in their own tables, so no query of ``judgements`` (every human analysis, export and bundle) can
take them in. What was run (``JudgeRun.spec``: model, prompt digest, decoding, date) and the
comparison with the humans (``scorer.human.judge.compare``) are stored on the run.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Boolean, Float, ForeignKey, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.data.models.base import Base, UTCDateTime, utcnow
from app.data.models.human import Campaign


class JudgeRun(Base):
    """One judge's scores of one campaign, under a short name the organisers give."""

    __tablename__ = "judge_runs"
    __table_args__ = (UniqueConstraint("campaign_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))
    spec: Mapped[dict] = mapped_column(JSON)
    """``JudgeSpec.to_dict()``: what makes the scores comparable with another judge's."""
    filename: Mapped[str] = mapped_column(String(200))
    comparison: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    """``JudgeComparison.to_dict()`` with systems keyed by subject; None when the campaign's
    judgements no longer share an output with the judge's (``comparison_error`` says why)."""
    comparison_error: Mapped[str | None] = mapped_column(String(500), nullable=True)
    compared_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    campaign: Mapped[Campaign] = relationship()


class JudgeScore(Base):
    """One score the judge gave one output, its system mapped as the humans' are."""

    __tablename__ = "judge_scores"
    __table_args__ = (
        UniqueConstraint("run_id", "item_key", "system_name", "is_reference", "criterion"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("judge_runs.id", ondelete="CASCADE"), index=True)
    item_key: Mapped[str] = mapped_column(String(100))
    system_name: Mapped[str] = mapped_column(String(100))
    system_id: Mapped[int | None] = mapped_column(
        ForeignKey("systems.id", ondelete="SET NULL"), nullable=True
    )
    is_reference: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    criterion: Mapped[str] = mapped_column(String(64))
    score: Mapped[float] = mapped_column(Float)
