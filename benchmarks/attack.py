"""Play the attacker against a running board: build a world in every state (accounts, phases,
anonymised and withdrawn systems, human evaluations; ``tests/support/attack_world.py``), then
request every route of the url_map as every role with valid and hostile parameters
(``tests/support/attack.py``) and report, per role, requests made, HTTP 500s and unauthorised
reads (hidden references, hidden or over-precise scores, per-item figures, hidden names,
secrets, in bodies, headers and cookies).

The board must be fresh and seeded with the demo challenges, e.g.::

    export NLGBOARD_INSTANCE=/tmp/attack-instance   # and DATABASE_URL for PostgreSQL
    nlgboard db upgrade && nlgboard run --demo --port 5077 &
    python benchmarks/attack.py --url http://127.0.0.1:5077

``--sigkill`` instead starts boards of its own (embedded default, a temporary folder), kills
each with SIGKILL while uploads are queued and starts it again, twice, and reports uploads
sent, scored, failed, lost and duplicated (``tests/support/attack_sigkill.py``).

Exit status 1 when anything was found.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests
from sqlalchemy import create_engine, text
from sqlalchemy.exc import NoResultFound

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.data.config import Settings
from tests.support.attack_run import attack_all
from tests.support.attack_sigkill import sigkill_runs
from tests.support.attack_world import Answer, Board, Http, build
from tests.support.factories import mailed_link


class LiveHttp(Http):
    """A browser on the running board (``requests``: one cookie jar, no redirects followed)."""

    def __init__(self, base: str):
        self.base = base.rstrip("/")
        self.session = requests.Session()

    def request(self, method, url, *, headers=None, data=None, files=None, content_type=None):
        headers = dict(headers or {})
        if content_type:
            headers["Content-Type"] = content_type
        response = self.session.request(
            method,
            self.base + url,
            headers=headers,
            data=data,
            files={k: (name, body) for k, (name, body) in (files or {}).items()} or None,
            allow_redirects=False,
            timeout=120,
        )
        cookies = response.raw.headers.getlist("Set-Cookie") if response.raw else []
        return Answer(response.status_code, dict(response.headers), response.content, cookies)

    def cookies(self) -> dict[str, str]:
        return {cookie.name: cookie.value or "" for cookie in self.session.cookies}


def cli(*args: str) -> str:
    done = subprocess.run(
        [str(ROOT / ".venv/bin/nlgboard"), *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"nlgboard {' '.join(args)}: {done.stderr}")
    return done.stdout.strip()


def sql(statement: str) -> None:
    """One statement on the board's database (``DATABASE_URL`` / ``NLGBOARD_INSTANCE``)."""
    engine = create_engine(Settings.from_env().database_url)
    with engine.begin() as connection:
        connection.execute(text(statement))
    engine.dispose()


def newest_link(email: str) -> str:
    """The confirmation link mailed to ``email`` (the board's outbox table, or its instance's
    outbox folder once sent: run the board without ``SMTP_URL``)."""
    for _ in range(100):
        try:
            return mailed_link(Settings.from_env(), email)
        except (AssertionError, FileNotFoundError, NoResultFound):
            time.sleep(0.1)  # the mail thread is writing it
    return mailed_link(Settings.from_env(), email)


def wait_for_queue(base: str) -> None:
    """Until ``nlgboard status`` has nothing queued or running."""
    for _ in range(600):
        status = json.loads(cli("status", "--json"))
        counts = status["submissions"]
        busy = counts.get("queued") or counts.get("running") or status["awaiting_description"]
        if not busy:
            return
        time.sleep(0.5)
    raise RuntimeError("the queue did not empty in 5 minutes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:5077")
    parser.add_argument("--sigkill", action="store_true", help="the SIGKILL runs instead")
    args = parser.parse_args()
    if args.sigkill:
        with tempfile.TemporaryDirectory() as folder:
            killed = sigkill_runs(Path(folder))
        print(killed.line())
        sys.exit(0 if killed.clean else 1)
    board = Board(cli=cli, browser=lambda: LiveHttp(args.url), sql=sql, mailed_link=newest_link)
    world = build(board, lambda: wait_for_queue(args.url))
    settings = Settings.from_env()
    secret_key = os.environ.get("SECRET_KEY") or (settings.instance_path / "secret_key").read_text()
    report = attack_all(
        board, world, settings.database_url, secret_key.strip(), str(settings.instance_path)
    )
    print(report.summary())
    sys.exit(1 if report.findings else 0)


if __name__ == "__main__":
    main()
