"""outputs.annotations: per-output findings of the scorer (E2E slot errors)

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 20:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outputs") as batch:
        batch.add_column(sa.Column("annotations", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outputs") as batch:
        batch.drop_column("annotations")
