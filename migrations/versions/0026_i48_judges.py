"""An automatic judge beside the humans: ``judge_runs`` (spec, stored comparison) and
``judge_scores``, apart from ``judgements`` so no human analysis can take a judge's score in.

Revision ID: 0026_i48_judges
Revises: 0025_i48_protocols
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0026_i48_judges"
down_revision = "0025_i48_protocols"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "judge_runs",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "campaign_id",
            sa.Integer(),
            sa.ForeignKey("campaigns.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("spec", sa.JSON(), nullable=False),
        sa.Column("filename", sa.String(200), nullable=False),
        sa.Column("comparison", sa.JSON(), nullable=True),
        sa.Column("comparison_error", sa.String(500), nullable=True),
        sa.Column("compared_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("campaign_id", "name"),
    )
    op.create_table(
        "judge_scores",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "run_id",
            sa.Integer(),
            sa.ForeignKey("judge_runs.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("item_key", sa.String(100), nullable=False),
        sa.Column("system_name", sa.String(100), nullable=False),
        sa.Column(
            "system_id",
            sa.Integer(),
            sa.ForeignKey("systems.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("is_reference", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("criterion", sa.String(64), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.UniqueConstraint("run_id", "item_key", "system_name", "is_reference", "criterion"),
    )
    op.create_index("ix_judge_scores_run_id", "judge_scores", ["run_id"])


def downgrade() -> None:
    op.drop_index("ix_judge_scores_run_id", table_name="judge_scores")
    op.drop_table("judge_scores")
    op.drop_table("judge_runs")
