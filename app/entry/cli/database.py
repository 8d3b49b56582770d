"""Database schema: ``nlgboard db``."""

from __future__ import annotations

import click
from flask.cli import AppGroup

from app.data.migrate import upgrade
from app.entry.cli.common import board_settings


@click.group(cls=AppGroup)
def db() -> None:
    """Database schema."""


@db.command("upgrade")
def db_upgrade() -> None:
    """Apply every Alembic migration up to the newest."""
    upgrade(board_settings().database_url)
    click.echo("database is at the newest schema")
