"""A campaign's own options (``campaigns.options``): a Likert campaign's criteria, each with its
scale and direction, and how an output's judges are combined; a pairwise campaign's ties.

Existing campaigns keep what they were analysed by: no options, the protocol's defaults
(Likert: WebNLG 2017's three criteria on 1-3, the mean; pairwise: a tie half a win each).

Revision ID: 0028_i48_campaign_options
Revises: 0027_i50_board_changes
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0028_i48_campaign_options"
down_revision = "0027_i50_board_changes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.add_column(sa.Column("options", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_column("options")
