"""Users' ``session_nonce``: part of every session cookie's user id, changed on logout and on a
new password, so that a copied session cookie stops working server-side.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("session_nonce", sa.String(32), nullable=True))
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("session_nonce", sa.String))
    connection = op.get_bind()
    for (user_id,) in connection.execute(sa.select(users.c.id)).all():
        connection.execute(
            users.update().where(users.c.id == user_id).values(session_nonce=secrets.token_hex(16))
        )
    with op.batch_alter_table("users") as batch:
        batch.alter_column("session_nonce", existing_type=sa.String(32), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("session_nonce")
