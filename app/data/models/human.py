"""Human evaluation: campaigns, the units annotators see, their HITs and judgements."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.data.models.base import Base, UTCDateTime, utcnow
from app.data.models.challenges import Item, Track
from scorer.human.protocols import Protocol, protocol

HUMAN_SYSTEM = "HUMAN"
"""The label of the human references when they are evaluated as a system (SR'18): reserved, so
no system may take it; results are keyed by system id and ``is_reference``, never by it."""


ALL_CONTROLS = "damaged,repeat,reference"
"""DA quality control of a campaign made before it was a setting: all three controls."""


class Campaign(Base):
    """One human evaluation of a track's systems under one protocol (``method``: a name of
    ``scorer.human.protocols``) and criterion."""

    __tablename__ = "campaigns"
    __table_args__ = (UniqueConstraint("track_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    track_id: Mapped[int] = mapped_column(ForeignKey("tracks.id", ondelete="CASCADE"))
    language: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(64))
    method: Mapped[str] = mapped_column(String(16))
    criterion: Mapped[str] = mapped_column(String(64))
    show_input: Mapped[bool] = mapped_column(Boolean, default=True)
    show_reference: Mapped[bool] = mapped_column(Boolean, default=False)
    hit_size: Mapped[int] = mapped_column(Integer)
    annotators_per_hit: Mapped[int] = mapped_column(Integer, default=3)
    quality_control: Mapped[str] = mapped_column(
        String(64), default=ALL_CONTROLS, server_default=ALL_CONTROLS
    )
    """DA: the quality controls the campaign had (``damaged,repeat,reference`` or ``none``);
    analysis requires only their rules (``scorer.human.direct_assessment.required_for``)."""
    clusters: Mapped[str] = mapped_column(String(32), default="wmt", server_default="wmt")
    """The cluster procedure (``scorer.human.clusters``) the campaign's organisers published
    their table by, one its protocol allows."""
    options: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    """The protocol's own choices (``Protocol.read_options``: Likert's criteria with their
    scales and directions and its aggregate, pairwise's ties); None: the protocol's defaults."""
    is_open: Mapped[bool] = mapped_column(Boolean, default=True)
    is_published: Mapped[bool] = mapped_column(Boolean, default=False)
    imported: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    """For judgements collected elsewhere: the file's name and what reading it changed."""
    results: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    results_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    analysis: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The worker's analysis (``app.data.human_analysis.AnalysisStatus``): pending, done or
    failed; None when none was asked of it (the organisers' button computes at once)."""
    analysis_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    """Why the worker's analysis failed, for the organisers."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    track: Mapped[Track] = relationship()
    units: Mapped[list[CampaignUnit]] = relationship(
        back_populates="campaign", order_by="CampaignUnit.position", cascade="all, delete-orphan"
    )

    @property
    def protocol(self) -> Protocol:
        """What everything about the campaign asks: its layout, analysis, table, agreement."""
        return protocol(self.method)

    @property
    def options_text(self) -> str:
        """The protocol's options in a line (empty: it has none to state), as the results
        page, the API and the exports say them."""
        return self.protocol.describe_options(self.options or {})


class CampaignUnit(Base):
    """What one page shows: an item with one output (DA, ROSE) or several (RankME)."""

    __tablename__ = "campaign_units"
    __table_args__ = (UniqueConstraint("campaign_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    hit: Mapped[int] = mapped_column(Integer)
    item_id: Mapped[int] = mapped_column(ForeignKey("items.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16), default="genuine")
    """DA quality control: genuine, repeat, damaged or reference (SR'18 Sect. 3.2.1)."""
    subset: Mapped[str] = mapped_column(String(64), default="")

    campaign: Mapped[Campaign] = relationship(back_populates="units")
    item: Mapped[Item] = relationship()
    entries: Mapped[list[UnitEntry]] = relationship(
        back_populates="unit", order_by="UnitEntry.slot", cascade="all, delete-orphan"
    )


class UnitEntry(Base):
    """One text shown in a unit, in the (random) order it is shown; the system stays hidden."""

    __tablename__ = "unit_entries"
    __table_args__ = (UniqueConstraint("unit_id", "slot"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    unit_id: Mapped[int] = mapped_column(ForeignKey("campaign_units.id", ondelete="CASCADE"))
    slot: Mapped[int] = mapped_column(Integer)
    system_id: Mapped[int | None] = mapped_column(
        ForeignKey("systems.id", ondelete="SET NULL"), nullable=True
    )
    system_name: Mapped[str] = mapped_column(String(100))
    is_reference: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """The human references shown as a system's output (``include_human``), not a system."""
    text: Mapped[str] = mapped_column(Text)

    unit: Mapped[CampaignUnit] = relationship(back_populates="entries")


class AnnotationLink(Base):
    """A one-time link: whoever holds it may do one HIT, without an account."""

    __tablename__ = "annotation_links"

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    spent_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class HitAssignment(Base):
    """An annotator working on one HIT; the unique constraint keeps them to one pass each."""

    __tablename__ = "hit_assignments"
    __table_args__ = (UniqueConstraint("campaign_id", "hit", "annotator"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    hit: Mapped[int] = mapped_column(Integer)
    annotator: Mapped[str] = mapped_column(String(100))
    link_id: Mapped[int | None] = mapped_column(
        ForeignKey("annotation_links.id", ondelete="SET NULL"), nullable=True
    )
    started_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class Judgement(Base):
    """One score by one annotator, with who and when; imported ones keep their file's names.

    What was judged is ``system_id`` (a system of the track) or ``is_reference`` (the human
    references); an imported name the organiser confirmed is on no system of the board has
    neither and keeps its file's name."""

    __tablename__ = "judgements"
    __table_args__ = (
        UniqueConstraint(
            "campaign_id", "unit_key", "system_name", "is_reference", "annotator", "criterion"
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    entry_id: Mapped[int | None] = mapped_column(
        ForeignKey("unit_entries.id", ondelete="CASCADE"), nullable=True
    )
    unit_key: Mapped[str] = mapped_column(String(100))
    item_key: Mapped[str] = mapped_column(String(100))
    system_name: Mapped[str] = mapped_column(String(100))
    system_id: Mapped[int | None] = mapped_column(
        ForeignKey("systems.id", ondelete="SET NULL"), nullable=True
    )
    is_reference: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    annotator: Mapped[str] = mapped_column(String(100))
    criterion: Mapped[str] = mapped_column(String(64))
    score: Mapped[float] = mapped_column(Float)
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    """What the annotator wrote beside the score (a pairwise preference's optional reason)."""
    kind: Mapped[str] = mapped_column(String(16), default="genuine")
    subset: Mapped[str] = mapped_column(String(64), default="")
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
