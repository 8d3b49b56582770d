"""A published campaign a bundle brings is analysed through the production queue: the import
enqueues ``worker.human.analyse_campaign`` by name on RQ's describing queue and a real
``nlgboard worker`` process analyses it on PostgreSQL (issue 47: 180,000 judgements held the
upload's request for 45 s)."""

from __future__ import annotations

import pytest
import yaml
from sqlalchemy import select

from app.data.db import session_scope
from app.data.human_analysis import AnalysisStatus
from app.data.models import Campaign
from app.data.storage import storage_for
from app.web.services.bundles import Bundle, import_bundle
from tests.integration.conftest import wait_until
from tests.support.paths import DEMO_DATA
from tests.support.waiting import STATE_DEADLINE

HEADER = "item,subject,team,system,judged_as,annotator,criterion,score,kind,subset,unit\n"


def _bundle() -> Bundle:
    rows = "".join(
        f"{item},external,,,{system},r{annotator},readability,{score + item},genuine,,"
        f"{item}/{annotator}\n"
        for item in range(4)
        for annotator in range(3)
        for system, score in (("alpha", 70), ("beta", 30))
    )
    campaign = {
        "track": "t", "name": "fluency", "method": "da", "criterion": "readability",
        "language": "en", "quality_control": "none", "show_input": False,
        "show_reference": False, "hit_size": 1, "annotators_per_hit": 1, "published": True,
        "imported": {"file": "da.csv"}, "judgements": "human/t/1.csv",
    }  # fmt: skip
    definition = {
        "format": 1,
        "challenge": {"slug": "b", "title": "B"},
        "tracks": [
            {"slug": "t", "kind": "e2e", "test_sets": [{"language": "en", "references": "r.csv"}]}
        ],
        "campaigns": [campaign],
    }
    return Bundle(
        {
            "challenge.yaml": yaml.safe_dump(definition).encode(),
            "r.csv": (DEMO_DATA / "references.csv").read_bytes(),
            "human/t/1.csv": (HEADER + rows).encode(),
        }
    )


def _analysis(settings) -> str | None:
    with session_scope(settings.database_url) as session:
        return session.scalars(select(Campaign.analysis)).one()


@pytest.mark.integration
def test_the_rq_describing_worker_analyses_a_bundles_published_campaign(make_stack):
    stack = make_stack("redis", "postgres")
    queue = stack.app.extensions["nlgboard.queue"]
    with session_scope(stack.settings.database_url) as session:
        report = import_bundle(session, queue, storage_for(stack.settings), _bundle())
    assert len(report.analyses) == 1 and _analysis(stack.settings) == AnalysisStatus.PENDING
    assert queue.describe_queue.count == 1  # enqueued by name, for the describing worker
    stack.start_worker(None, "--queues", "describing")
    wait_until(
        lambda: _analysis(stack.settings) == AnalysisStatus.DONE,
        STATE_DEADLINE,
        "the campaign analysed",
        stack,
    )
    with session_scope(stack.settings.database_url) as session:
        results = session.scalars(select(Campaign)).one().results
    assert [row["name"] for row in results["systems"]] == ["alpha", "beta"]
