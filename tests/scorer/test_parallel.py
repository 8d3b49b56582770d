"""Scoring processes end with the process that started them, even when it is killed: a worker
host's SIGKILL must not leave its METEOR processes and their fork server behind for ever."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scorer.parallel import _alive

ROOT = Path(__file__).resolve().parents[2]

CREATOR = """
import json, os, sys, threading, time
from scorer import parallel

if sys.argv[1] == "forkserver":
    threading.Thread(target=time.sleep, args=(600,), daemon=True).start()  # not forked alone
pools = parallel.pools_for(json.dumps)
print(json.dumps([pool.submit(os.getpid).result() for pool in pools]), flush=True)
time.sleep(600)
"""


@pytest.mark.parametrize("start", ["fork", "forkserver"])
def test_scoring_processes_end_when_their_creator_is_killed(start):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NLGBOARD_METEOR_PROCESSES": "2"}
    with subprocess.Popen(
        [sys.executable, "-c", CREATOR, start], env=env, stdout=subprocess.PIPE, text=True
    ) as creator:
        try:
            pids = json.loads(creator.stdout.readline())
            assert len(pids) == 2 and all(_alive(pid) for pid in pids)
            creator.send_signal(signal.SIGKILL)
            creator.wait(10)
            deadline = time.monotonic() + 15
            while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
                time.sleep(0.2)
            assert not any(_alive(pid) for pid in pids), "they outlived their creator"
        finally:
            creator.kill()


def test_a_reaped_or_unknown_process_is_not_alive():
    finished = subprocess.run([sys.executable, "-c", "pass"], check=True)
    assert finished.returncode == 0
    assert _alive(os.getpid())
    assert not _alive(2**22 + 12345)  # above the kernel's pid_max default
