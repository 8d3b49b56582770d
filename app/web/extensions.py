"""Per-app singletons: login manager, CSRF protection, the request's database session, the queue."""

from __future__ import annotations

from flask import current_app, g
from flask_login import LoginManager
from flask_wtf import CSRFProtect
from sqlalchemy.orm import Session

from app.data.config import Settings
from app.data.db import session_factory
from app.data.queue import SubmissionQueue
from app.data.storage import Storage, storage_for
from app.web.services.file_cache import FileCache

login_manager = LoginManager()
login_manager.login_view = "auth.login"
login_manager.login_message_category = "info"
csrf = CSRFProtect()


def settings() -> Settings:
    return current_app.extensions["nlgboard.settings"]


def db() -> Session:
    """The request's session, closed when the request ends."""
    if "db_session" not in g:
        g.db_session = session_factory(settings().database_url)()
    return g.db_session


def close_db(_exc: BaseException | None = None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()


def submission_queue() -> SubmissionQueue:
    return current_app.extensions["nlgboard.queue"]


def storage() -> Storage:
    return storage_for(settings())


def file_cache() -> FileCache:
    """Plots and significance groups, under the instance folder's ``cache``."""
    return FileCache(settings().instance_path / "cache")
