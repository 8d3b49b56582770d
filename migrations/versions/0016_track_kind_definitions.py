"""``tracks.kind_definition``: the definition of a track kind an organiser gave in a bundle
(registry parts: reader, normalisation, metrics with options...), kept with the track so that
every process (web, workers) builds the same scoring profile from it.

Revision ID: 0016_track_kind_definitions
Revises: 0015_human_results_by_system
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_track_kind_definitions"
down_revision = "0015_human_results_by_system"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tracks", sa.Column("kind_definition", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tracks") as batch:
        batch.drop_column("kind_definition")
