"""Real stacks: the app served over HTTP, a real redis-server, real ``nlgboard worker`` processes,
a throwaway PostgreSQL cluster."""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from app.data.config import Settings
from app.entry.root import start_embedded_worker
from tests.conftest import make_app, make_settings
from tests.support import waiting
from tests.support.servers import create_database, postgres_server, redis_server

_db_names = itertools.count()


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@dataclass
class Stack:
    """One running deployment: settings, the app on a real port, worker processes."""

    settings: Settings
    base_url: str
    app: object
    workers: list[subprocess.Popen] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)

    def env(self, **extra: str) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            DATABASE_URL=self.settings.database_url,
            NLGBOARD_INSTANCE=str(self.settings.instance_path),
            REDIS_URL=self.settings.redis_url or "",
            NLGBOARD_HEARTBEAT_STALE_SECONDS=str(self.settings.heartbeat_stale_seconds),
            NLGBOARD_QUEUED_GRACE_SECONDS=str(self.settings.queued_grace_seconds),
            NLGBOARD_RECOVERY_INTERVAL_SECONDS=str(self.settings.recovery_interval_seconds),
        )
        env.update(extra)
        return env

    def start_worker(
        self,
        hold_seconds: float | None = None,
        *args: str,
        faulty: str | None = None,
        **extra_env: str,
    ) -> subprocess.Popen:
        """Start ``nlgboard worker ARGS`` as its own process group (with ``hold_seconds``, one
        whose jobs stall after claiming; with ``faulty``, the test-only module in
        ``tests.support`` that runs it with a fault injected). Its warm-up loads the E2E
        scorers only (the tests here score E2E; the embedding model would add its start-up)."""
        log = self.settings.instance_path / f"worker-{len(self.workers)}.log"
        self.logs.append(log)
        if hold_seconds:
            command = [sys.executable, "-m", "tests.support.held_worker", str(hold_seconds)]
        elif faulty:
            command = [sys.executable, "-m", f"tests.support.{faulty}", "worker", *args]
        else:
            command = [
                sys.executable,
                "-c",
                "from app.entry.cli import main; main()",
                "worker",
                *args,
            ]
        with log.open("wb") as log_file:
            process = subprocess.Popen(
                command,
                env=self.env(**{"NLGBOARD_WARM_UP": "e2e", **extra_env}),
                stdout=log_file,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.workers.append(process)
        return process

    def kill_worker(self, process: subprocess.Popen) -> None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    def stop_workers(self) -> None:
        for process in self.workers:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:  # still finishing a job (warm shutdown)
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=10)

    def worker_logs(self) -> str:
        return "\n".join(f"--- {log.name}\n{log.read_text(errors='replace')}" for log in self.logs)


def serve(app) -> tuple[str, callable]:
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return f"http://127.0.0.1:{server.server_port}", server.shutdown


@pytest.fixture(params=["sqlite", "postgres"], ids=["sqlite", "postgresql"])
def database(request) -> str:
    """The integration suite runs on both databases the board supports."""
    return request.param


@pytest.fixture
def make_stack(tmp_path: Path, request) -> Iterator:
    """Build a stack: ``make_stack("embedded"|"redis", database="sqlite"|"postgres")``."""
    stacks: list[Stack] = []
    cleanups: list = []

    def build(queue: str, database: str = "sqlite", **knobs) -> Stack:
        instance = tmp_path / f"instance-{len(stacks)}"
        overrides: dict = {"queued_grace_seconds": 0, **knobs}
        if database == "postgres":
            server = request.getfixturevalue("postgres")
            overrides["database_url"] = create_database(
                server, f"nlg_{next(_db_names)}_{os.getpid()}"
            )
        if queue == "redis":
            context = redis_server(tmp_path)
            overrides["redis_url"] = context.__enter__()
            cleanups.append(lambda: context.__exit__(None, None, None))
        settings = make_settings(instance, **overrides)
        app = make_app(settings, WTF_CSRF_ENABLED=False)
        if queue == "embedded":
            start_embedded_worker(app)
        base_url, shutdown = serve(app)
        cleanups.append(shutdown)
        stack = Stack(settings, base_url, app)
        stacks.append(stack)
        return stack

    yield build
    for stack in stacks:
        stack.stop_workers()
    for cleanup in reversed(cleanups):
        cleanup()


def wait_until(predicate, timeout: float, what: str, stack: Stack | None = None):
    """``tests.support.waiting.wait_until`` with the workers' logs when it fails; ``timeout``
    is STATE_DEADLINE for a state work leads to (only a short wait that must fail says less)."""
    details = stack.worker_logs if stack else None
    return waiting.wait_until(predicate, what, timeout, details)
