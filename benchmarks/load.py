"""Load on loopback: 64 concurrent clients reading a public leaderboard served by gunicorn with
2 workers, then 20 concurrent uploads. Prints requests/s, p50/p99 latency, errors, lost uploads.

The stack is real: PostgreSQL (a throwaway cluster; SQLite if PostgreSQL is not installed),
redis-server (uploads are queued on RQ; no worker runs, so "lost" means not stored or not
queued), gunicorn (``gthread``, 2 workers x 4 threads) serving ``app.web:create_app()``. The track
holds the demo E2E test set and 21 scored systems, as E2E did. The clients are asyncio
keep-alive connections in 2 processes on the same 2 cores, so the figures are a floor: the
clients take CPU the server could use. (8 threads per worker measured worse than 4: p99
109-126 ms, the threads contending for each process's GIL.)

Usage: python benchmarks/load.py [--seconds 15] [--clients 64] [--uploads 20] [--page html|api]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import requests

from tests.support.servers import (
    create_database,
    free_port,
    postgres_server,
    redis_server,
    wait_for_port,
)

PAGES = {
    "html": "/challenges/load/tracks/main",
    "api": "/api/v1/challenges/load/tracks/main/leaderboard",
}


def seed(env: dict[str, str]) -> str:
    """Migrate, create the track with 21 scored systems and a team; return its API token."""
    code = """
from app.data.db import session_scope
from app.data.migrate import upgrade
from app.data.config import Settings
from tests.support.factories import demo_track, participant, scored_system
settings = Settings.from_env()
upgrade(settings.database_url)
demo_track(settings, challenge="load", daily_limit=None)
with session_scope(settings.database_url) as session:
    for k in range(21):
        scored_system(session, "load", "main", f"system-{k:02d}",
                      {"BLEU": 0.7 - k / 100, "NIST": 8.5 - k / 10, "METEOR": 0.45, "ROUGE_L": 0.7,
                       "CIDEr": 2.3, "norm_avg": 0.6 - k / 100, "SER": k / 2},
                      baseline=(k == 20))
print(participant(settings, "uploader@load.example", team="Uploaders"))
"""
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, check=True, capture_output=True, text=True
    )
    return out.stdout.strip().splitlines()[-1]


async def reader(port: int, path: str, until: float, latencies: list, errors: list) -> None:
    """One keep-alive HTTP/1.1 connection issuing GETs back to back (asyncio: a client costs
    far less CPU than a thread, and the CPU is shared with the server here)."""
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    reader_stream, writer = await asyncio.open_connection("127.0.0.1", port)
    while time.time() < until:
        start = time.perf_counter()
        try:
            writer.write(request)
            head = await reader_stream.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
            await reader_stream.readexactly(length)
            if status != 200:
                errors.append(str(status))
            if re.search(rb"(?i)connection: *close", head):
                writer.close()
                reader_stream, writer = await asyncio.open_connection("127.0.0.1", port)
        except (OSError, asyncio.IncompleteReadError, AttributeError) as error:
            errors.append(type(error).__name__)
            writer.close()
            reader_stream, writer = await asyncio.open_connection("127.0.0.1", port)
            continue
        latencies.append(time.perf_counter() - start)
    writer.close()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def client_process(port: int, path: str, clients: int, until: float, results) -> None:
    latencies: list[float] = []
    errors: list[str] = []

    async def run() -> None:
        await asyncio.gather(
            *(reader(port, path, until, latencies, errors) for _ in range(clients))
        )

    asyncio.run(run())
    results.put((latencies, errors))


def read_load(port: int, path: str, clients: int, seconds: float) -> None:
    processes_count = 2
    queue = multiprocessing.Queue()
    start = time.perf_counter()
    until = time.time() + seconds
    processes = [
        multiprocessing.Process(
            target=client_process, args=(port, path, clients // processes_count, until, queue)
        )
        for _ in range(processes_count)
    ]
    for process in processes:
        process.start()
    latencies: list[float] = []
    errors: list[str] = []
    for _ in processes:
        got_latencies, got_errors = queue.get()
        latencies += got_latencies
        errors += got_errors
    for process in processes:
        process.join()
    elapsed = time.perf_counter() - start
    print(
        f"leaderboard {path}: {clients} clients ({processes_count} processes), {elapsed:.1f} s: "
        f"{len(latencies)} requests, {len(latencies) / elapsed:.0f} req/s; "
        f"p50 {1000 * statistics.median(latencies):.1f} ms, "
        f"p99 {1000 * percentile(latencies, 0.99):.1f} ms; errors {len(errors)}"
        + (f" ({', '.join(sorted(set(errors)))})" if errors else "")
    )


def upload_load(port: int, token: str, uploads: int, env: dict[str, str]) -> None:
    data = (ROOT / "app" / "demo_data" / "baseline.txt").read_bytes()
    results: list[tuple[int, float]] = []
    barrier = threading.Barrier(uploads)

    def send(k: int) -> None:
        barrier.wait()
        start = time.perf_counter()
        response = requests.post(
            f"http://127.0.0.1:{port}/api/v1/challenges/load/tracks/main/submissions",
            files={"file": (f"out-{k}.txt", data)},
            data={"system": f"upload-{k:02d}"},
            headers={"Authorization": f"Bearer {token}"},
            timeout=120,
        )
        results.append((response.status_code, time.perf_counter() - start))

    threads = [threading.Thread(target=send, args=(k,)) for k in range(uploads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    accepted = sum(status == 202 for status, _ in results)
    stored, queued = count_stored(env)
    latencies = [seconds for _, seconds in results]
    print(
        f"uploads: {uploads} concurrent, {accepted} accepted (202); p50 "
        f"{1000 * statistics.median(latencies):.0f} ms, max {1000 * max(latencies):.0f} ms; "
        f"stored {stored}, queued on Redis {queued}, lost {uploads - min(stored, queued)}"
    )


def count_stored(env: dict[str, str]) -> tuple[int, int]:
    code = """
