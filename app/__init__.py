"""The NLG shared-task board web app."""

from __future__ import annotations

import os
import secrets
import threading
from pathlib import Path
from typing import Any

from flask import Flask

from app import security
from app.extensions import close_db, csrf, login_manager
from worker.queues import EmbeddedQueue, make_queue
from worker.recovery import start_recovery_loop
from worker.runner import warm_up_scorers
from worker.settings import Settings

UPLOAD_MAX_BYTES = 10 * 1024 * 1024
"""Largest accepted output file; the E2E test set's outputs are about 80 kB."""


def create_app(settings: Settings | None = None, config: dict[str, Any] | None = None) -> Flask:
    """Build the app from the environment, or from ``settings``/``config`` in tests."""
    settings = settings or Settings.from_env()
    app = Flask(__name__, instance_path=str(settings.instance_path))
    settings.instance_path.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SECRET_KEY=os.environ.get("SECRET_KEY") or _instance_secret(settings.instance_path),
        UPLOAD_MAX_BYTES=UPLOAD_MAX_BYTES,
        MAX_CONTENT_LENGTH=UPLOAD_MAX_BYTES + 1024 * 1024,
    )
    security.install(app)
    app.config.update(config or {})
    app.extensions["nlgboard.settings"] = settings
    app.extensions["nlgboard.queue"] = make_queue(settings)

    login_manager.init_app(app)
    csrf.init_app(app)
    app.teardown_appcontext(close_db)

    from app import auth, challenges, errors, exports, health, human, organise, submissions, teams
    from app.api import v1
    from app.cli import register_commands

    for blueprint in (
        health.bp,
        auth.bp,
        teams.bp,
        challenges.bp,
        submissions.bp,
        human.bp,
        organise.bp,
        exports.bp,
        v1.bp,
    ):
        app.register_blueprint(blueprint)
    csrf.exempt(v1.bp)
    errors.register(app)
    register_commands(app)
    return app


def start_embedded_worker(app: Flask) -> None:
    """Start the in-process worker thread and its recovery loop (embedded default only)."""
    queue = app.extensions["nlgboard.queue"]
    if isinstance(queue, EmbeddedQueue):
        threading.Thread(target=warm_up_scorers, daemon=True, name="warm-up").start()
        queue.start()
        start_recovery_loop(app.extensions["nlgboard.settings"], queue)


def _instance_secret(instance_path: Path) -> str:
    """A per-instance secret, so that sessions survive restarts of the embedded default."""
    path = instance_path / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()
