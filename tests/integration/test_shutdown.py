"""SIGTERM and SIGINT to ``nlgboard worker`` and ``nlgboard run`` while a submission is being
scored: the process and every process it started (scoring processes, their fork server) are
gone within 5 s, and the submission is handed back, then scored exactly once by the next worker
or the board's next start.

The processes are found through ``/proc``: each board runs in a session of its own, and a child
keeps its session id when its parent dies, so an orphan left behind is still found.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from app.data.db import session_scope
from app.data.models import Submission, SubmissionStatus
from scorer.kinds import get_profile
from tests.conftest import make_settings, migrated_database
from tests.integration.conftest import wait_until
from tests.integration.test_pipeline import SR18_WORKER, poll, sr18_submission, submission_row
from tests.support.factories import participant, sr18_tracks
from tests.support.paths import PROJECT_ROOT
from tests.support.servers import free_port, wait_for_port
from tests.support.waiting import STATE_DEADLINE

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc"),
]

STOP_WITHIN = 5.0


def session_processes(session_id: int) -> list[int]:
    """Every live process of the session ``session_id`` (zombies excluded)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session_id and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def stop_and_time(process: subprocess.Popen, signum: signal.Signals) -> float:
    """Send ``signum`` to the process alone (not its group, as systemd's or docker's stop
    may); return the seconds until it and all its session are gone."""
    started = time.monotonic()
    process.send_signal(signum)
    process.wait(timeout=30)
    while session_processes(process.pid) and time.monotonic() - started < 30:
        time.sleep(0.05)
    left = session_processes(process.pid)
    for pid in left:  # do not leave them to the next test
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes left behind: {left}"
    return time.monotonic() - started


def with_children(session_id: int, at_least: int) -> list[int]:
    return wait_until(
        lambda: (found := session_processes(session_id)) and len(found) >= at_least and found,
        STATE_DEADLINE,
        f"the scoring processes of session {session_id} to start",
    )


def test_sigterm_to_a_worker_hands_its_job_back_and_ends_every_child(make_stack):
    stack = make_stack("redis")
    token, submission_id = sr18_submission(stack)
    held = stack.start_worker(hold_seconds=600, NLGBOARD_METEOR_PROCESSES="2")
    wait_until(
        lambda: submission_row(stack, submission_id)[0].status == SubmissionStatus.RUNNING,
        STATE_DEADLINE,
        "the worker to claim the submission",
        stack,
    )
    with_children(held.pid, at_least=3)  # the worker and its two scoring processes

    assert stop_and_time(held, signal.SIGTERM) < STOP_WITHIN
    row = submission_row(stack, submission_id)[0]
    assert (row.status, row.claim_token) == (SubmissionStatus.QUEUED, None)

    stack.start_worker(**SR18_WORKER)
    assert poll(stack, token, submission_id)["status"] == "scored"
    row, n_scores, _ = submission_row(stack, submission_id)
    assert row.attempts == 2
    assert n_scores == len(get_profile("sr18").columns)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_stopped_board_hands_its_job_back_and_ends_every_child(tmp_path, signum):
    settings = make_settings(tmp_path / "instance")
    migrated_database(settings)
    sr18_tracks(settings)
    token = participant(settings, "team@uni.example", team="Uni NLG")
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(PROJECT_ROOT),
        "NLGBOARD_INSTANCE": str(settings.instance_path),
        "DATABASE_URL": settings.database_url,
        "NLGBOARD_WARM_UP": "e2e",
        "NLGBOARD_METEOR_PROCESSES": "2",
        "NLGBOARD_QUEUED_GRACE_SECONDS": "0",
    }
    env.pop("REDIS_URL", None)

    def start(*command: str) -> subprocess.Popen:
        with (tmp_path / "board.log").open("ab") as log:
            process = subprocess.Popen(
                [sys.executable, *command, "run", "--port", str(port)],
                env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        wait_for_port(port, timeout=STATE_DEADLINE)
        return process

    board = start("-m", "tests.support.held_worker", "600")
    # The warm-up starts them while no job runs (it gives way to a job that comes first).
    with_children(board.pid, at_least=4)  # the board, a fork server, two scoring processes
    response = requests.post(
        f"http://127.0.0.1:{port}/api/v1/challenges/sr18/tracks/shallow/submissions",
        headers={"Authorization": f"Bearer {token}"},
        files={"file": ("en_out.txt", b"The chef cooks pasta .\nOur cat sleeps .\n"
                                      b"Visitors liked the bridge .\nIt rained .\n")},
        data={"system": "wol", "language": "en"},
        timeout=30,
    )  # fmt: skip
    assert response.status_code == 202, response.text
    submission_id = response.json()["id"]

    def status() -> SubmissionStatus:
        with session_scope(settings.database_url) as session:
            return session.get(Submission, submission_id).status

    wait_until(
        lambda: status() == SubmissionStatus.RUNNING, STATE_DEADLINE, "the board to claim it"
    )

    assert stop_and_time(board, signum) < STOP_WITHIN
    assert status() == SubmissionStatus.QUEUED

    board = start("-c", "from app.entry.cli import main; main()")
    try:
        wait_until(
            lambda: status() == SubmissionStatus.SCORED,
            STATE_DEADLINE,
            "the next start to score it",
        )
    finally:
        stop_and_time(board, signal.SIGTERM)
    with session_scope(settings.database_url) as session:
        assert session.get(Submission, submission_id).attempts == 2