from redis import Redis
from rq import Queue
from sqlalchemy import func, select
from app.data.db import session_scope
from app.data.models import Submission
from app.data.queue import QUEUE_NAME
from app.data.config import Settings
settings = Settings.from_env()
with session_scope(settings.database_url) as session:
    stored = session.scalar(select(func.count(Submission.id)).where(Submission.status == "queued"))
print(stored, len(Queue(QUEUE_NAME, connection=Redis.from_url(settings.redis_url))))
"""
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, check=True, capture_output=True, text=True
    )
    stored, queued = out.stdout.split()
    return int(stored), int(queued)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--uploads", type=int, default=20)
    parser.add_argument("--page", choices=sorted(PAGES), default="html")
    args = parser.parse_args()
    gunicorn = shutil.which("gunicorn") or str(Path(sys.executable).parent / "gunicorn")
    with ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        redis_url = stack.enter_context(redis_server(work))
        try:
            database = create_database(stack.enter_context(postgres_server()), "load")
        except (OSError, RuntimeError, subprocess.CalledProcessError) as error:  # no PostgreSQL
            print(f"PostgreSQL unavailable ({error}); using SQLite")
            database = f"sqlite:///{work / 'load.sqlite3'}"
        env = {
            **os.environ,
            "DATABASE_URL": database,
            "REDIS_URL": redis_url,
            "NLGBOARD_INSTANCE": str(work / "instance"),
            "SECRET_KEY": "load-test",
            "PYTHONPATH": str(ROOT),
        }
        token = seed(env)
        port = free_port()
        server = subprocess.Popen(
            [gunicorn, "-w", "2", "-k", "gthread", "--threads", "4", "-b", f"127.0.0.1:{port}",
             "--log-level", "warning", "app.web:create_app()"],
            env=env,
            cwd=ROOT,
        )  # fmt: skip
        stack.callback(server.wait, 10)
        stack.callback(server.terminate)
        wait_for_port(port, timeout=60)
        for _ in range(4):  # each worker renders (and caches) the page once
            requests.get(f"http://127.0.0.1:{port}{PAGES[args.page]}", timeout=60)
        print(f"database {database.split(':')[0]}, gunicorn 2 workers (gthread x 4), loopback")
        read_load(port, PAGES[args.page], args.clients, args.seconds)
        upload_load(port, token, args.uploads, env)


if __name__ == "__main__":
    main()
