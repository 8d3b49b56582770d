"""On RQ, describing has a worker process of its own: a score never waits behind a description
in progress, and no description starts while a score waits."""

from __future__ import annotations

from pathlib import Path

import pytest
from rq.job import Job

from app.data.queue import RedisQueue
from tests.integration.conftest import Stack, wait_until
from tests.integration.test_pipeline import SR18_WORKER, poll, sr18_submission
from tests.support.waiting import STATE_DEADLINE

HOLD = "tests.support.blocking_jobs.hold"


def hold_describing_queue(stack: Stack, folder: Path) -> Job:
    """A describing-queue job that runs until the test releases it."""
    queue = RedisQueue(stack.settings.redis_url)
    return queue.describe_queue.enqueue_call(
        HOLD, args=(str(folder),), job_id="describe-held", timeout=600
    )


@pytest.mark.integration
def test_a_running_describing_job_does_not_delay_a_score(make_stack, tmp_path):
    stack = make_stack("redis")
    stack.start_worker(**SR18_WORKER)
    held = hold_describing_queue(stack, tmp_path)
    wait_until(
        lambda: (tmp_path / "started").exists(),
        STATE_DEADLINE,
        "the describing job to start",
        stack,
    )
    try:
        token, submission_id = sr18_submission(stack)
        status = poll(stack, token, submission_id)
        assert status["status"] == "scored", status
        assert held.get_status(refresh=True) == "started"  # still describing meanwhile
    finally:
        (tmp_path / "released").touch()
    wait_until(
        lambda: held.get_status(refresh=True) == "finished", STATE_DEADLINE, "the release", stack
    )


@pytest.mark.integration
def test_no_describing_job_starts_while_a_scoring_job_waits(make_stack, tmp_path):
    stack = make_stack("redis")
    describer = stack.start_worker(None, "--queues", "describing", **SR18_WORKER)
    token, submission_id = sr18_submission(stack)  # waits: no scoring worker yet
    held = hold_describing_queue(stack, tmp_path)
    try:
        wait_until(
            lambda: "describing" in stack.worker_logs(),
            STATE_DEADLINE,
            "the describing worker",
            stack,
        )
        with pytest.raises(AssertionError):
            wait_until(lambda: (tmp_path / "started").exists(), 3, "no start")
        assert held.get_status(refresh=True) == "queued" and describer.poll() is None
        stack.start_worker(None, "--queues", "mail,scoring", **SR18_WORKER)
        assert poll(stack, token, submission_id)["status"] == "scored"
        wait_until(
            lambda: (tmp_path / "started").exists(), STATE_DEADLINE, "the describing job", stack
        )
    finally:
        (tmp_path / "released").touch()
