"""Human evaluation: campaigns, units, entries, one-time links, HIT assignments, judgements;
the annotator role.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _id() -> sa.Column:
    return sa.Column("id", sa.Integer(), primary_key=True)


def _fk(name: str, target: str, ondelete: str = "CASCADE", nullable: bool = False) -> sa.Column:
    return sa.Column(
        name, sa.Integer(), sa.ForeignKey(target, ondelete=ondelete), nullable=nullable
    )


def _when(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TYPE user_role ADD VALUE IF NOT EXISTS 'annotator'")
    op.create_table(
        "campaigns",
        _id(),
        _fk("track_id", "tracks.id"),
        sa.Column("language", sa.String(16), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("method", sa.String(16), nullable=False),
        sa.Column("criterion", sa.String(64), nullable=False),
        sa.Column("show_input", sa.Boolean(), nullable=False),
        sa.Column("show_reference", sa.Boolean(), nullable=False),
        sa.Column("hit_size", sa.Integer(), nullable=False),
        sa.Column("annotators_per_hit", sa.Integer(), nullable=False),
        sa.Column("is_open", sa.Boolean(), nullable=False),
        sa.Column("is_published", sa.Boolean(), nullable=False),
        sa.Column("imported", sa.JSON(), nullable=True),
        sa.Column("results", sa.JSON(), nullable=True),
        _when("results_at", nullable=True),
        _when("created_at"),
        sa.UniqueConstraint("track_id", "name"),
    )
    op.create_table(
        "campaign_units",
        _id(),
        _fk("campaign_id", "campaigns.id"),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("hit", sa.Integer(), nullable=False),
        _fk("item_id", "items.id"),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("subset", sa.String(64), nullable=False),
        sa.UniqueConstraint("campaign_id", "position"),
    )
    op.create_table(
        "unit_entries",
        _id(),
        _fk("unit_id", "campaign_units.id"),
        sa.Column("slot", sa.Integer(), nullable=False),
        _fk("system_id", "systems.id", "SET NULL", nullable=True),
        sa.Column("system_name", sa.String(100), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.UniqueConstraint("unit_id", "slot"),
    )
    op.create_table(
        "annotation_links",
        _id(),
        _fk("campaign_id", "campaigns.id"),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        _when("created_at"),
        _when("spent_at", nullable=True),
    )
    op.create_table(
        "hit_assignments",
        _id(),
        _fk("campaign_id", "campaigns.id"),
        sa.Column("hit", sa.Integer(), nullable=False),
        sa.Column("annotator", sa.String(100), nullable=False),
        _fk("link_id", "annotation_links.id", "SET NULL", nullable=True),
        _when("started_at"),
        _when("completed_at", nullable=True),
        sa.UniqueConstraint("campaign_id", "hit", "annotator"),
    )
    op.create_table(
        "judgements",
        _id(),
        _fk("campaign_id", "campaigns.id"),
        _fk("entry_id", "unit_entries.id", nullable=True),
        sa.Column("unit_key", sa.String(100), nullable=False),
        sa.Column("item_key", sa.String(100), nullable=False),
        sa.Column("system_name", sa.String(100), nullable=False),
        sa.Column("annotator", sa.String(100), nullable=False),
        sa.Column("criterion", sa.String(64), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("subset", sa.String(64), nullable=False),
        _fk("user_id", "users.id", "SET NULL", nullable=True),
        _when("created_at"),
        sa.UniqueConstraint("campaign_id", "unit_key", "system_name", "annotator", "criterion"),
    )


def downgrade() -> None:
    # PostgreSQL cannot drop an enum value; 'annotator' stays in user_role, unused.
    for table in (
        "judgements",
        "hit_assignments",
        "annotation_links",
        "unit_entries",
        "campaign_units",
        "campaigns",
    ):
        op.drop_table(table)
