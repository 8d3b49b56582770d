"""Baseline runs from files: ``nlgboard baseline``."""

from __future__ import annotations

from pathlib import Path

import click
from flask import current_app
from flask.cli import AppGroup

from app.data.db import session_scope
from app.data.storage import storage_for
from app.entry.cli.common import board_settings, fail, score_if_embedded
from app.web.services.organising import upload_baseline
from app.web.services.tracks import (
    get_track,
)
from scorer.errors import Refused


@click.group(cls=AppGroup)
def baseline() -> None:
    """Baseline runs shown beside every leaderboard."""


@baseline.command("add")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.argument("file", type=click.Path(exists=True, path_type=Path))
@click.option("--name", required=True)
@click.option("--language", default=None, help="Test set of a multilingual track (or use a zip).")
def baseline_add(
    challenge_slug: str, track_slug: str, file: Path, name: str, language: str | None
) -> None:
    """Register FILE (a zip for several languages) as a baseline run of a track and score it."""
    settings = board_settings()
    queue = current_app.extensions["nlgboard.queue"]
    try:
        with session_scope(settings.database_url) as session:
            found = get_track(session, challenge_slug, track_slug)
            submissions = upload_baseline(
                session,
                queue,
                storage_for(settings),
                None,
                found,
                name=name,
                filename=file.name,
                data=file.read_bytes(),
                max_bytes=current_app.config["UPLOAD_MAX_BYTES"],
                language=language,
            )
            submission_ids = [(s.id, s.language) for s in submissions]
    except Refused as error:
        fail(error)
    for (submission_id, test_language), outcome in zip(
        submission_ids,
        score_if_embedded(queue, settings, [i for i, _ in submission_ids]),
        strict=True,
    ):
        click.echo(f"baseline {name}: submission {submission_id} ({test_language}) {outcome}")
