"""Faults with a hundred submissions in flight (real PostgreSQL, redis-server, two
``nlgboard worker`` processes): each submission ends scored exactly once or failed with a
reason; none lost, stuck or duplicated. benchmarks/faults.py prints the same as a table."""

from __future__ import annotations

import pytest

from tests.support.faults import FAULTS, fault_stack, run

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("fault", FAULTS)
def test_nothing_is_lost_stuck_or_duplicated(tmp_path, fault):
    with fault_stack(tmp_path, f"faults_{FAULTS.index(fault)}") as faults:
        report = run(faults, fault, count=100)
        logs = faults.stack.worker_logs()
    assert (report.lost, report.duplicated) == (0, 0), report.line() + "\n" + logs[-4000:]
    assert report.scored + report.failed == report.sent
    assert all(report.reasons), report.reasons  # a failure always says why
