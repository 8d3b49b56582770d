"""Challenges: ``nlgboard challenge``."""

from __future__ import annotations

import click
from flask.cli import AppGroup

from app.cli.common import board_settings, fail
from app.db import session_scope
from app.services import DomainError
from app.services.tracks import (
    create_challenge,
)


@click.group(cls=AppGroup)
def challenge() -> None:
    """Challenges."""


@challenge.command("create")
@click.argument("slug")
@click.option("--title", required=True)
@click.option("--description", default="")
def challenge_create(slug: str, title: str, description: str) -> None:
    """Create a challenge."""
    try:
        with session_scope(board_settings().database_url) as session:
            create_challenge(session, slug, title, description)
    except DomainError as error:
        fail(error)
    click.echo(f"challenge {slug} created")
