"""Faults with N submissions in flight, on a real stack: PostgreSQL, redis-server, the app over
HTTP and two ``nlgboard worker`` processes. For each fault, prints submissions sent, scored,
failed, lost (not scored or failed at the end) and duplicated (scored more than once).

Faults: a worker killed with SIGKILL mid-queue (a replacement starts); redis-server killed and
started again empty (every queued job gone); PostgreSQL stopped for 3 s; every job enqueued
twice more under other job ids (two workers on the same submission). The same scenarios run in
``make test`` (tests/integration/test_faults.py).

Usage: python benchmarks/faults.py [--submissions 100] [--fault NAME ...]
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.faults import FAULTS, fault_stack, run


def main() -> None:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per upload otherwise
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=100)
    parser.add_argument("--fault", action="append", choices=FAULTS)
    args = parser.parse_args()
    for number, fault in enumerate(args.fault or FAULTS):
        with tempfile.TemporaryDirectory() as work, fault_stack(Path(work), f"f{number}") as stack:
            report = run(stack, fault, count=args.submissions)
        print(report.line(), flush=True)
        for reason in report.reasons:
            print(f"{'':24} failed because: {reason}")


if __name__ == "__main__":
    main()
