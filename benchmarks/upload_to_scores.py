"""Upload to visible scores: seconds from sending an E2E upload through the API to the API
showing its scores, on the embedded default (``nlgboard run``: SQLite, the in-process worker)
and on the production stack (PostgreSQL, redis-server, gunicorn, one ``nlgboard worker``).

For each start-up of the board: the *first* upload is sent as soon as the site answers (the
worker started at the same moment, still preparing the open track's test set and its profiles'
resources as ``NLGBOARD_WARM_UP`` says), then ``--warm`` more uploads one after the other (a warm worker).
Prints the medians over ``--starts`` start-ups.

The test set is E2E-test-sized (throughput.py's: 630 MRs of the E2E training set, 4,693
references) when ../shared/data is there, else the demo's E2E set.

Usage: python benchmarks/upload_to_scores.py [--starts 3] [--warm 5] [--stack embedded,production]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import requests
from throughput import DATA, outputs, seed, stop, test_set

from tests.support.servers import (
    create_database,
    free_port,
    postgres_server,
    redis_server,
)

BIN = Path(sys.executable).parent


def test_data() -> tuple[bytes, list[list[str]]]:
    if (DATA / "trainset.csv").exists():
        return test_set()
    from scorer.io.e2e import read_dataset_csv

    demo = ROOT / "app" / "demo_data" / "references.csv"
    items = read_dataset_csv(demo.read_bytes(), demo.name)
    return demo.read_bytes(), [[" ".join(item.references[0].split())] for item in items]


def answers(url: str) -> bool:
    try:
        return requests.get(url, timeout=2).status_code == 200
    except requests.RequestException:
        return False


def upload_to_scores(base: str, token: str, system: str, data: bytes) -> float:
    """Seconds from sending the upload to the API answering ``scored`` (polled every 20 ms)."""
    session = requests.Session()
    headers = {"Authorization": f"Bearer {token}"}
    started = time.perf_counter()
    response = session.post(
        f"{base}/api/v1/challenges/bench/tracks/test/submissions",
        files={"file": (f"{system}.txt", data)},
        data={"system": system},
        headers=headers,
        timeout=120,
    )
    response.raise_for_status()
    submission_id = response.json()["id"]
    while time.perf_counter() - started < 300:
        state = session.get(f"{base}/api/v1/submissions/{submission_id}", headers=headers,
                            timeout=30).json()  # fmt: skip
        if state["status"] == "scored" and state.get("scores"):
            return time.perf_counter() - started
        if state["status"] == "failed":
            raise RuntimeError(f"submission {submission_id} failed: {state.get('error')}")
        time.sleep(0.02)
    raise TimeoutError(f"submission {submission_id} not scored in 300 s")


def one_start(stack: str, env: dict[str, str], token: str, held_out, start: int, warm: int,
              work: Path) -> tuple[float, list[float]]:  # fmt: skip
    """Start the board, send the first upload as soon as it answers, then the warm ones."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(work / f"{stack}-{start}.log", "wb")  # noqa: SIM115
    if stack == "embedded":
        command = [[str(BIN / "nlgboard"), "run", "--port", str(port)]]
    else:
        command = [
            [str(BIN / "gunicorn"), "--bind", f"127.0.0.1:{port}", "--workers", "2",
             "--threads", "4", "--worker-class", "gthread", "app.entry.wsgi:app"],
            [str(BIN / "nlgboard"), "worker"],
        ]  # fmt: skip
    processes = [
        subprocess.Popen(c, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        for c in command
    ]
    try:
        while not answers(base + "/healthz"):
            if any(p.poll() is not None for p in processes):
                raise SystemExit((work / f"{stack}-{start}.log").read_text()[-3000:])
            time.sleep(0.05)
        first = upload_to_scores(base, token, f"{stack}-{start}-first", outputs(held_out, start))
        later = [
            upload_to_scores(base, token, f"{stack}-{start}-warm-{k}", outputs(held_out, 7 + k))
            for k in range(warm)
        ]
        return first, later
    finally:
        stop(processes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--warm", type=int, default=5)
    parser.add_argument("--stack", default="embedded,production")
    args = parser.parse_args()
    references, held_out = test_data()
    n_references = references.count(b"\n") - 1
    print(f"test set: {len(held_out)} MRs, {n_references} references; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")  # fmt: skip
    for stack_name in args.stack.split(","):
        with ExitStack() as stack:
            work = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            (work / "refs.csv").write_bytes(references)
            env = {**os.environ, "NLGBOARD_INSTANCE": str(work / "instance"),
                   "SECRET_KEY": "bench", "PYTHONPATH": str(ROOT), "NLGBOARD_WARM_UP": "e2e",
                   "NLGBOARD_SECURE_COOKIES": "0"}  # fmt: skip
            env.pop("DATABASE_URL", None)
            env.pop("REDIS_URL", None)
            if stack_name == "production":
                env["REDIS_URL"] = stack.enter_context(redis_server(work))
                env["DATABASE_URL"] = create_database(
                    stack.enter_context(postgres_server()), "uploads"
                )
            token = seed(env, work / "refs.csv")
            firsts, warms = [], []
            for start in range(args.starts):
                first, later = one_start(stack_name, env, token, held_out, start, args.warm, work)
                firsts.append(first)
                warms += later
                print(f"  {stack_name} start {start + 1}: first upload {first:.2f} s, warm "
                      + ", ".join(f"{s:.2f}" for s in later))  # fmt: skip
            print(f"{stack_name}: first upload after start-up median "
                  f"{statistics.median(firsts):.2f} s; warm median {statistics.median(warms):.2f} s"
                  f" ({len(warms)} uploads)", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
