"""The board's change counter: one number that moves on with every committed write.

A web process that keeps a drawn public page (``app.web.public_cache``) keys it by this number
and serves it only while the number is unchanged, so a new score, a publication, a phase or a
visibility change shows on the very next request. The counter is moved by the database layer
itself, not by the services that change things: every engine ``get_engine`` makes notes the
statements that write, and when such a transaction commits it adds one to
``board_changes.counter`` in that same transaction, just before the commit. Whoever writes
(a page, the worker, the CLI, on any host) cannot forget it, and the number and the data it
stands for become visible together.

A reader takes the number before it reads the data (``current``): a page drawn from data at
least as new as that number is labelled with it, and a page is served only to a reader that
sees the same number. One counter for the whole board, not one per track: a public page reads
many tables (challenges, teams' anonymity, withdrawals, campaigns), and a counter per track
would need every writer to know every page its write shows on. Writes are rare beside reads.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event

logger = logging.getLogger(__name__)

BUMP = "UPDATE board_changes SET counter = counter + 1 WHERE id = 1"
READ = "SELECT counter FROM board_changes WHERE id = 1"

UNMARKED = "nlgboard_unmarked"
"""An execution option: a connection with it set moves no counter (the migrations, which run
before ``board_changes`` exists)."""

_WROTE = "nlgboard.wrote"
_READS = ("SELECT", "SHOW", "PRAGMA", "SAVEPOINT", "RELEASE", "ROLLBACK", "BEGIN", "EXPLAIN")
"""Statements that write nothing; any other (INSERT, UPDATE, DELETE, DDL, a CTE) counts as a
write, which at worst makes a page be drawn again."""

_DDL = ("CREATE", "DROP", "ALTER")
_PRESENT: dict[Engine, bool] = {}
"""Whether an engine's database has ``board_changes``, once asked; forgotten when a schema
statement runs (a migration's tests write at older revisions, before the table exists, and a
bump that failed would fail the commit)."""

_READERS: dict[tuple[str, int], Engine] = {}


def watch(engine: Engine) -> None:
    """Move the counter on in every transaction of ``engine`` that writes, as it commits."""
    event.listen(engine, "after_cursor_execute", _note_write)
    event.listen(engine, "commit", _bump_before_commit)
    event.listen(engine, "rollback", _forget)


def _note_write(conn: Connection, _cursor: Any, statement: str, *_args: Any) -> None:
    head = statement.lstrip()[:9].upper()
    if not head.startswith(_READS):
        conn.info[_WROTE] = True
        if head.startswith(_DDL):
            _PRESENT.pop(conn.engine, None)


def _bump_before_commit(conn: Connection) -> None:
    if conn.info.pop(_WROTE, False) and not conn.get_execution_options().get(UNMARKED):
        cursor = conn.connection.cursor()
        try:
            present = _PRESENT.get(conn.engine)
            if present is None:
                cursor.execute(_EXISTS[conn.dialect.name == "sqlite"])
                row = cursor.fetchone()
                present = _PRESENT[conn.engine] = bool(row and row[0])
            if present:
                cursor.execute(BUMP)
        finally:
            cursor.close()


_EXISTS = {
    False: "SELECT to_regclass('board_changes') IS NOT NULL",
    True: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'board_changes'",
}


def _forget(conn: Connection) -> None:
    conn.info.pop(_WROTE, None)


def current(url: str) -> int | None:
    """The counter as committed now, or None if it cannot be read (then nothing is shared).
    Read outside any transaction on a connection of its own, so it is the latest commit's.

    A process's callers share reads (``_SharedRead``): under load every request waited on a
    round trip of its own to a database as busy as the web, and the reads were most of a
    shared page's time."""
    key = (url, os.getpid())
    shared = _SHARED.get(key)
    if shared is None:
        shared = _SHARED.setdefault(key, _SharedRead(url))
    return shared.read()


class _SharedRead:
    """One read of the counter at a time in a process, shared by every caller that asked
    before it began: a caller gets a value read after it asked (so it sees every write
    committed before it asked, as a read of its own would), but callers arriving during a read
    wait for the next one together instead of each sending their own."""

    def __init__(self, url: str):
        self.url = url
        self._changed = threading.Condition()
        self._begun = 0
        self._ended = 0
        self._reading = False
        self._value: int | None = None

    def read(self) -> int | None:
        with self._changed:
            needed = self._begun + 1  # a read in progress began before this caller asked
            while self._ended < needed:
                if not self._reading:
                    self._reading = True
                    self._begun += 1
                    break
                self._changed.wait()
            else:
                return self._value  # a read that began after this caller asked, or later
        value = None
        try:
            value = _read(self.url)
        finally:
            with self._changed:
                self._value = value
                self._ended = self._begun
                self._reading = False
                self._changed.notify_all()
        return value


_SHARED: dict[tuple[str, int], _SharedRead] = {}


def _read(url: str) -> int | None:
    try:
        connection = _reader(url).raw_connection()
        try:
            cursor = connection.cursor()
            cursor.execute(READ)
            row = cursor.fetchone()
            cursor.close()
        finally:
            connection.close()
    except Exception:  # the database is away or not migrated: draw the page, share nothing
        logger.warning("the board's change counter cannot be read", exc_info=True)
        return None
    return int(row[0]) if row else None


def _reader(url: str) -> Engine:
    """An engine in autocommit for ``current``: one round trip a read, no ping, no
    transaction to end. One per URL and process, as ``app.data.db.get_engine``."""
    key = (url, os.getpid())
    engine = _READERS.get(key)
    if engine is None:
        if url.startswith("sqlite"):
            engine = create_engine(
                url,
                isolation_level="AUTOCOMMIT",
                pool_reset_on_return=None,
                connect_args={"timeout": 30, "check_same_thread": False},
            )
        else:
            engine = create_engine(
                url, isolation_level="AUTOCOMMIT", pool_reset_on_return=None, pool_size=8
            )
        _READERS[key] = engine
    return engine
