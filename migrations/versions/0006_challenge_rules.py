"""Running a challenge: phases and publication, team limits, withdrawn and anonymised
entries, per-item statistics for significance, the stored system-similarity matrix.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tracks") as batch:
        batch.add_column(
            sa.Column("phase", sa.String(16), nullable=False, server_default="development")
        )
        batch.add_column(
            sa.Column("is_published", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(
            sa.Column("hide_own_scores", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("max_systems", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("max_primary", sa.Integer(), nullable=False, server_default="2"))
    with op.batch_alter_table("test_sets") as batch:
        batch.add_column(sa.Column("similarity", sa.JSON(), nullable=True))
    with op.batch_alter_table("systems") as batch:
        batch.add_column(
            sa.Column("is_anonymous", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("submissions") as batch:
        batch.add_column(sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "submission_statistics",
        sa.Column(
            "submission_id",
            sa.Integer(),
            sa.ForeignKey("submissions.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("data", sa.LargeBinary(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("submission_statistics")
    with op.batch_alter_table("submissions") as batch:
        batch.drop_column("withdrawn_at")
    with op.batch_alter_table("systems") as batch:
        batch.drop_column("is_anonymous")
    with op.batch_alter_table("test_sets") as batch:
        batch.drop_column("similarity")
    with op.batch_alter_table("tracks") as batch:
        for column in ("max_primary", "max_systems", "hide_own_scores", "is_published", "phase"):
            batch.drop_column(column)
