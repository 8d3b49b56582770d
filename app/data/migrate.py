"""Schema upgrades through Alembic: the only way the schema changes, on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import migrations

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS_DIR = Path(migrations.__file__).parent


def alembic_config(database_url: str) -> Config:
    """Alembic loads here, when a command needs it, not with every app."""
    from alembic.config import Config

    config = Config(str(MIGRATIONS_DIR / "alembic.ini"))
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    from alembic import command

    command.upgrade(alembic_config(database_url), revision)
