"""The schema comes from Alembic migrations, and they match the models exactly."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from app.db import get_engine
from app.migrate import upgrade
from app.models import Base


def test_migrations_create_exactly_the_models_schema(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    upgrade(url)
    with get_engine(url).connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        tables = set(inspect(connection).get_table_names())
    assert diff == []
    assert {
        "users",
        "teams",
        "challenges",
        "tracks",
        "test_sets",
        "items",
        "item_references",
        "systems",
        "submissions",
        "scores",
        "outputs",
        "alembic_version",
    } <= tables
