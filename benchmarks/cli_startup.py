"""Wall time of ``nlgboard`` commands that do not score, each in a fresh process on a fresh
instance folder: ``--help`` (no app), then commands that build the app without its pages and
touch the database. The figure is the median of the repeats, in seconds, beside the floor of
importing Flask and SQLAlchemy alone.

Usage: python benchmarks/cli_startup.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NLGBOARD = Path(sys.executable).parent / "nlgboard"
COMMANDS = [
    ["--help"],
    ["db", "upgrade"],
    ["user", "create", "bench@example.org", "--password", "a-long-passphrase"],
    ["challenge", "create", "bench", "--title", "Bench"],
    ["status"],
]


def timed(command: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, env=env, cwd=ROOT, capture_output=True, check=False)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    floor = [
        timed([sys.executable, "-c", "import flask, sqlalchemy.orm"], dict(os.environ))
        for _ in range(args.repeats)
    ]
    print(f"{'import flask, sqlalchemy.orm (floor)':<45} median {statistics.median(floor):.2f} s")
    runs: dict[str, list[float]] = {" ".join(c): [] for c in COMMANDS}
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory() as instance:
            env = {**os.environ, "NLGBOARD_INSTANCE": instance, "DATABASE_URL": ""}
            env.pop("REDIS_URL", None)
            for command in COMMANDS:  # in order: the later ones need the schema
                runs[" ".join(command)].append(timed([str(NLGBOARD), *command], env))
    for name, times in runs.items():
        print(f"nlgboard {name:<36} median {statistics.median(times):.2f} s "
              f"(min {min(times):.2f}, max {max(times):.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
