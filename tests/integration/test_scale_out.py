"""Scale-out under faults, smaller than benchmarks/scale_out_faults.py: PostgreSQL, Redis and
three worker hosts in network namespaces; while 24 uploads are scored one host is cut off the
network, another worker is killed with SIGKILL, Redis and PostgreSQL are restarted. Every
accepted upload ends scored exactly once."""

from __future__ import annotations

import pytest

from tests.support.netns import why_not_available
from tests.support.paths import require_binary
from tests.support.scale_out import cluster, run

UNAVAILABLE = why_not_available()

pytestmark = [
    pytest.mark.integration,
    pytest.mark.slow,
    pytest.mark.exhaustive,  # ~90 s; tests/integration/test_faults.py plays each fault in make test
    pytest.mark.skipif(UNAVAILABLE is not None, reason=f"no network namespaces: {UNAVAILABLE}"),
]


def test_every_upload_is_scored_exactly_once_through_host_loss_kill_and_restarts(tmp_path):
    require_binary("redis-server")
    with cluster(tmp_path, "scale_out") as found:
        outcome = run(found, count=24, with_faults=True)
        logs = found.worker_logs()
    assert len(outcome.faults) == 5, outcome.faults
    assert outcome.uploads == 24
    assert (outcome.lost, outcome.duplicates, outcome.duplicate_rows) == (0, 0, 0), (
        outcome.line() + "\n" + logs[-4000:]
    )
    assert outcome.scored == outcome.uploads, outcome.line()
