"""Challenges, their tracks and each track's test set with hidden references."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.data.disclosure import Figure, Sealed, SealedJSON
from app.data.models.base import Base, UTCDateTime, utcnow
from app.data.track_kinds import profile_name, profile_of
from scorer.kinds import Profile


class Challenge(Base):
    __tablename__ = "challenges"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(64), unique=True)
    title: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    teams_need_approval: Mapped[bool] = mapped_column(
        Boolean, default=False, server_default=false()
    )
    """A team uploads to this challenge's tracks only once an organiser approved it for the
    challenge (``TeamApproval``): teams are free to make, an approval is not."""

    tracks: Mapped[list[Track]] = relationship(back_populates="challenge", order_by="Track.slug")


class ChallengeOrganiser(Base):
    """Organiser rights are per challenge: an organiser of X sees nothing hidden of Y."""

    __tablename__ = "challenge_organisers"
    __table_args__ = (UniqueConstraint("challenge_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    challenge_id: Mapped[int] = mapped_column(ForeignKey("challenges.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))


class TeamApproval(Base):
    """An organiser let a team upload to a challenge that asks for approval
    (``Challenge.teams_need_approval``)."""

    __tablename__ = "team_approvals"
    __table_args__ = (UniqueConstraint("challenge_id", "team_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    challenge_id: Mapped[int] = mapped_column(ForeignKey("challenges.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    approved_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    """The organiser who approved (None: the server's command line, or a deleted account)."""
    approved_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class ChallengeAnnotator(Base):
    """Annotator accounts are per challenge too: they open only that challenge's campaigns."""

    __tablename__ = "challenge_annotators"
    __table_args__ = (UniqueConstraint("challenge_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    challenge_id: Mapped[int] = mapped_column(ForeignKey("challenges.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))


DEVELOPMENT = "development"
TEST = "test"
PHASES = (DEVELOPMENT, TEST)
"""Development: scores public at once. Test: hidden until the organisers publish them."""


DEFAULT_DAILY_LIMIT = 5
"""Uploads a team may make per test set and day on a new track, unless the organisers say
otherwise: every scored upload is a probe of the hidden references, and five covers a day's
honest fixes (E2E took at most two primary systems per team)."""


class Track(Base):
    __tablename__ = "tracks"
    __table_args__ = (UniqueConstraint("challenge_id", "slug"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    challenge_id: Mapped[int] = mapped_column(ForeignKey("challenges.id", ondelete="CASCADE"))
    slug: Mapped[str] = mapped_column(String(64))
    title: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(32))
    language: Mapped[str] = mapped_column(String(16), default="en")
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime())
    daily_limit: Mapped[int | None] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(16), default=DEVELOPMENT, server_default=DEVELOPMENT)
    is_published: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    hide_own_scores: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Test phase: hide a team's own scores from it too until publication."""
    confirmed_only_in_test: Mapped[bool] = mapped_column(
        Boolean, default=True, server_default=true()
    )
    """Test phase: only accounts whose e-mail address is confirmed upload (every test-phase
    upload is a probe of the hidden references, and an unconfirmed account costs nothing)."""
    max_systems: Mapped[int | None] = mapped_column(Integer)
    """Systems a team may enter in this track (None: no limit)."""
    max_primary: Mapped[int] = mapped_column(Integer, default=2, server_default="2")
    """Primary systems per team (E2E: each team named one or two)."""
    kind_definition: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    """A kind an organiser defined from registry parts (``scorer.kinds``); None for the
    built-in kinds. With ``kind``, the one record of what scores the track."""
    deadline_reminded_for: Mapped[datetime | None] = mapped_column(UTCDateTime())
    """The deadline whose 24-hour reminder went out (a moved deadline gets its own)."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    challenge: Mapped[Challenge] = relationship(back_populates="tracks")
    test_sets: Mapped[list[TestSet]] = relationship(back_populates="track")

    @property
    def scoring_profile(self) -> Profile:
        """The profile that scores this track, from the track itself: an organiser's kind
        built from the definition stored with it, a built-in kind by name. Built once per
        process (``app.data.track_kinds``)."""
        return profile_of(self.kind, self.kind_definition, f"track {self.slug}'s kind")

    @property
    def profile(self) -> str:
        """The name of the profile that scores this track (``name@digest`` for an organiser's
        kind), derived from the kind and its definition."""
        return profile_name(self.kind, self.kind_definition)

    def test_set_for(self, language: str | None = None) -> TestSet | None:
        language = language or self.language
        return next((ts for ts in self.test_sets if ts.language == language), None)

    @property
    def deadline_passed(self) -> bool:
        """Whether the deadline is behind us (naive values are UTC); False without one."""
        if self.deadline is None:
            return False
        deadline = self.deadline if self.deadline.tzinfo else self.deadline.replace(tzinfo=UTC)
        return utcnow() > deadline

    @property
    def scores_public(self) -> bool:
        """Whether anyone may see the scores: always in development, after publication in test."""
        return self.phase != TEST or self.is_published

    @property
    def outputs_public(self) -> bool:
        """Anyone may read the systems' outputs only once test results are published (before,
        other teams could copy outputs on the test inputs)."""
        return self.phase == TEST and self.is_published

    @property
    def languages(self) -> list[str]:
        return sorted(test_set.language for test_set in self.test_sets)

    @property
    def is_multilingual(self) -> bool:
        return len(self.test_sets) > 1 or self.language == "mul"


class TestSet(Base):
    """The items of one (track, language); several per track for multilingual tasks."""

    __tablename__ = "test_sets"
    __table_args__ = (UniqueConstraint("track_id", "language"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    track_id: Mapped[int] = mapped_column(ForeignKey("tracks.id", ondelete="CASCADE"))
    language: Mapped[str] = mapped_column(String(16))
    source_sha256: Mapped[str] = mapped_column(String(64))
    content_sha256: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """Hash of the items, references and subsets as stored, renewed by every import that
    changes them: a worker reuses its in-memory copy while this is unchanged."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    # The references' textual statistics (E2E "test set all" / "test set rand"), written by the
    # worker: with D-level they take seconds to minutes, too long for a page view.
    described: Mapped[Sealed | None] = mapped_column(SealedJSON(Figure.REFERENCE), nullable=True)
    described_signature: Mapped[str | None] = mapped_column(String(300), nullable=True)
    split_report: Mapped[Sealed | None] = mapped_column(SealedJSON(Figure.QUOTING), nullable=True)
    """How close each test item is to its nearest training item (Zhang et al. 2024, Eq. 3),
    computed when an organiser gives the track's training file: it quotes the closest pairs,
    so its organisers alone read it."""

    similarity: Mapped[Sealed | None] = mapped_column(SealedJSON(Figure.ANALYSIS), nullable=True)
    """The last ``nlgboard track similarity`` matrix (E2E Fig. 5), keyed by system id (its
    reference rows by their names): its reference rows are each system's similarity to the
    hidden references, so it is opened by the one rule, and pages and plots name the systems
    as the viewer may see them."""

    track: Mapped[Track] = relationship(back_populates="test_sets")
    items: Mapped[list[Item]] = relationship(
        back_populates="test_set", order_by="Item.position", cascade="all, delete-orphan"
    )


