"""Submission ``described_at``: textual statistics and D-levels are computed by a second,
low-priority job after the scores, and this says whether it has run.

Submissions scored before this revision were described by their scoring job.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.add_column(sa.Column("described_at", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE submissions SET described_at = finished_at WHERE status = 'scored'")


def downgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.drop_column("described_at")
