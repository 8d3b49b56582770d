"""Fixtures: an app on a fresh migrated SQLite database, its test client and CLI runner."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from app import create_app
from app.db import session_scope
from app.migrate import upgrade
from worker.settings import Settings, default_database_url


def make_settings(instance: Path, **overrides) -> Settings:
    values = {"instance_path": instance, "database_url": default_database_url(instance)}
    values.update(overrides)
    return Settings(**values)


def make_app(settings: Settings, **config) -> Flask:
    """Build the app and bring its database to the newest migration, as production does."""
    upgrade(settings.database_url)
    config = {"TESTING": True, "SECRET_KEY": "test", "PUBLIC_CACHE_SECONDS": 0, **config}
    return create_app(settings, config)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path / "instance")


@pytest.fixture
def app(settings: Settings) -> Flask:
    return make_app(settings, WTF_CSRF_ENABLED=False)


@pytest.fixture
def client(app: Flask):
    return app.test_client()


@pytest.fixture
def runner(app: Flask):
    return app.test_cli_runner()


@pytest.fixture
def session(settings: Settings, app: Flask) -> Iterator:
    with session_scope(settings.database_url) as db_session:
        yield db_session


@pytest.fixture
def no_bundled_runs(tmp_path: Path, monkeypatch) -> None:
    """Imports of the shared dev sets would add the committed baseline runs
    (baselines/runs/manifest.json); tests about something else leave them out."""
    from baselines import manifest

    monkeypatch.setattr(manifest, "MANIFEST", tmp_path / "no-bundled-runs.json")
