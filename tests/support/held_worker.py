"""``nlgboard worker`` whose scoring jobs stall after claiming (for the crash tests only).

RQ's ``SimpleWorker`` runs jobs in this process, so wrapping the job's computation here holds
every claimed submission (heartbeat running) for the given seconds: the test kills the worker
mid-job; the same holds the embedded worker of ``nlgboard run``. Usage:
``python -m tests.support.held_worker SECONDS [COMMAND ARGS...]`` (default command: ``worker``).
"""

from __future__ import annotations

import sys
import time

from worker import jobs


def main() -> None:
    hold = float(sys.argv[1])
    compute = jobs._compute

    def held(*args, **kwargs):
        time.sleep(hold)
        return compute(*args, **kwargs)

    jobs._compute = held
    from app.entry.cli import cli

    cli.main(sys.argv[2:] or ["worker"], prog_name="nlgboard")


if __name__ == "__main__":
    main()
