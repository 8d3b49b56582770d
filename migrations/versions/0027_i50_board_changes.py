"""``board_changes``: one row whose counter every committed write moves on, in the same
transaction (``app.data.changes``), so a web process can tell whether a public page it drew
is still the page the database would give.

Revision ID: 0027_i50_board_changes
Revises: 0026_i48_judges
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027_i50_board_changes"
down_revision = "0026_i48_judges"
branch_labels = None
depends_on = None


def upgrade() -> None:
    table = op.create_table(
        "board_changes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("counter", sa.BigInteger(), nullable=False),
    )
    op.bulk_insert(table, [{"id": 1, "counter": 0}])


def downgrade() -> None:
    op.drop_table("board_changes")
