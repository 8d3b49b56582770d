"""``make run``'s time to first page: ``nlgboard run --upgrade --demo`` on a fresh instance
folder, polling the home page every 0.1 s; then how long until every demo run is scored. With
``--fresh-clone``, the whole ``make run`` from a new clone of this repository (creating the venv
and installing included), with pip's and uv's download caches empty as on a new machine, or,
with ``--reuse-caches``, this machine's (a second clone: nothing is downloaded again).

``--first-page-only`` stops each run at the first page (not waiting for the demo's scores).

Usage: python benchmarks/first_page.py [--repeats 3] [--fresh-clone [--reuse-caches]] [--port 5099]
                                       [--first-page-only]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
DEMO_RUNS = 11
MILESTONES = {"uv fetched": "build/uv/bin/uv", "installed": ".venv/.installed-base"}
"""What a fresh clone's ``make run`` leaves on the way (polled with the page): where time went."""


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def one_run(
    port: int, fresh_clone: bool, reuse_caches: bool, first_page_only: bool
) -> tuple[float, float | None, dict[str, float]]:
    with tempfile.TemporaryDirectory() as work:
        log = Path(work) / "run.log"
        env = {**os.environ, "NLGBOARD_INSTANCE": str(Path(work) / "instance")}
        env.pop("REDIS_URL", None)
        env.pop("DATABASE_URL", None)
        if fresh_clone:
            clone = Path(work) / "clone"
            subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
            command = ["make", "run"]
            if not reuse_caches:
                env |= {"PIP_NO_CACHE_DIR": "1", "UV_CACHE_DIR": str(Path(work) / "uv-cache")}
            cwd = clone
        else:
            command = [f"{BIN}/nlgboard", "run", "--upgrade", "--demo", "--port", str(port)]
            cwd = ROOT
        url = f"http://127.0.0.1:{5000 if fresh_clone else port}/"
        started = time.perf_counter()
        with log.open("w") as out:
            process = subprocess.Popen(
                command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        try:
            seen: dict[str, float] = {}
            while not answers(url):
                for name, path in MILESTONES.items():
                    if fresh_clone and name not in seen and (cwd / path).exists():
                        seen[name] = time.perf_counter() - started
                if process.poll() is not None or time.perf_counter() - started > 600:
                    raise SystemExit(f"no page: {log.read_text()[-2000:]}")
                time.sleep(0.1)
            first_page = time.perf_counter() - started
            scored = None
            while not first_page_only and time.perf_counter() - started < first_page + 300:
                if log.read_text().count("job done (scored)") >= DEMO_RUNS:
                    scored = time.perf_counter() - started
                    break
                time.sleep(0.2)
            return first_page, scored, seen
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--fresh-clone", action="store_true")
    parser.add_argument("--reuse-caches", action="store_true")
    parser.add_argument("--port", type=int, default=5099)
    parser.add_argument("--first-page-only", action="store_true")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    firsts, scored = [], []
    for repeat in range(args.repeats):
        first, done, seen = one_run(
            args.port, args.fresh_clone, args.reuse_caches, args.first_page_only
        )
        firsts.append(first)
        if done is not None:
            scored.append(done)
        print(f"  run {repeat + 1}: "
              + "".join(f"{name} {at:.1f} s, " for name, at in seen.items())
              + f"first page {first:.1f} s"
              + ("" if args.first_page_only else f", all {DEMO_RUNS} demo runs scored "
                 + (f"{done:.1f} s" if done is not None else "not within 300 s")))  # fmt: skip
    print(f"first page: median {statistics.median(firsts):.1f} s"
          + (f"; all demo runs scored: median {statistics.median(scored):.1f} s" if scored else ""))  # fmt: skip


if __name__ == "__main__":
    main()
