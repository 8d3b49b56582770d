"""Migration 0023 keys stored similarity matrices by system id: a matrix whose names each name
one system of the track is rewritten, any other is dropped (the organisers compute it again),
and the downgrade writes the names back."""

from __future__ import annotations

from alembic import command
from sqlalchemy import create_engine, text

from app.data.migrate import alembic_config, upgrade

BY_NAME = (
    '{"rows": ["test set all", "test set rand", "marlin", "quokka"], "tested": ["marlin", '
    '"quokka"], "values": [[0.6, 0.2], [0.5, 0.1], [null, 0.3], [0.3, null]], '
    '"signature": "s", "means": {"marlin": 0.3, "quokka": 0.3}}'
)


def _matrix(settings, sql: str | None = None):
    engine = create_engine(settings.database_url)
    with engine.begin() as connection:
        if sql:
            connection.execute(text(sql))
        found = connection.execute(text("SELECT similarity FROM test_sets WHERE id = 1")).scalar()
    engine.dispose()
    return found


def _ids(settings) -> dict[str, int]:
    engine = create_engine(settings.database_url)
    with engine.connect() as connection:
        found = dict(connection.execute(text("SELECT name, id FROM systems")).all())
    engine.dispose()
    return found


def _downgraded_with(settings, matrix: str) -> None:
    command.downgrade(alembic_config(settings.database_url), "0022_i44_human")
    _matrix(settings, f"UPDATE test_sets SET similarity = '{matrix}' WHERE id = 1")
    upgrade(settings.database_url)


def _loaded(value):
    import json

    return json.loads(value) if isinstance(value, str) else value


def test_a_matrix_by_name_is_rewritten_by_id_and_back(settings, two_teams):
    ids = _ids(settings)
    _downgraded_with(settings, BY_NAME)
    upgraded = _loaded(_matrix(settings))
    marlin, quokka = ids["marlin"], ids["quokka"]
    assert upgraded["tested"] == [marlin, quokka]
    assert upgraded["rows"] == ["test set all", "test set rand", marlin, quokka]
    assert upgraded["means"] == {str(marlin): 0.3, str(quokka): 0.3}
    command.downgrade(alembic_config(settings.database_url), "0022_i44_human")
    assert _loaded(_matrix(settings)) == _loaded(BY_NAME)
    upgrade(settings.database_url)


def test_a_matrix_naming_no_single_system_is_dropped(settings, two_teams):
    _matrix(settings, "UPDATE systems SET name = 'marlin' WHERE name = 'quokka'")
    _downgraded_with(settings, BY_NAME)
    assert _loaded(_matrix(settings)) is None
