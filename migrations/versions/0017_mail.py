"""E-mail: ``mails`` (the outbox), ``board_settings`` (what the administrator sets on the
web), the accounts' verified address and notification switches, and the deadline reminder
each track last sent.

Accounts that exist already are taken as verified: they were made before the board could
check an address, by an administrator on the command line or by people who have used them
since, and none of them should lose the right to upload.

Revision ID: 0017_mail
Revises: 0016_track_kind_definitions
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_mail"
down_revision = "0016_track_kind_definitions"
branch_labels = None
depends_on = None

MAIL_STATUS = sa.Enum("queued", "sending", "sent", "failed", name="mail_status")


def upgrade() -> None:
    op.add_column(
        "users", sa.Column("email_verified_at", sa.DateTime(timezone=True), nullable=True)
    )
    op.add_column(
        "users",
        sa.Column("notifications_off", sa.JSON(), nullable=False, server_default="[]"),
    )
    op.execute(sa.text("UPDATE users SET email_verified_at = created_at"))
    op.add_column(
        "tracks", sa.Column("deadline_reminded_for", sa.DateTime(timezone=True), nullable=True)
    )
    op.create_table(
        "mails",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="SET NULL", name="fk_mails_user_id_users"),
            nullable=True,
        ),
        sa.Column("to_address", sa.String(254), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text(), nullable=True),
        sa.Column("secret", sa.Boolean(), nullable=False),
        sa.Column("status", MAIL_STATUS, nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.String(500), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_mails_user_id", "mails", ["user_id"])
    op.create_index("ix_mails_status", "mails", ["status"])
    op.create_index("ix_mails_created_at", "mails", ["created_at"])
    op.create_table(
        "board_settings",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("board_settings")
    op.drop_index("ix_mails_created_at", "mails")
    op.drop_index("ix_mails_status", "mails")
    op.drop_index("ix_mails_user_id", "mails")
    op.drop_table("mails")
    MAIL_STATUS.drop(op.get_bind(), checkfirst=True)
    with op.batch_alter_table("tracks") as batch:
        batch.drop_column("deadline_reminded_for")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("notifications_off")
        batch.drop_column("email_verified_at")
