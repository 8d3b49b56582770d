"""A campaign's cluster procedure (``campaigns.clusters``: the organisers' published procedure
is the specification of their table), and an annotator's note on a judgement
(``judgements.note``: the optional reason given with a pairwise preference).

Existing campaigns were clustered as the board did until now: Direct Assessment by ``wmt``,
RankME by TrueSkill's rank ranges, ROSE not at all (``none``).

Revision ID: 0025_i48_protocols
Revises: 0024_i47_inputs
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025_i48_protocols"
down_revision = "0024_i47_inputs"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.add_column(sa.Column("clusters", sa.String(32), nullable=False, server_default="wmt"))
    op.execute("UPDATE campaigns SET clusters = 'trueskill' WHERE method = 'rankme'")
    op.execute("UPDATE campaigns SET clusters = 'none' WHERE method = 'rose'")
    with op.batch_alter_table("judgements") as batch:
        batch.add_column(sa.Column("note", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("judgements") as batch:
        batch.drop_column("note")
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_column("clusters")
