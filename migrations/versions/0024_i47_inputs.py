"""A campaign's analysis by the worker (``campaigns.analysis``: pending, done or failed, and
``analysis_error``): a published campaign a bundle brings is analysed by a job, not in the web
request, and its pages say the results are pending until the job has run. Existing campaigns
were analysed at once or not at all: none.

Revision ID: 0024_i47_inputs
Revises: 0023_i47_sealed
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024_i47_inputs"
down_revision = "0023_i47_sealed"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.add_column(sa.Column("analysis", sa.String(16), nullable=True))
        batch.add_column(sa.Column("analysis_error", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_column("analysis_error")
        batch.drop_column("analysis")
