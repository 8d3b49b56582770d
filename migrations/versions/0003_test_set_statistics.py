"""Test sets keep their reference rows of the textual statistics ("test set all" / "rand").

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("test_sets") as batch:
        batch.add_column(sa.Column("described", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("described_signature", sa.String(300), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("test_sets") as batch:
        batch.drop_column("described_signature")
        batch.drop_column("described")
