"""``nlgboard worker`` killed (SIGKILL, its process group: the describing child too) the moment
its first scoring job has committed its outcome, before anything the job does next: posting
the team's mail, logging. For the crash tests only; fault injection stays out of the job code,
as in ``held_worker``. Usage: ``python -m tests.support.dying_worker [COMMAND ARGS...]``
(default command: ``worker``).
"""

from __future__ import annotations

import os
import signal
import sys

from worker import jobs


def main() -> None:
    score = jobs._score

    def score_then_die(*args, **kwargs):
        score(*args, **kwargs)  # the outcome (and what is written with it) has committed
        os.killpg(os.getpgid(0), signal.SIGKILL)

    jobs._score = score_then_die
    from app.entry.cli import cli

    cli.main(sys.argv[1:] or ["worker"], prog_name="nlgboard")


if __name__ == "__main__":
    main()
