"""The NLG shared-task board web app.

The factory imports Flask and the blueprints when it runs, not with the package: the worker and
the ``nlgboard`` commands import ``app.data.models`` or ``app.entry.cli`` without loading the web layer.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.data.config import Settings

if TYPE_CHECKING:
    from flask import Flask

    from app.data.models import Track
    from app.data.queue import SubmissionQueue

UPLOAD_MAX_BYTES = 10 * 1024 * 1024
"""Largest accepted output file; the E2E test set's outputs are about 80 kB."""


def create_app(
    settings: Settings | None = None,
    config: dict[str, Any] | None = None,
    queue: SubmissionQueue | None = None,
    pages: bool = True,
) -> Flask:
    """The one app factory: built from the environment, or from ``settings``/``config`` (tests
    pass theirs).

    Without ``queue``, jobs go to RQ on ``REDIS_URL``; the embedded default's in-process queue
    runs the worker's code, so the composition root builds it and the caller passes it
    (``queue=app.entry.root.submission_queue(settings)``: the CLI, the WSGI module, the tests).
    Without ``pages`` the app has no blueprints: enough for commands that only need its
    configuration and database, which then start in a fraction of a second.
    """
    from flask import Flask

    from app.data.queue import RedisQueue
    from app.web import security
    from app.web.extensions import close_db, csrf, login_manager
    from app.web.public_cache import PublicPages

    settings = settings or Settings.from_env()
    if queue is None:
        if not settings.redis_url:
            raise RuntimeError(
                "no REDIS_URL: pass the in-process queue, app.entry.root.submission_queue()"
            )
        queue = RedisQueue(settings.redis_url)
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
    app.extensions["nlgboard.queue"] = queue

    _guard_outputs(app)
    login_manager.init_app(app)
    csrf.init_app(app)
    app.teardown_appcontext(close_db)
    if pages:
        _register_pages(app, csrf)
        app.wsgi_app = PublicPages(app, app.wsgi_app, settings.database_url)  # type: ignore[method-assign]
    return app


def _register_pages(app: Flask, csrf: Any) -> None:
    from app.web import (
        account,
        admin_setup,
        auth,
        challenges,
        errors,
        exports,
        health,
        human,
        organise,
        submissions,
        teams,
    )
    from app.web.api import v1
    from app.web.services.markdown import markdown_html, markdown_text

    for blueprint in (
        health.bp,
        auth.bp,
        account.bp,
        teams.bp,
        challenges.bp,
        submissions.bp,
        human.bp,
        organise.bp,
        exports.bp,
        v1.bp,
        admin_setup.bp,
    ):
        app.register_blueprint(blueprint)
    csrf.exempt(v1.bp)
    errors.register(app)
    app.add_template_filter(markdown_html, "markdown")
    app.add_template_filter(markdown_text, "markdown_text")
    app.add_template_filter(p_value_text, "p_value")
    app.add_template_filter(score_text, "score")
    app.add_url_rule("/favicon.ico", "favicon", _favicon)


def _guard_outputs(app: Flask) -> None:
    """The ways values leave the board as pages and JSON refuse a figure still sealed by the
    disclosure rule (``app.data.disclosure.Hidden``): a view that forgot ``Viewer.disclose``
    fails instead of printing it. (CSV cells, LaTeX and plots format numbers, which a sealed
    figure refuses by itself.)"""
    from flask.json.provider import DefaultJSONProvider

    from app.data.disclosure import refuse_hidden

    class GuardedJSON(DefaultJSONProvider):
        @staticmethod
        def default(o: Any) -> Any:
            return DefaultJSONProvider.default(refuse_hidden(o))

    app.json = GuardedJSON(app)
    app.jinja_env.finalize = refuse_hidden


def p_value_text(p_value: float) -> str:
    """A bootstrap p-value as ``nlg-score --compare`` prints it, in a column headed "p":
    ``0.2547``, or ``< 0.001`` where the resampling cannot tell it any smaller."""
    from scorer.compare.significance import printed_p

    text = printed_p(p_value)
    return text.removeprefix("p=") if text.startswith("p=") else text[1:].replace("<", "< ", 1)


def score_text(value: float, track: Track, column: str, signed: bool = False) -> str:
    """A score as the track's kind prints it (decimals, scale), on every page alike:
    ``{{ value|score(track, column) }}``."""
    return track.scoring_profile.printed(column, value, signed=signed)


def _favicon() -> Any:
    """Browsers and crawlers ask for /favicon.ico whatever the pages say."""
    from flask import redirect, url_for

    return redirect(url_for("static", filename="favicon.svg"), 301)


def _instance_secret(instance_path: Path) -> str:
    """A per-instance secret, so that sessions survive restarts of the embedded default."""
    path = instance_path / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()
