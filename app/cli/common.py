"""What every command module shares: the app's settings and one way to fail."""

from __future__ import annotations

from typing import NoReturn

import click
from flask import Flask, current_app

from app.config import Settings
from app.queue import SubmissionQueue


def board_settings() -> Settings:
    settings: Settings = current_app.extensions["nlgboard.settings"]
    return settings


def fail(error: Exception) -> NoReturn:
    raise click.ClickException(str(error))


def score_if_embedded(queue: SubmissionQueue, settings: Settings, ids: list[int]) -> list[str]:
    """On the embedded default nobody else will score them: do it here; else say queued."""
    from app.root import is_embedded, score_now

    return score_now(settings, ids) if is_embedded(queue) else ["queued"] * len(ids)


def this_app() -> Flask:
    """The app itself, not its context-local proxy (to serve it, or hand it to the seeding)."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    return app
