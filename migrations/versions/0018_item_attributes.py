"""``items.attributes``: each test item's attributes (WebNLG category, size, seen; E2E slots;
a bundle's own), what breakdowns split a test set by. Items stored before this get the
attributes computable from their input and references when they are read.

Revision ID: 0018_item_attributes
Revises: 0017_mail
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_item_attributes"
down_revision = "0017_mail"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("items", sa.Column("attributes", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("items") as batch:
        batch.drop_column("attributes")
