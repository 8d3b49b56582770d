"""The change counter's shared reads (``app.data.changes.current``): callers that ask while a
read is in progress share the next read, never the one in progress, so each sees every write
committed before it asked."""

from __future__ import annotations

import threading
import time

import pytest

from app.data import changes
from tests.support.waiting import STATE_DEADLINE


class Database:
    """A counter whose reads block until let go, counting the reads sent."""

    def __init__(self) -> None:
        self.counter = 1
        self.reads = 0
        self.reading = threading.Event()
        self.go = threading.Event()

    def read(self, _url: str) -> int:
        self.reads += 1
        value = self.counter  # the read sees the counter as it begins
        self.reading.set()
        assert self.go.wait(STATE_DEADLINE)
        return value


@pytest.fixture
def database(monkeypatch):
    found = Database()
    monkeypatch.setattr(changes, "_read", found.read)
    monkeypatch.setattr(changes, "_SHARED", {})
    return found


def ask(results: list, done: threading.Event | None = None) -> threading.Thread:
    def run() -> None:
        results.append(changes.current("postgresql://shared"))
        if done is not None:
            done.set()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def wait_until_waiting(database: Database, count: int) -> None:
    """Until ``count`` callers wait on the read in progress (the condition's waiters)."""
    (shared,) = changes._SHARED.values()
    deadline = time.monotonic() + STATE_DEADLINE
    while len(shared._changed._waiters) < count:  # type: ignore[attr-defined]
        assert database.reads == 1, "a caller sent a read of its own during another"
        assert time.monotonic() < deadline, "the callers never waited"
        time.sleep(0.005)


def test_callers_during_a_read_share_the_next_read_and_see_the_write_before_they_asked(
    database,
):
    first: list = []
    leader = ask(first)
    assert database.reading.wait(STATE_DEADLINE)
    database.reading.clear()
    database.counter = 2  # committed after the first read began, before the others ask
    later: list = []
    followers = [ask(later) for _ in range(5)]
    wait_until_waiting(database, 5)
    database.go.set()
    for thread in (leader, *followers):
        thread.join(STATE_DEADLINE)
    assert first == [1]
    assert later == [2] * 5, "a caller was given a read that began before it asked"
    assert database.reads == 2


def test_a_failed_read_wakes_the_waiting_callers_with_nothing_to_share(monkeypatch):
    monkeypatch.setattr(changes, "_SHARED", {})
    monkeypatch.setattr(changes, "_reader", lambda _url: (_ for _ in ()).throw(OSError("away")))
    assert changes.current("postgresql://away") is None
    assert changes.current("postgresql://away") is None
