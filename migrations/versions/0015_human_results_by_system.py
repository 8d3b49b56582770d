"""Human judgements keyed by system id: ``judgements.system_id`` and ``is_reference``,
``unit_entries.is_reference``; a team system named "HUMAN" is no longer the references.

Existing rows: a judgement made on the board takes its unit entry's system; an imported one
takes the system of its track with exactly its name (what its table showed until now), else
none. Results computed before this revision name systems only; they are shown again once the
organisers compute them anew.

Revision ID: 0015_human_results_by_system
Revises: 0014_bundled_baseline_names
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_human_results_by_system"
down_revision = "0014_bundled_baseline_names"
branch_labels = None
depends_on = None

OLD_UNIQUE = ("campaign_id", "unit_key", "system_name", "annotator", "criterion")
NEW_UNIQUE = ("campaign_id", "unit_key", "system_name", "is_reference", "annotator", "criterion")


def upgrade() -> None:
    # ALTER TABLE, never a copy of unit_entries: dropping the old copy would delete every
    # judgement through their ON DELETE CASCADE (foreign keys are enforced on SQLite here).
    # judgements is copied (its unique constraint changes); no table refers to it.
    with op.batch_alter_table("unit_entries", recreate="never") as batch:
        batch.add_column(
            sa.Column("is_reference", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("judgements") as batch:
        batch.add_column(sa.Column("system_id", sa.Integer(), nullable=True))
        batch.add_column(
            sa.Column("is_reference", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.create_foreign_key(
            "fk_judgements_system_id_systems", "systems", ["system_id"], ["id"], ondelete="SET NULL"
        )
        batch.drop_constraint("uq_judgements_campaign_id", type_="unique")
        batch.create_unique_constraint("uq_judgements_campaign_id", list(NEW_UNIQUE))
    _backfill()


def _backfill() -> None:
    entries = sa.table(
        "unit_entries",
        sa.column("id", sa.Integer),
        sa.column("system_id", sa.Integer),
        sa.column("system_name", sa.String),
        sa.column("is_reference", sa.Boolean),
    )
    judgements = sa.table(
        "judgements",
        sa.column("campaign_id", sa.Integer),
        sa.column("entry_id", sa.Integer),
        sa.column("system_name", sa.String),
        sa.column("system_id", sa.Integer),
        sa.column("is_reference", sa.Boolean),
    )
    campaigns = sa.table(
        "campaigns", sa.column("id", sa.Integer), sa.column("track_id", sa.Integer)
    )
    systems = sa.table(
        "systems", sa.column("id", sa.Integer), sa.column("track_id", sa.Integer),
        sa.column("name", sa.String),
    )  # fmt: skip
    op.execute(
        entries.update()
        .where(entries.c.system_id.is_(None), entries.c.system_name == "HUMAN")
        .values(is_reference=True)
    )
    op.execute(
        judgements.update()
        .where(judgements.c.entry_id.is_not(None))
        .values(
            system_id=sa.select(entries.c.system_id)
            .where(entries.c.id == judgements.c.entry_id)
            .scalar_subquery(),
            is_reference=sa.select(entries.c.is_reference)
            .where(entries.c.id == judgements.c.entry_id)
            .scalar_subquery(),
        )
    )
    same_name = (
        sa.select(systems.c.id)
        .join(campaigns, campaigns.c.track_id == systems.c.track_id)
        .where(
            campaigns.c.id == judgements.c.campaign_id,
            systems.c.name == judgements.c.system_name,
        )
        .scalar_subquery()
    )
    op.execute(
        judgements.update().where(judgements.c.entry_id.is_(None)).values(system_id=same_name)
    )


def downgrade() -> None:
    with op.batch_alter_table("judgements") as batch:
        batch.drop_constraint("uq_judgements_campaign_id", type_="unique")
        batch.create_unique_constraint("uq_judgements_campaign_id", list(OLD_UNIQUE))
        batch.drop_constraint("fk_judgements_system_id_systems", type_="foreignkey")
        batch.drop_column("is_reference")
        batch.drop_column("system_id")
    with op.batch_alter_table("unit_entries", recreate="never") as batch:  # as in upgrade()
        batch.drop_column("is_reference")
