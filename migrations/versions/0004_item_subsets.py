"""Named subsets of test items, challenge items linked to their originals, split reports.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "item_subsets",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "item_id", sa.Integer(), sa.ForeignKey("items.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.String(64), nullable=False),
        sa.UniqueConstraint("item_id", "name"),
    )
    with op.batch_alter_table("items") as batch:
        batch.add_column(sa.Column("original_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_items_original_id_items", "items", ["original_id"], ["id"], ondelete="SET NULL"
        )
    with op.batch_alter_table("test_sets") as batch:
        batch.add_column(sa.Column("split_report", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("test_sets") as batch:
        batch.drop_column("split_report")
    with op.batch_alter_table("items") as batch:
        batch.drop_constraint("fk_items_original_id_items", type_="foreignkey")
        batch.drop_column("original_id")
    op.drop_table("item_subsets")
