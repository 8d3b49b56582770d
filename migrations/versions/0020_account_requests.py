"""Registrations wait for their address to be confirmed (``pending_registrations``: the account
is made when the mailed link is opened), and the registrations, reset and confirmation mails
asked for are kept an hour for their rate limits (``account_requests``: per client address
and per e-mail address).

Revision ID: 0020_account_requests
Revises: 0019_i42_upload_gates
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020_account_requests"
down_revision = "0019_i42_upload_gates"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pending_registrations",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("email", sa.String(254), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("nonce", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "account_requests",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
    )
    op.create_index("ix_account_requests_at", "account_requests", ["at"])


def downgrade() -> None:
    op.drop_index("ix_account_requests_at", "account_requests")
    op.drop_table("account_requests")
    op.drop_table("pending_registrations")
