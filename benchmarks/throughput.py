"""End-to-end scoring throughput: 21 E2E-test-sized submissions through the API, scored by 1 and
then 2 RQ workers. Prints seconds from the first upload to the last score and submissions/minute,
and to the last submission's textual statistics (the describing jobs, which workers take only
when no scoring job waits).

The stack is real and on loopback: PostgreSQL (throwaway cluster), redis-server, gunicorn
(``app.entry.wsgi:app``, 2 processes x 4 threads) and ``nlgboard worker`` processes. The test set is
E2E-test-sized and made of real E2E text: 630 MRs of the E2E training set with 4,693
references, as many as the E2E test set has (its references are held back). Each of the 21 systems outputs one held-out reference per MR, lightly varied per system
so that every file differs, as 21 teams' outputs would. Every submission is scored with the
full E2E profile (BLEU, NIST, METEOR, ROUGE-L, CIDEr, SER, per-item statistics, per-item
annotations), then described (textual statistics and D-levels), exactly as the board does.

The benchmark also prints the CPU seconds each part used from the first upload to the last
score: the workers (with their scoring processes), the web server, the database and itself
(uploading and asking for the scores), and their sum per submission, which does not depend on
how busy the machine is as wall time does.

Before each timed run one warm-up submission is scored, so the reference set's one-off textual
statistics (D-level parsing, run once per test set after its first submission) are done and the
workers' METEOR JVMs are started: the figures are the steady state of a busy deadline night.

Usage: python benchmarks/throughput.py [--submissions 21] [--workers 1,2]
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import resource
import shutil
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
from score_e2e import PeakMemory, tree_cpu

from tests.support.servers import (
    create_database,
    free_port,
    postgres_server,
    redis_server,
    wait_for_port,
)

DATA = Path(os.environ.get("NLGBOARD_SHARED_DATA", ROOT.parent / "shared" / "data")) / "e2e"
ITEMS = 630
REFERENCES = 4693
VARIANTS = (
    lambda text: text,
    lambda text: text.rstrip("."),
    lambda text: text.replace(" is ", " is a place that is ", 1),
    lambda text: text.lower(),
    lambda text: text.replace(",", ""),
    lambda text: text.replace(" and ", " & "),
    lambda text: " ".join(text.split()[::-1]) if len(text) % 7 == 0 else text,
)


def test_set() -> tuple[bytes, list[list[str]]]:
    """(references CSV: 630 MRs, 4,693 references as in the E2E test set; the held-out first
    reference of each MR, which the systems' outputs are made from)."""
    from scorer.io.e2e import read_dataset_csv

    items = read_dataset_csv((DATA / "trainset.csv").read_bytes(), "trainset.csv")
    chosen = [item for item in items if len(item.references) >= 9][:ITEMS]
    extra = REFERENCES - 7 * ITEMS  # 7 references each, one more for the first 283
    handle = io.StringIO()
    writer = csv.writer(handle, lineterminator="\n")
    writer.writerow(["mr", "ref"])
    for n, item in enumerate(chosen):
        for ref in item.references[1 : 9 if n < extra else 8]:
            writer.writerow([item.input, " ".join(ref.split())])
    held_out = [[" ".join(item.references[0].split())] for item in chosen]
    return handle.getvalue().encode("utf-8"), held_out


def outputs(held_out: list[list[str]], k: int) -> bytes:
    """System k's outputs: the held-out reference, varied by system."""
    step = 1 + k // len(VARIANTS)  # another order of the variants for each 7 systems
    lines = [VARIANTS[(k + n * step) % len(VARIANTS)](refs[0]) for n, refs in enumerate(held_out)]
    return ("\n".join(lines) + "\n").encode("utf-8")


def run_cli(env: dict[str, str], *args: str, stdin: bytes | None = None) -> str:
    nlgboard = str(Path(sys.executable).parent / "nlgboard")
    done = subprocess.run([nlgboard, *args], env=env, cwd=ROOT, capture_output=True,
                          input=stdin, check=True)  # fmt: skip
    return done.stdout.decode()


def seed(env: dict[str, str], references: Path) -> str:
    run_cli(env, "db", "upgrade")
    run_cli(env, "challenge", "create", "bench", "--title", "Throughput")
    run_cli(env, "track", "import", "bench", "test", "--kind", "e2e", "--refs", str(references),
            "--daily-limit", "0")  # fmt: skip
    code = (
        "from app.data.config import Settings\n"
        "from tests.support.factories import participant\n"
        "print(participant(Settings.from_env(), 'teams@bench.example', team='Teams'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, check=True,
                          capture_output=True, text=True)  # fmt: skip
    return done.stdout.strip().splitlines()[-1]


def upload(base: str, token: str, system: str, data: bytes) -> int:
    response = requests.post(
        f"{base}/api/v1/challenges/bench/tracks/test/submissions",
        files={"file": (f"{system}.txt", data)},
        data={"system": system},
        headers={"Authorization": f"Bearer {token}"},
        timeout=120,
    )
    response.raise_for_status()
    return response.json()["id"]


POLL_INTERVAL = 2.0
"""Seconds between a client's polls of its submission, as ``nlgboard-submit --wait`` polls."""


def wait_scored(base: str, token: str, ids: list[int], timeout: float, interval: float) -> int:
    """Poll each submission through the API, as the participants' tool does, until every one
    is scored (polling faster only takes the cores the scoring needs); the number of polls."""
    polls = 0
    pending = set(ids)
    deadline = time.time() + timeout
    session = requests.Session()
    while pending:
        if time.time() > deadline:
            raise TimeoutError(f"{len(pending)} submissions not scored in {timeout} s")
        for submission_id in sorted(pending):
            state = session.get(f"{base}/api/v1/submissions/{submission_id}",
                                headers={"Authorization": f"Bearer {token}"}, timeout=30).json()  # fmt: skip
            polls += 1
            if state["status"] == "failed":
                raise RuntimeError(f"submission {submission_id} failed: {state.get('error')}")
            if state["status"] == "scored":
                pending.discard(submission_id)
        if pending:
            time.sleep(interval)
    return polls


def last_finished(database_url: str, ids: list[int]) -> float:
    """When the last of these submissions was scored (its score committed), in ``time.time()``
    seconds: exact, unlike a poll's sighting."""
    from sqlalchemy import func, select

    from app.data.db import session_scope
    from app.data.models import Submission

    with session_scope(database_url) as session:
        last = session.scalar(
            select(func.max(Submission.finished_at)).where(Submission.id.in_(ids))
        )
    if last is None:
        raise RuntimeError("none of the submissions is scored")
    return last.timestamp()


def wait_outputs_described(database_url: str, ids: list[int], timeout: float) -> float:
    """Poll until every submission has its textual statistics; return when the last had."""
    from sqlalchemy import func, select

    from app.data.db import session_scope
    from app.data.models import Submission

    deadline = time.time() + timeout
    while time.time() < deadline:
        with session_scope(database_url) as session:
            waiting = session.scalar(
                select(func.count()).where(
                    Submission.id.in_(ids), Submission.described_at.is_(None)
                )
            )
        if not waiting:
            return time.perf_counter()
        time.sleep(0.2)
    raise TimeoutError(f"submissions not described in {timeout} s")


def wait_described(env: dict[str, str], timeout: float = 900) -> None:
    code = (
        "from sqlalchemy import select\n"
        "from app.data.db import session_scope\n"
        "from app.data.models import TestSet\n"
        "from app.data.config import Settings\n"
        "with session_scope(Settings.from_env().database_url) as s:\n"
        "    print(all(t.described is not None for t in s.scalars(select(TestSet))))\n"
    )
    deadline = time.time() + timeout
    while time.time() < deadline:
        done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, check=True,
                              capture_output=True, text=True)  # fmt: skip
        if done.stdout.strip() == "True":
            return
        time.sleep(2)
    raise TimeoutError("the test set's textual statistics were not computed")


