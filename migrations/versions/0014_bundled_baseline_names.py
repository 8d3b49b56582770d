"""The bundled E2E baseline is our retrained TGen-style model, not the TGen run of the E2E
paper's Table 8: its systems are renamed "TGen-style (retrained here)" and, like the DRS
bi-LSTM's, get a description saying what they are (shown on the system page and in exports).

Revision ID: 0014_bundled_baseline_names
Revises: 0013_system_names_per_team
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_bundled_baseline_names"
down_revision = "0013_system_names_per_team"
branch_labels = None
depends_on = None

OLD_TGEN, NEW_TGEN = "TGen (bundled baseline)", "TGen-style (retrained here)"
BILSTM = "char bi-LSTM (bundled baseline)"
NOTES = {
    NEW_TGEN: (
        "Retrained by this board (nlgboard baselines train tgen): a TGen-style seq2seq with "
        "attention, beam search and a slot reranker. It is not the TGen run of the E2E paper's "
        "Table 8: its scores are this retrained model's own."
    ),
    BILSTM: (
        "Trained by this board (nlgboard baselines train bilstm): a character-level bi-LSTM "
        "sequence-to-sequence model, not a run published with a paper."
    ),
}
"""As ``baselines.registry`` words them on the day of this migration."""

systems = sa.table(
    "systems",
    sa.column("id", sa.Integer),
    sa.column("track_id", sa.Integer),
    sa.column("team_id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("description", sa.Text),
    sa.column("is_baseline", sa.Boolean),
)
BUNDLED = sa.and_(systems.c.is_baseline.is_(True), systems.c.team_id.is_(None))


def _rename(old: str, new: str) -> None:
    """Rename the baseline systems called ``old`` where the track has no ``new`` yet."""
    connection = op.get_bind()
    taken = {
        track_id
        for (track_id,) in connection.execute(
            sa.select(systems.c.track_id).where(systems.c.name == new)
        )
    }
    for system_id, track_id in connection.execute(
        sa.select(systems.c.id, systems.c.track_id).where(BUNDLED, systems.c.name == old)
    ).all():
        if track_id not in taken:
            connection.execute(systems.update().where(systems.c.id == system_id).values(name=new))


def upgrade() -> None:
    _rename(OLD_TGEN, NEW_TGEN)
    for name, note in NOTES.items():
        op.get_bind().execute(
            systems.update()
            .where(
                BUNDLED,
                systems.c.name == name,
                sa.or_(systems.c.description.is_(None), systems.c.description == ""),
            )
            .values(description=note)
        )


def downgrade() -> None:
    for name, note in NOTES.items():
        op.get_bind().execute(
            systems.update()
            .where(BUNDLED, systems.c.name == name, systems.c.description == note)
            .values(description="")
        )
    _rename(NEW_TGEN, OLD_TGEN)
