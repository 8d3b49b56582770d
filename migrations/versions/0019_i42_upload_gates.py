"""Who may upload (issue 42, "Accounts"): ``tracks.confirmed_only_in_test`` (in the test phase
only accounts with a confirmed e-mail address upload; on for every track, those that exist
included), ``challenges.teams_need_approval`` (off) and ``team_approvals``, the teams an
organiser let upload to such a challenge.

Revision ID: 0019_i42_upload_gates
Revises: 0018_item_attributes
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_i42_upload_gates"
down_revision = "0018_item_attributes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "tracks",
        sa.Column("confirmed_only_in_test", sa.Boolean(), nullable=False, server_default=sa.true()),
    )
    op.add_column(
        "challenges",
        sa.Column("teams_need_approval", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "team_approvals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("challenge_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("approved_by_id", sa.Integer(), nullable=True),
        sa.Column("approved_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["challenge_id"],
            ["challenges.id"],
            name=op.f("fk_team_approvals_challenge_id_challenges"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["team_id"],
            ["teams.id"],
            name=op.f("fk_team_approvals_team_id_teams"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["approved_by_id"],
            ["users.id"],
            name=op.f("fk_team_approvals_approved_by_id_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_team_approvals")),
        sa.UniqueConstraint("challenge_id", "team_id", name=op.f("uq_team_approvals_challenge_id")),
    )


def downgrade() -> None:
    op.drop_table("team_approvals")
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("teams_need_approval")
    with op.batch_alter_table("tracks") as batch:
        batch.drop_column("confirmed_only_in_test")
