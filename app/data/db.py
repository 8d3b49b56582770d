"""Database engine and sessions, shared by the web app, the CLI and the queue jobs.

Kept free of Flask so that a worker process (RQ work-horse or the embedded thread) opens sessions
the same way the web app does.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.orm import Session, sessionmaker

from app.data import changes

_ENGINES: dict[tuple[str, int], Engine] = {}


def get_engine(url: str) -> Engine:
    """One engine per URL and per process: a forked RQ work-horse must not reuse the parent's
    pooled connections."""
    key = (url, os.getpid())
    engine = _ENGINES.get(key)
    if engine is None:
        engine = _make_engine(url)
        _ENGINES[key] = engine
    return engine


def _make_engine(url: str) -> Engine:
    """An engine whose committed writes move the board's change counter on
    (``app.data.changes``: what shared public pages are keyed by)."""
    if url.startswith("sqlite"):
        database = make_url(url).database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        engine = create_engine(url, pool_pre_ping=True, connect_args=_postgres_keepalives(url))
    changes.watch(engine)
    return engine


KEEPALIVE = {"idle": 30, "interval": 10, "count": 3}
"""Seconds before an idle connection is probed, between probes, and probes lost before it is
dropped: about a minute, where the kernel's defaults take over two hours."""


def _postgres_keepalives(url: str) -> dict[str, Any]:
    """TCP keepalives on both ends of a PostgreSQL connection. A worker host cut off the network
    mid-transaction holds its row locks until the server notices it is gone; with these, the
    server drops it (rolling its transaction back) within about a minute, and a worker notices a
    server it can no longer reach. Settings given in the URL are left as they are."""
    query = make_url(url).query
    args: dict[str, Any] = {}
    if "options" not in query:
        args["options"] = " ".join(f"-c tcp_keepalives_{k}={v}" for k, v in KEEPALIVE.items())
    if not any(key.startswith("keepalives") for key in query):
        args |= {"keepalives": 1, **{f"keepalives_{k}": v for k, v in KEEPALIVE.items()}}
    return args


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL lets the embedded worker thread write while web requests read.
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def session_factory(url: str) -> sessionmaker[Session]:
    return sessionmaker(get_engine(url), expire_on_commit=False)


@contextmanager
def session_scope(url: str) -> Iterator[Session]:
    """A session that commits on success and rolls back on any error."""
    session = session_factory(url)()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()
