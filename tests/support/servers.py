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


def wait_for_port(port: int, timeout: float = 20.0, host: str = "127.0.0.1") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            sock.settimeout(1)
            if sock.connect_ex((host, port)) == 0:
                return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on {host}:{port} after {timeout} s")


class RedisServer:
    """A private redis-server on a fixed loopback port, which can be killed and started again
    (empty: no persistence) to play a Redis restart."""

    def __init__(self, directory: Path, host: str = "127.0.0.1", prefix: list[str] | None = None):
        """``host``: the address it listens on; ``prefix``: a command it runs under (a network
        namespace's ``ip netns exec NS``)."""
        self.binary = require_binary("redis-server")
        self.directory = directory
        self.host, self.prefix = host, prefix or []
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.port}/0"

    def start(self) -> None:
        command = [*self.prefix, self.binary, "--port", str(self.port), "--bind", self.host]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.directory)]
        command += ["--protected-mode", "no"]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
        )
        wait_for_port(self.port, host=self.host)

    def stop(self, kill: bool = False) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill() if kill else self.process.terminate()
            self.process.wait(timeout=10)


@contextmanager
def redis_server(directory: Path) -> Iterator[str]:
    """Start a private redis-server on a free loopback port; yield its URL; stop it."""
    server = RedisServer(directory)
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return require_binary(name, *found[-1:])


class PostgresCluster:
    """A throwaway PostgreSQL cluster (initdb refuses root: run it as ``postgres``), which can
    be stopped and started again to play a database outage.

    Its folder is made under the system temp dir, not pytest's 0700 one, so ``postgres`` can
    reach it.
    """

    def __init__(self, host: str = "127.0.0.1", prefix: list[str] | None = None):
        """``host``: the address it listens on (clients of its /24 are trusted); ``prefix``: a
        command it runs under (a network namespace's ``ip netns exec NS``)."""
        self.host, self.prefix = host, prefix or []
        self.initdb, self.pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
        self.directory = Path(tempfile.mkdtemp(prefix="nlgboard-pg-"))
        self.data = self.directory / "pgdata"
        self.data.mkdir(parents=True)
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.directory, "postgres")
            shutil.chown(self.data, "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.port = free_port()
        subprocess.run(
            [
                *self.as_user,
                self.initdb,
                "-D",
                str(self.data),
                "-A",
                "trust",
                "-U",
                "postgres",
                "-E",
                "UTF8",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        if host != "127.0.0.1":
            with (self.data / "pg_hba.conf").open("a") as hba:
                hba.write("host all all samenet trust\n")

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@{self.host}:{self.port}"

    def start(self) -> None:
        options = f"-p {self.port} -k {self.data} -c listen_addresses={self.host} -c fsync=off"
        subprocess.run(
            [
                *self.prefix,
                *self.as_user,
                self.pg_ctl,
                "-D",
                str(self.data),
                "-o",
                options,
                "-l",
                str(self.data / "server.log"),
                "-w",
                "start",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def stop(self, mode: str = "fast") -> None:
        command = [*self.prefix, *self.as_user, self.pg_ctl, "-D", str(self.data)]
        subprocess.run(
            [*command, "-m", mode, "-w", "stop"],
            stdout=subprocess.DEVNULL,
            check=False,
        )

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.directory, ignore_errors=True)


@contextmanager
def postgres_server() -> Iterator[str]:
    """Start a throwaway cluster on a free port; yield its URL; remove it."""
    cluster = PostgresCluster()
    cluster.start()
    try:
        yield cluster.url
    finally:
        cluster.remove()


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
