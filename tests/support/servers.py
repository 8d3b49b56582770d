"""Real throwaway servers for integration tests: redis-server and a PostgreSQL cluster."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.paths import require_binary


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


@contextmanager
def redis_server(directory: Path) -> Iterator[str]:
    """Start a private redis-server on a free loopback port; yield its URL; stop it."""
    binary = require_binary("redis-server")
    port = free_port()
    process = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(directory),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for_port(port)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return require_binary(name, *found[-1:])


@contextmanager
def postgres_server() -> Iterator[str]:
    """Start a throwaway PostgreSQL cluster (initdb refuses root: run it as ``postgres``).

    Its folder is made under the system temp dir, not pytest's 0700 one, so ``postgres`` can
    reach it.
    """
    initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
    directory = Path(tempfile.mkdtemp(prefix="nlgboard-pg-"))
    data = directory / "pgdata"
    data.mkdir(parents=True)
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(directory, "postgres")
        shutil.chown(data, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    subprocess.run(
        [*as_user, initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c fsync=off"
    log = data / "server.log"
    subprocess.run(
        [*as_user, pg_ctl, "-D", str(data), "-o", options, "-l", str(log), "-w", "start"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run(
            [*as_user, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"],
            stdout=subprocess.DEVNULL,
            check=False,
        )
        shutil.rmtree(directory, ignore_errors=True)


def create_database(server_url: str, name: str) -> str:
    """Create an empty database on a running cluster; return its SQLAlchemy URL."""
    import psycopg

    with psycopg.connect(server_url.replace("+psycopg", "") + "/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{server_url}/{name}"


@contextmanager
def serve_app(app) -> Iterator[str]:
    """Serve a Flask app over real HTTP on a free loopback port (threaded); yield its URL."""
    import threading

    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", free_port(), app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True, name="http")
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()
