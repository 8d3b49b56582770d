"""A campaign says which Direct Assessment quality controls it had (``campaigns.quality_control``:
some of ``damaged,repeat,reference``, or ``none`` for judgements collected without them), so an
imported campaign is not held to damaged-copy checks it never ran. Existing campaigns keep all
three, the checks they were analysed with.

Revision ID: 0022_i44_human
Revises: 0021_i43_kind
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022_i44_human"
down_revision = "0021_i43_kind"
branch_labels = None
depends_on = None

ALL_CONTROLS = "damaged,repeat,reference"


def upgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.add_column(
            sa.Column(
                "quality_control",
                sa.String(64),
                nullable=False,
                server_default=ALL_CONTROLS,
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_column("quality_control")
