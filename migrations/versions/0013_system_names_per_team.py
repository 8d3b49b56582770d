"""System names are unique per team in a track (and among the team-less baselines), no longer
per track: refusing a name another team uses told that it was used (issue 34), by an
anonymised system or before publication.

Revision ID: 0013_system_names_per_team
Revises: 0012_login_device
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_system_names_per_team"
down_revision = "0012_login_device"
branch_labels = None
depends_on = None

TEAMLESS = sa.text("team_id IS NULL")


def upgrade() -> None:
    with op.batch_alter_table("systems") as batch:
        batch.drop_constraint("uq_systems_track_id", type_="unique")
        batch.create_unique_constraint(
            "uq_systems_track_team_name", ["track_id", "team_id", "name"]
        )
    op.create_index(
        "uq_systems_track_teamless_name",
        "systems",
        ["track_id", "name"],
        unique=True,
        sqlite_where=TEAMLESS,
        postgresql_where=TEAMLESS,
    )


def downgrade() -> None:
    """Fails if two teams now share a system name in one track (as it must: they would clash)."""
    op.drop_index("uq_systems_track_teamless_name", "systems")
    with op.batch_alter_table("systems") as batch:
        batch.drop_constraint("uq_systems_track_team_name", type_="unique")
        batch.create_unique_constraint("uq_systems_track_id", ["track_id", "name"])
