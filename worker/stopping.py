"""Stopping a scoring process at once (SIGTERM, SIGINT): ``nlgboard worker`` and the embedded
``nlgboard run``.

A stop hands the submission being scored back to the queue (``jobs.hand_back``, from the
process's ``JobsState``) and ends every process this one started: the scoring processes and
their fork server, the D-level parsers, METEOR's JVMs. Waiting for the job to finish (RQ's "warm shutdown") could take minutes and
left those children running when the parent was killed; a handed-back submission is scored
again by another worker, or by this board's next start, from the database.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from app.data.config import Settings
from scorer import parallel
from worker import jobs
from worker.state import JobsState

log = logging.getLogger(__name__)

DEADLINE_SECONDS = 4.5
"""After a stop signal the process is gone within this, whatever it was doing."""
CHILDREN_GRACE_SECONDS = 1.0
"""Children get SIGTERM, then SIGKILL after this."""


def stop_now(settings: Settings, state: JobsState) -> list[int]:
    """Hand back the submissions in hand and end every child process; return the ids handed
    back. A watchdog ends this process if the rest of the shutdown hangs (a database that
    does not answer, a job stuck in C code)."""
    watchdog = threading.Timer(DEADLINE_SECONDS, _exit_now)
    watchdog.daemon = True
    watchdog.start()
    try:
        handed = jobs.hand_back(settings, state)
    except Exception:  # the database is away: recovery finds the stale heartbeat later
        log.exception("stopping: could not hand back the submissions in hand")
        handed = []
    parallel.stop()
    end_children()
    return handed


def install(on_signal: Callable[[int], None]) -> None:
    """Call ``on_signal(signum)`` on SIGTERM and SIGINT (from the main thread); a second signal
    ends the process at once."""

    def handle(signum: int, _frame: FrameType | None) -> None:
        for name in (signal.SIGTERM, signal.SIGINT):
            signal.signal(name, lambda *_: _exit_now())
        log.warning("stopping on %s", signal.Signals(signum).name)
        on_signal(signum)

    signal.signal(signal.SIGTERM, handle)
    signal.signal(signal.SIGINT, handle)


def end_children(grace: float = CHILDREN_GRACE_SECONDS) -> None:
    """SIGTERM every descendant of this process (children of children included: the fork
    server's scoring processes), then SIGKILL those still there after ``grace`` seconds."""
    found = descendants(os.getpid())
    for pid in found:
        _signal(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    waiting = found
    while waiting and time.monotonic() < deadline:
        _reap(waiting)
        waiting = [pid for pid in waiting if _alive(pid)]
        time.sleep(0.02)
    for pid in waiting:
        _signal(pid, signal.SIGKILL)
    _reap(found)


def descendants(root: int) -> list[int]:
    """Every process below ``root`` in the process tree (Linux ``/proc``; elsewhere this
    process's multiprocessing children)."""
    proc = Path("/proc")
    if not proc.is_dir():
        import multiprocessing

        return [child.pid for child in multiprocessing.active_children() if child.pid]
    children: dict[int, list[int]] = defaultdict(list)
    for entry in proc.iterdir():
        if entry.name.isdigit():
            parent = parent_of(int(entry.name))
            if parent is not None:
                children[parent].append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def parent_of(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])  # the name in parentheses may hold spaces


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _signal(pid: int, signum: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signum)


def _reap(pids: list[int]) -> None:
    """Collect those of ``pids`` that are this process's dead children (no zombie lingers)."""
    for pid in pids:
        with contextlib.suppress(ChildProcessError):  # not our child, or already collected
            os.waitpid(pid, os.WNOHANG)


def _exit_now() -> None:
    end_children(grace=0.2)
    logging.shutdown()
    os._exit(1)
