"""Audit log of organiser actions, login attempts (rate limit), upload de-duplication key.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "audit_events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column("actor", sa.String(254), nullable=False),
        sa.Column(
            "challenge_id",
            sa.Integer(),
            sa.ForeignKey("challenges.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("target", sa.String(300), nullable=False),
        sa.Column("details", sa.JSON(), nullable=True),
    )
    op.create_index("ix_audit_events_challenge_id", "audit_events", ["challenge_id"])
    op.create_table(
        "login_attempts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
    )
    op.create_index("ix_login_attempts_at", "login_attempts", ["at"])
    with op.batch_alter_table("submissions") as batch:
        batch.add_column(sa.Column("dedupe_key", sa.String(200), nullable=True))
        batch.create_unique_constraint("uq_submissions_dedupe_key", ["dedupe_key"])


def downgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.drop_constraint("uq_submissions_dedupe_key", type_="unique")
        batch.drop_column("dedupe_key")
    op.drop_index("ix_login_attempts_at", "login_attempts")
    op.drop_table("login_attempts")
    op.drop_index("ix_audit_events_challenge_id", "audit_events")
    op.drop_table("audit_events")
