"""Configuration from the environment, shared by the web app, the CLI and every worker.

Only environment variables configure a deployment (ARCHITECTURE.md): ``DATABASE_URL`` (default: SQLite
in the instance folder), ``REDIS_URL`` (unset: embedded in-process worker), ``NLGBOARD_INSTANCE``
(uploads, SQLite file, caches), ``NLGBOARD_STORAGE`` (where uploads live) and ``SECRET_KEY``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

DEFAULT_INSTANCE = Path.cwd() / "instance"

HEARTBEAT_STALE_SECONDS = 120
"""A running submission whose heartbeat is older than this is taken to be abandoned."""

RECOVERY_INTERVAL_SECONDS = 60
"""How often each worker (and the embedded default) runs the recovery pass."""

QUEUED_GRACE_SECONDS = 30
"""A queued submission younger than this is left alone: its web request may still be enqueuing."""

BUNDLE_MAX_BYTES = 200 * 1024 * 1024
"""``NLGBOARD_BUNDLE_MAX_BYTES``: what a challenge bundle may unpack to in the process that
imports it (the web's, on /organise): its files are held in memory while they are checked."""

REGISTRATIONS_PER_HOUR = 20
"""``NLGBOARD_REGISTRATIONS_PER_HOUR``: registrations one client address may send in an hour (a
class registering together behind one NAT fits; a script filling the table does not)."""

REGISTRATIONS_PER_MINUTE = 5
"""``NLGBOARD_REGISTRATIONS_PER_MINUTE``: registrations one client address may send in a minute,
a burst limit beside the hourly one. People behind one NAT register one after another, each
typing a form; a script sends the hour's share in seconds. (There is no limit per e-mail
domain: a university's domain is many real people.)"""

ACCOUNT_MAILS_PER_HOUR = 20
"""``NLGBOARD_ACCOUNT_MAILS_PER_HOUR``: password-reset and confirmation mails one client address
may ask for in an hour, whatever the addresses."""

ACCOUNT_MAILS_PER_ADDRESS = 5
"""``NLGBOARD_ACCOUNT_MAILS_PER_ADDRESS``: mails of registration, reset and confirmation one
e-mail address receives in an hour, whoever asks (a form cannot flood a mailbox)."""


@dataclass(frozen=True)
class AccountLimits:
    """How often the forms that send mail to an address may be used (per hour, and for
    registrations per minute too)."""

    registrations_per_hour: int = REGISTRATIONS_PER_HOUR
    registrations_per_minute: int = REGISTRATIONS_PER_MINUTE
    mails_per_hour: int = ACCOUNT_MAILS_PER_HOUR
    mails_per_address: int = ACCOUNT_MAILS_PER_ADDRESS

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> AccountLimits:
        return cls(
            registrations_per_hour=int(
                env.get("NLGBOARD_REGISTRATIONS_PER_HOUR") or REGISTRATIONS_PER_HOUR
            ),
            registrations_per_minute=int(
                env.get("NLGBOARD_REGISTRATIONS_PER_MINUTE") or REGISTRATIONS_PER_MINUTE
            ),
            mails_per_hour=int(
                env.get("NLGBOARD_ACCOUNT_MAILS_PER_HOUR") or ACCOUNT_MAILS_PER_HOUR
            ),
            mails_per_address=int(
                env.get("NLGBOARD_ACCOUNT_MAILS_PER_ADDRESS") or ACCOUNT_MAILS_PER_ADDRESS
            ),
        )


TLS_MODES = ("none", "starttls", "ssl")

DEFAULT_BASE_URL = "http://127.0.0.1:5000"
"""Where links in e-mails point when ``NLGBOARD_BASE_URL`` is unset (the embedded default)."""

DEFAULT_SENDER = "NLG shared-task board <nlgboard@localhost>"


@dataclass(frozen=True)
class MailSettings:
    """How e-mail leaves the board. No SMTP host: the embedded default, which writes every
    message to the instance folder's ``outbox`` and the log instead of sending it."""

    host: str | None = None
    port: int = 25
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    tls: str = "none"
    """``none``, ``starttls`` (upgrade a plain connection) or ``ssl`` (TLS from the start)."""
    sender: str = DEFAULT_SENDER
    base_url: str = DEFAULT_BASE_URL
    """The board's address as people reach it: mails written by a worker have no request."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> MailSettings:
        """``SMTP_URL`` (``smtp://user:password@host:port``, ``smtps://`` for TLS from the
        start) or ``SMTP_HOST``/``SMTP_PORT``/``SMTP_USER``/``SMTP_PASSWORD``; ``SMTP_TLS``
        overrides the TLS mode (default: ``ssl`` for smtps or port 465, ``starttls`` for port
        587, else ``none``)."""
        host, port, user, password, scheme = None, None, None, None, "smtp"
        if env.get("SMTP_URL"):
            parts = urlsplit(env["SMTP_URL"])
            if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
                raise ValueError(
                    f"SMTP_URL must look like smtp://user:password@host:port, "
                    f"got scheme {parts.scheme!r}"
                )
            scheme, host, port = parts.scheme, parts.hostname, parts.port
            user = unquote(parts.username) if parts.username else None
            password = unquote(parts.password) if parts.password else None
        host = env.get("SMTP_HOST") or host
        port = int(env.get("SMTP_PORT") or port or (465 if scheme == "smtps" else 25))
        default_tls = (
            "ssl" if scheme == "smtps" or port == 465 else "starttls" if port == 587 else "none"
        )
        tls = (env.get("SMTP_TLS") or default_tls).lower()
        if tls not in TLS_MODES:
            raise ValueError(f"SMTP_TLS must be one of {', '.join(TLS_MODES)}, got {tls!r}")
        return cls(
            host=host or None,
            port=port,
            user=env.get("SMTP_USER") or user,
            password=env.get("SMTP_PASSWORD") or password,
            tls=tls,
            sender=env.get("NLGBOARD_MAIL_FROM") or DEFAULT_SENDER,
            base_url=(env.get("NLGBOARD_BASE_URL") or DEFAULT_BASE_URL).rstrip("/"),
        )


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
    mail: MailSettings = MailSettings()
    bundle_max_bytes: int = BUNDLE_MAX_BYTES
    account_limits: AccountLimits = AccountLimits()

    @property
    def outbox_path(self) -> Path:
        """The embedded default's mail: one ``.eml`` file per message, a ``.txt`` to read beside."""
        return self.instance_path / "outbox"

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
            mail=MailSettings.from_env(env),
            bundle_max_bytes=int(env.get("NLGBOARD_BUNDLE_MAX_BYTES") or BUNDLE_MAX_BYTES),
            account_limits=AccountLimits.from_env(env),
        )


def default_database_url(instance: Path) -> str:
    return f"sqlite:///{instance / 'nlgboard.sqlite3'}"
