"""Scale-out under faults on one machine: PostgreSQL, Redis and three ``nlgboard worker`` hosts,
each in its own network namespace (made here: needs root and ``ip``), the web app in the root
namespace. N E2E uploads (the E2E test set's size: 630 MRs, 4,693 references, when
../shared/data is there) are scored once without faults, then, on a fresh stack, with one worker
host cut off the network (and back later), another worker killed with SIGKILL, Redis restarted
and PostgreSQL restarted. Prints, for both, the time from the first upload to the last score
and the counts: uploads, scored, duplicates, lost. The same runs smaller in
tests/integration/test_scale_out.py.

Usage: python benchmarks/scale_out_faults.py [--uploads 60] [--repeats 1]
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.netns import why_not_available
from tests.support.scale_out import cluster, run


def main() -> None:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    reason = why_not_available()
    if reason:
        sys.exit(f"cannot run: {reason}")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    seconds: dict[bool, list[float]] = {False: [], True: []}
    for repeat in range(args.repeats):
        for with_faults in (False, True):
            name = f"scale_{repeat}_{int(with_faults)}"
            with tempfile.TemporaryDirectory() as work, cluster(Path(work), name) as found:
                outcome = run(found, args.uploads, with_faults)
            print(outcome.line(), flush=True)
            seconds[with_faults].append(outcome.seconds)
    for with_faults, values in seconds.items():
        kind = "with faults" if with_faults else "no faults"
        print(f"{kind}: median {statistics.median(values):.1f} s to the last score")


if __name__ == "__main__":
    main()
