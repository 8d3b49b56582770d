"""Configuration from the environment, shared by the web app, the CLI and every worker.

Only environment variables configure a deployment (ARCHITECTURE.md): ``DATABASE_URL`` (default: SQLite
in the instance folder), ``REDIS_URL`` (unset: embedded in-process worker), ``NLGBOARD_INSTANCE``
(uploads, SQLite file, caches), ``NLGBOARD_STORAGE`` (where uploads live) and ``SECRET_KEY``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_INSTANCE = Path.cwd() / "instance"

HEARTBEAT_STALE_SECONDS = 120
"""A running submission whose heartbeat is older than this is taken to be abandoned."""

RECOVERY_INTERVAL_SECONDS = 60
"""How often each worker (and the embedded default) runs the recovery pass."""

QUEUED_GRACE_SECONDS = 30
"""A queued submission younger than this is left alone: its web request may still be enqueuing."""


@dataclass(frozen=True)
class Settings:
    instance_path: Path
    database_url: str
    redis_url: str | None = None
    heartbeat_stale_seconds: float = HEARTBEAT_STALE_SECONDS
    recovery_interval_seconds: float = RECOVERY_INTERVAL_SECONDS
    queued_grace_seconds: float = QUEUED_GRACE_SECONDS
    storage_url: str | None = None
    """``NLGBOARD_STORAGE``: unset/``local`` (instance/uploads), a path, or ``s3://bucket/prefix``."""
    s3_endpoint_url: str | None = None
    """``NLGBOARD_S3_ENDPOINT_URL``: an S3-compatible store other than AWS (MinIO, Ceph...)."""

    @property
    def uploads_path(self) -> Path:
        return self.instance_path / "uploads"

    @property
    def heartbeat_interval_seconds(self) -> float:
        return max(0.5, self.heartbeat_stale_seconds / 4)

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        instance = Path(env.get("NLGBOARD_INSTANCE") or DEFAULT_INSTANCE).resolve()
        return cls(
            instance_path=instance,
            database_url=env.get("DATABASE_URL") or default_database_url(instance),
            redis_url=env.get("REDIS_URL") or None,
            heartbeat_stale_seconds=float(
                env.get("NLGBOARD_HEARTBEAT_STALE_SECONDS", HEARTBEAT_STALE_SECONDS)
            ),
            recovery_interval_seconds=float(
                env.get("NLGBOARD_RECOVERY_INTERVAL_SECONDS", RECOVERY_INTERVAL_SECONDS)
            ),
            queued_grace_seconds=float(
                env.get("NLGBOARD_QUEUED_GRACE_SECONDS", QUEUED_GRACE_SECONDS)
            ),
            storage_url=env.get("NLGBOARD_STORAGE") or None,
            s3_endpoint_url=env.get("NLGBOARD_S3_ENDPOINT_URL") or None,
        )


def default_database_url(instance: Path) -> str:
    return f"sqlite:///{instance / 'nlgboard.sqlite3'}"
