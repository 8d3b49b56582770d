"""Fixtures: an app on a fresh migrated SQLite database, its test client and CLI runner."""

from __future__ import annotations

import atexit
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing
from functools import partial
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner
from werkzeug.security import generate_password_hash

from app.data.config import Settings, default_database_url
from app.data.db import session_scope
from app.data.migrate import upgrade
from app.data.models import accounts
from app.entry import root
from app.entry.cli import cli as board_cli
from app.web import create_app

os.environ.setdefault("NLGBOARD_METEOR_JVMS", "1")  # one 2 GB JVM per test process, not two
# D-level parsing at normal priority (scorer.describe.dlevel.describing_niceness): make test keeps
# both cores busy with its own test processes, beside which the board's lowest priority starved
# the describing jobs that tests wait for (minutes for one E2E dev set's D-levels).
os.environ.setdefault("NLGBOARD_DESCRIBING_NICENESS", "0")

# Passwords hashed with one PBKDF2 round instead of scrypt (0.13 s a hash, some 400 in the
# suite), as Django's test settings do; the login rules under test do not depend on the cost.
accounts.generate_password_hash = partial(generate_password_hash, method="pbkdf2:sha256:1")


def make_settings(instance: Path, **overrides) -> Settings:
    values = {"instance_path": instance, "database_url": default_database_url(instance)}
    values.update(overrides)
    return Settings(**values)


class BoardCliRunner(FlaskCliRunner):
    """``app.test_cli_runner()`` running the ``nlgboard`` group (its commands load lazily)."""

    def invoke(self, cli=None, args=None, **kwargs):
        return super().invoke(cli or board_cli, args, **kwargs)


_TEMPLATE: list[Path] = []


def migrated_database(settings: Settings) -> None:
    """Bring the test's database to the newest migration, as production does.

    A fresh SQLite file in the instance folder is a copy of one database migrated once per test
    process (migrating takes ~0.16 s, copying ~1 ms; tests/app/data/test_migrations.py runs the
    migrations themselves); any other database is migrated."""
    path = settings.instance_path / "nlgboard.sqlite3"
    if settings.database_url != default_database_url(settings.instance_path) or path.exists():
        upgrade(settings.database_url)
        return
    if not _TEMPLATE:
        folder = Path(tempfile.mkdtemp(prefix="nlgboard-template-"))
        atexit.register(shutil.rmtree, folder, True)
        upgrade(default_database_url(folder))
        _TEMPLATE.append(folder / "nlgboard.sqlite3")
    settings.instance_path.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(_TEMPLATE[0])) as source, closing(sqlite3.connect(path)) as copy:
        source.backup(copy)  # WAL pages included, unlike a file copy


def make_app(settings: Settings, **config) -> Flask:
    """Build the app on a migrated database."""
    migrated_database(settings)
    config = {"TESTING": True, "SECRET_KEY": "test", "PUBLIC_CACHE_SECONDS": 0, **config}
    app = create_app(settings, config, queue=root.submission_queue(settings))
    app.test_cli_runner_class = BoardCliRunner
    return app


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
