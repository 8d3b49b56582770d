"""One kind column: a track's scoring profile is derived from its ``kind`` and the definition
stored with it (``Track.profile``, ``app.data.track_kinds.profile_name``), so the ``profile``
column that repeated them goes. Before it goes, every row is checked to say what the
derivation says; a row that does not stops the upgrade, naming the track.

Revision ID: 0021_i43_kind
Revises: 0020_account_requests
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0021_i43_kind"
down_revision = "0020_account_requests"
branch_labels = None
depends_on = None

BUILT_IN = {
    "e2e": "e2e",
    "sr-shallow": "sr18",
    "sr-deep": "sr18",
    "drs": "drs",
    "webnlg": "webnlg2017",
}
"""The built-in track kinds and their profiles when this revision was written."""


def upgrade() -> None:
    rows = op.get_bind().execute(
        sa.text("SELECT id, slug, kind, profile, kind_definition FROM tracks")
    )
    for track_id, slug, kind, profile, definition in rows:
        expected = BUILT_IN.get(kind) if definition is None else None
        if definition is None and profile != expected:
            raise RuntimeError(
                f"track {track_id} ({slug}): kind {kind!r} stores profile {profile!r}, "
                f"not {expected!r}; set its profile column right, then upgrade again"
            )
    with op.batch_alter_table("tracks") as batch:
        batch.drop_column("profile")


def downgrade() -> None:
    with op.batch_alter_table("tracks") as batch:
        batch.add_column(sa.Column("profile", sa.String(32), nullable=False, server_default=""))
    from app.data.track_kinds import profile_name

    bind = op.get_bind()
    for track_id, kind, definition in bind.execute(
        sa.text("SELECT id, kind, kind_definition FROM tracks")
    ).all():
        if isinstance(definition, str):
            definition = json.loads(definition)
        bind.execute(
            sa.text("UPDATE tracks SET profile = :profile WHERE id = :id"),
            {"profile": profile_name(kind, definition), "id": track_id},
        )