def start_workers(env: dict[str, str], count: int, logs: Path) -> list[subprocess.Popen]:
    nlgboard = str(Path(sys.executable).parent / "nlgboard")
    workers = []
    for k in range(count):
        log = open(logs / f"worker-{len(list(logs.iterdir()))}-{k}.log", "wb")  # noqa: SIM115
        workers.append(subprocess.Popen([nlgboard, "worker"], env=env, cwd=ROOT,
                                        stdout=log, stderr=subprocess.STDOUT))  # fmt: skip
    return workers


def stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


def postmaster(database_url: str) -> int:
    """The PostgreSQL server process listening on the URL's port (its backends are children)."""
    port = database_url.rsplit(":", 1)[1].split("/")[0]
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if command[0].endswith(b"postgres") and f"-p {port}".encode() in b" ".join(command):
            return int(pid)
    raise RuntimeError(f"no PostgreSQL server on port {port}")


def cpu_by_role(roles: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds used so far by each role's process trees (the benchmark's own: itself)."""
    used = {role: sum(tree_cpu(pid) for pid in pids) for role, pids in roles.items()}
    own = resource.getrusage(resource.RUSAGE_SELF)
    return used | {"clients": own.ru_utime + own.ru_stime}


def timed_run(
    base,
    token,
    env,
    held_out,
    workers: int,
    submissions: int,
    logs: Path,
    roles: dict,
    interval: float,
) -> tuple[float, float, int, dict[str, float], int]:
    """Seconds from the first upload to the last score, and to the last description; the
    largest peak memory of one worker (its process tree: METEOR's JVMs or scoring processes);
    the CPU seconds each role used from the first upload to the last score."""
    processes = start_workers(env, workers, logs)
    roles = roles | {"workers": [process.pid for process in processes]}
    memories = [PeakMemory(process.pid, interval=0.25) for process in processes]
    for memory in memories:
        memory.__enter__()
    try:
        warm = [upload(base, token, f"warm-up-{workers}-{k}", outputs(held_out, 100 + k))
                for k in range(workers)]  # fmt: skip
        wait_scored(base, token, warm, 900, interval)
        wait_described(env)
        wait_outputs_described(env["DATABASE_URL"], warm, timeout=900)
        payloads = [outputs(held_out, k) for k in range(submissions)]
        ids: list[int] = []
        lock = threading.Lock()
        before = cpu_by_role(roles)
        start, start_clock = time.perf_counter(), time.time()

        def send(k: int) -> None:
            submission_id = upload(base, token, f"w{workers}-system-{k:02d}", payloads[k])
            with lock:
                ids.append(submission_id)

        threads = [threading.Thread(target=send, args=(k,)) for k in range(submissions)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        polls = wait_scored(base, token, ids, 3600, interval)
        after = cpu_by_role(roles)
        scored = last_finished(env["DATABASE_URL"], ids) - start_clock
        described = wait_outputs_described(env["DATABASE_URL"], ids, timeout=3600)
        peak = max(memory.peak for memory in memories)
        used = {role: after[role] - before[role] for role in after}
        return scored, described - start, peak, used, polls
    finally:
        for memory in memories:
            memory.__exit__()
        stop(processes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=21)
    parser.add_argument("--workers", default="1,2", help="Worker counts to run, in order.")
    parser.add_argument(
        "--meteor", choices=("python", "jar"), default="python", help="NLGBOARD_METEOR"
    )
    parser.add_argument(
        "--poll-interval",
        type=float,
        default=POLL_INTERVAL,
        help="Seconds between a client's polls (0.2: as the benchmark polled before 2026-11-28).",
    )
    parser.add_argument("--logs", type=Path, help="Keep the workers' and server's logs here.")
    args = parser.parse_args()
    if not (DATA / "trainset.csv").exists():
        sys.exit(f"needs the E2E training set at {DATA / 'trainset.csv'} (NLGBOARD_SHARED_DATA)")
    gunicorn = shutil.which("gunicorn") or str(Path(sys.executable).parent / "gunicorn")
    references, held_out = test_set()
    with ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        (work / "refs.csv").write_bytes(references)
        logs = args.logs or work / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        redis_url = stack.enter_context(redis_server(work))
        database = create_database(stack.enter_context(postgres_server()), "throughput")
        env = {**os.environ, "DATABASE_URL": database, "REDIS_URL": redis_url,
               "NLGBOARD_INSTANCE": str(work / "instance"), "SECRET_KEY": "throughput",
               "PYTHONPATH": str(ROOT), "NLGBOARD_WARM_UP": "e2e",
               "NLGBOARD_SECURE_COOKIES": "0", "NLGBOARD_METEOR": args.meteor}  # fmt: skip
        token = seed(env, work / "refs.csv")
        n_refs = references.count(b"\n") - 1
        print(f"test set: {ITEMS} MRs, {n_refs} references (E2E training text); "
              f"{args.submissions} submissions of {ITEMS} lines each")  # fmt: skip
        port = free_port()
        server = subprocess.Popen(
            [gunicorn, "--bind", f"127.0.0.1:{port}", "--workers", "2", "--threads", "4",
             "--worker-class", "gthread", "app.entry.wsgi:app"],
            env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=open(logs / "web.log", "wb"),  # noqa: SIM115
        )  # fmt: skip
        stack.callback(stop, [server])
        wait_for_port(port, timeout=60)
        base = f"http://127.0.0.1:{port}"
        for workers in (int(n) for n in args.workers.split(",")):
            roles = {"web": [server.pid], "database": [postmaster(database)]}
            seconds, described, peak, used, polls = timed_run(
                base,
                token,
                env,
                held_out,
                workers,
                args.submissions,
                logs,
                roles,
                args.poll_interval,
            )
            print(f"{workers} worker(s), METEOR {args.meteor}: {args.submissions} submissions "
                  f"scored in {seconds:.1f} s (first upload to last score), "
                  f"{60 * args.submissions / seconds:.1f} submissions/minute; textual statistics "
                  f"of all in {described:.1f} s; peak memory of a worker {peak / 2**20:.0f} MB")  # fmt: skip
            print("  CPU seconds from the first upload to the last score: "
                  + ", ".join(f"{role} {value:.1f}" for role, value in used.items())
                  + f"; {sum(used.values()) / args.submissions:.2f} a submission; "
                  f"{polls} polls of the scores")  # fmt: skip


if __name__ == "__main__":
    main()
