"""Scoring processes shared by the metrics that are slow in Python (METEOR's aligner, TER's
shift search): a large batch is split over them while the caller computes other metrics.

One single-process executor per core (``NLGBOARD_METEOR_PROCESSES``; the name predates TER),
started on first use and kept as long as this process lives. Item i of a batch goes to process
i mod n (long items, which test sets often keep together, are spread), so whatever a process
prepared for a test set (METEOR's references) is there for the next batch. A process that dies
costs time, not scores: the batch is redone here and new processes start for the next one. A
scoring process ends by itself once the process that started it is gone, even killed
(``end_with_creator``).
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext
from typing import Any, TypeVar

PARALLEL_FROM = 200
"""Work items from which a batch is split over processes (below, it is quicker in process)."""
PROCESSES_VARIABLE = "NLGBOARD_METEOR_PROCESSES"
CREATOR_CHECK_SECONDS = 1.0
"""How often a pool process looks whether the process that started it is still there."""

_POOLS: list[ProcessPoolExecutor] = []
_POOLS_LOCK = threading.Lock()
_STOPPED = threading.Event()
"""Set by ``stop``: this process is ending, so no new scoring process may start."""

Work = TypeVar("Work")


def start(
    function: Callable[[list[Work]], list[Any]], work: Sequence[Work]
) -> Callable[[], list[Any]]:
    """Start ``function`` (a module-level function: it is pickled by name) on shares of
    ``work``; the returned function gives the concatenated results, in order. Small batches
    run in this process when the result is asked for."""
    pools = pools_for(function) if len(work) >= PARALLEL_FROM else []
    if not pools:
        return lambda: function(list(work))
    count = len(pools)
    try:
        futures = [pool.submit(function, list(work[k::count])) for k, pool in enumerate(pools)]
    except (BrokenProcessPool, RuntimeError):  # a process died, or the pools were shut down
        _discard(pools)
        return lambda: function(list(work))

    def finish() -> list[Any]:
        try:
            shares = [future.result() for future in futures]
        except BrokenProcessPool:  # a scoring process died (killed, out of memory): redo here
            _discard(pools)
            return function(list(work))
        results: list[Any] = [None] * len(work)
        for k, share in enumerate(shares):
            results[k::count] = share
        return results

    return finish


def pools_for(function: Callable[..., Any]) -> list[ProcessPoolExecutor]:
    """The scoring processes (one executor each), started on first use: forked from this
    process when it runs no other thread (the cheapest start), else from a fork server that
    has imported ``function``'s module (forking a threaded process can copy a lock another
    thread holds)."""
    processes = int(os.environ.get(PROCESSES_VARIABLE) or os.cpu_count() or 1)
    if processes < 2 or not hasattr(os, "fork"):
        return []
    with _POOLS_LOCK:
        if _STOPPED.is_set():
            return []
        if not _POOLS:
            context: BaseContext
            if threading.active_count() == 1:
                context = multiprocessing.get_context("fork")
            else:
                server = multiprocessing.get_context("forkserver")
                server.set_forkserver_preload([function.__module__])
                context = server
            for _ in range(processes):
                pool = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=context,
                    initializer=end_with_creator,
                    initargs=(os.getpid(),),
                )
                atexit.register(pool.shutdown, wait=False, cancel_futures=True)
                _POOLS.append(pool)
        return list(_POOLS)


def warm_up(function: Callable[[list[Work]], list[Any]], work: Work) -> None:
    """Start the scoring processes now and run ``function`` on ``[work]`` in each, so that
    whatever it loads on first use (METEOR's lexicon) is ready before the first real batch."""
    pools = pools_for(function)
    for future in [pool.submit(function, [work]) for pool in pools]:
        future.result()


def stop() -> None:
    """End the scoring processes at once and start no more (this process is shutting down); a
    batch still running in them is redone in the caller's process, if it still runs."""
    _STOPPED.set()
    with _POOLS_LOCK:
        pools = list(_POOLS)
    processes = [p for pool in pools for p in (getattr(pool, "_processes", None) or {}).values()]
    for process in processes:
        process.terminate()
    _discard(pools)


def _discard(pools: list[ProcessPoolExecutor]) -> None:
    with _POOLS_LOCK:
        if pools == _POOLS:
            _POOLS.clear()
    for pool in pools:
        pool.shutdown(wait=False, cancel_futures=True)


def end_with_creator(creator: int) -> None:
    """A pool process's start: end it once ``creator`` (the process whose pool it serves) is
    gone. A killed worker's pool processes would otherwise wait on their queues for ever (they
    hold both ends of them), and with them the fork server that started them."""

    def watch() -> None:
        while _alive(creator):
            time.sleep(CREATOR_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="creator-watch").start()


def _alive(pid: int) -> bool:
    """Running (not ended, nor a zombie waiting to be reaped)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc here: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
        return True
