"""Test set content digest: workers keep a test set in memory while it is unchanged.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("test_sets") as batch:
        batch.add_column(sa.Column("content_sha256", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("test_sets") as batch:
        batch.drop_column("content_sha256")
