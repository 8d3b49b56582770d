"""Failed logins remember the browser (``device``) when it showed the account's device cookie,
so the rate limit counts them for that browser rather than for its address (one NAT, many
people).

Revision ID: 0012_login_device
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_login_device"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("login_attempts") as batch:
        batch.add_column(sa.Column("device", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("login_attempts") as batch:
        batch.drop_column("device")