class Item(Base):
    __tablename__ = "items"
    __table_args__ = (UniqueConstraint("test_set_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    test_set_id: Mapped[int] = mapped_column(ForeignKey("test_sets.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    input_text: Mapped[str] = mapped_column(Text)
    original_id: Mapped[int | None] = mapped_column(
        ForeignKey("items.id", ondelete="SET NULL"), nullable=True
    )
    """A challenge-set item's unmodified test item (Wang et al. 2021: scored Orig vs Chal)."""
    attributes: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    """Attribute -> value (WebNLG ``category``; E2E ``slots``): what breakdowns split by.
    None for items stored before attributes were (``testsets.load_attributes`` computes them)."""

    test_set: Mapped[TestSet] = relationship(back_populates="items")
    references: Mapped[list[Reference]] = relationship(
        back_populates="item", order_by="Reference.position", cascade="all, delete-orphan"
    )
    subsets: Mapped[list[ItemSubset]] = relationship(
        back_populates="item", order_by="ItemSubset.name", cascade="all, delete-orphan"
    )


class ItemSubset(Base):
    """A named subset an item belongs to (PMB 5 "standard", "long"; a challenge set "tense");
    an item may be in any number of them, and each is scored on its own."""

    __tablename__ = "item_subsets"
    __table_args__ = (UniqueConstraint("item_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("items.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))

    item: Mapped[Item] = relationship(back_populates="subsets")


class Reference(Base):
    """A hidden reference: readable only by organisers of the item's challenge."""

    __tablename__ = "item_references"
    __table_args__ = (UniqueConstraint("item_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("items.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)

    item: Mapped[Item] = relationship(back_populates="references")
