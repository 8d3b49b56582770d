"""A test set's stored similarity matrix is keyed by system id, not by system name: a name says
nothing about whose system it is (two teams may both call theirs "primary"), and a team that
named a new system like another team's got that team's column. Matrices whose names each match
exactly one system of the track are rewritten with ids; any other is dropped, saying which
(the organisers run ``nlgboard track similarity`` again). The downgrade writes names back.

Revision ID: 0023_i47_sealed
Revises: 0022_i44_human
"""

from __future__ import annotations

import json
import logging

import sqlalchemy as sa
from alembic import op

revision = "0023_i47_sealed"
down_revision = "0022_i44_human"
branch_labels = None
depends_on = None

REFERENCE_ROWS = ("test set all", "test set rand")
log = logging.getLogger("alembic.runtime.migration")


def _matrices(bind: sa.Connection) -> list[tuple[int, int, dict]]:
    rows = bind.execute(
        sa.text("SELECT id, track_id, similarity FROM test_sets WHERE similarity IS NOT NULL")
    ).all()
    loaded = [
        (test_set_id, track_id, json.loads(found) if isinstance(found, str) else found)
        for test_set_id, track_id, found in rows
    ]
    return [(test_set_id, track_id, m) for test_set_id, track_id, m in loaded if m is not None]


def _write(bind: sa.Connection, test_set_id: int, matrix: dict | None) -> None:
    statement = sa.text("UPDATE test_sets SET similarity = :matrix WHERE id = :id").bindparams(
        sa.bindparam("matrix", type_=sa.JSON(none_as_null=True))
    )
    bind.execute(statement, {"matrix": matrix, "id": test_set_id})


def _rekeyed(matrix: dict, key: dict) -> dict:
    def name(row: object) -> object:
        return row if row in REFERENCE_ROWS else key[row]

    return {
        **matrix,
        "rows": [name(row) for row in matrix["rows"]],
        "tested": [key[system] for system in matrix["tested"]],
        "means": {str(key[system]): v for system, v in (matrix.get("means") or {}).items()},
    }


def upgrade() -> None:
    bind = op.get_bind()
    for test_set_id, track_id, matrix in _matrices(bind):
        systems = bind.execute(
            sa.text("SELECT id, name FROM systems WHERE track_id = :track"), {"track": track_id}
        ).all()
        ids: dict[str, list[int]] = {}
        for system_id, system_name in systems:
            ids.setdefault(system_name, []).append(system_id)
        unclear = [name for name in matrix["tested"] if len(ids.get(name, [])) != 1]
        if unclear:
            log.warning(
                "test set %s: similarity matrix dropped, %s name no single system of the "
                "track; run nlgboard track similarity again",
                test_set_id,
                ", ".join(map(repr, unclear)),
            )
            _write(bind, test_set_id, None)
            continue
        _write(bind, test_set_id, _rekeyed(matrix, {name: ids[name][0] for name in ids}))


def downgrade() -> None:
    bind = op.get_bind()
    for test_set_id, track_id, matrix in _matrices(bind):
        names = dict(
            bind.execute(
                sa.text("SELECT id, name FROM systems WHERE track_id = :track"),
                {"track": track_id},
            ).all()
        )
        if any(system not in names for system in matrix["tested"]):
            _write(bind, test_set_id, None)
            continue
        key = {system: names[system] for system in matrix["tested"]}
        matrix["means"] = {int(k): v for k, v in (matrix.get("means") or {}).items()}
        _write(bind, test_set_id, _rekeyed(matrix, key))
