"""The analysing job (``worker.human``): a pending campaign's results stored once, a campaign
its method cannot analyse left ``failed`` saying why, a crash too (not pending for ever), and
the recovery pass enqueuing what is still pending."""

from __future__ import annotations

import pytest

from app.data.db import session_scope
from app.data.human_analysis import AnalysisStatus
from app.data.models import Campaign, Judgement
from app.web.services.tracks import get_track
from tests.support.factories import demo_track, run_queue
from worker import human
from worker.embedded import EmbeddedQueue
from worker.recovery import recover_analyses


def _campaign(settings, judged: bool = True, analysis: str | None = AnalysisStatus.PENDING) -> int:
    """A DA campaign of two systems on no board, three annotators, four items."""
    with session_scope(settings.database_url) as session:
        track = get_track(session, "demo", "main")
        campaign = Campaign(
            track_id=track.id, language="en", name="fluency", method="da",
            criterion="readability", hit_size=1, annotators_per_hit=1, quality_control="none",
            is_open=False, is_published=True, analysis=analysis,
        )  # fmt: skip
        session.add(campaign)
        session.flush()
        if judged:
            session.add_all(
                _judgement(campaign.id, item, annotator, system, score + item)
                for item in range(4)
                for annotator in ("r0", "r1", "r2")
                for system, score in (("alpha", 70.0), ("beta", 30.0))
            )
        return campaign.id


def _judgement(campaign_id: int, item: int, annotator: str, system: str, score: float):
    return Judgement(
        campaign_id=campaign_id, unit_key=f"{item}/{annotator}", item_key=str(item),
        system_name=system, annotator=annotator, criterion="readability", score=score,
    )  # fmt: skip


def _stored(settings, campaign_id: int) -> tuple[str | None, str | None, dict | None]:
    with session_scope(settings.database_url) as session:
        campaign = session.get(Campaign, campaign_id)
        return campaign.analysis, campaign.analysis_error, campaign.results


@pytest.fixture
def track(settings):
    demo_track(settings)


def test_a_pending_campaign_is_analysed_once(app, settings, track):
    campaign_id = _campaign(settings)
    assert human.analyse_campaign(campaign_id, settings) == "done"
    analysis, error, results = _stored(settings, campaign_id)
    assert (analysis, error) == (AnalysisStatus.DONE, None)
    assert [row["name"] for row in results["systems"]] == ["alpha", "beta"]
    assert results["judgements"] == 24 and "correlation" not in results
    assert human.analyse_campaign(campaign_id, settings) == "skipped"  # a second job: no work


def test_a_campaign_nobody_asked_the_worker_to_analyse_is_left_alone(app, settings, track):
    campaign_id = _campaign(settings, analysis=None)
    assert human.analyse_campaign(campaign_id, settings) == "skipped"
    assert human.analyse_campaign(campaign_id + 1, settings) == "skipped"  # gone
    assert _stored(settings, campaign_id) == (None, None, None)


def test_a_campaign_its_method_cannot_analyse_is_failed_saying_why(app, settings, track):
    campaign_id = _campaign(settings, judged=False)
    assert human.analyse_campaign(campaign_id, settings) == "failed"
    assert _stored(settings, campaign_id) == (
        AnalysisStatus.FAILED, "'fluency' has no judgements yet", None
    )  # fmt: skip


def test_a_crashing_analysis_is_failed_not_left_pending(app, settings, track, monkeypatch):
    campaign_id = _campaign(settings)

    def crash(session, campaign):
        raise OverflowError("math range error")

    monkeypatch.setattr(human, "campaign_results", crash)
    assert human.analyse_campaign(campaign_id, settings) == "failed"
    analysis, error, results = _stored(settings, campaign_id)
    assert analysis == AnalysisStatus.FAILED and results is None
    assert error == human.INTERNAL_ERROR and "math range" not in error


def test_recovery_enqueues_a_pending_analysis_that_the_queue_lost(app, settings, track):
    pending = _campaign(settings)
    queue = EmbeddedQueue(settings)  # a fresh process: the upload's queue is gone
    assert recover_analyses(settings, queue) == [pending]
    queue.start()
    queue.join()
    assert _stored(settings, pending)[0] == AnalysisStatus.DONE
    assert recover_analyses(settings, queue) == []


def test_the_apps_embedded_queue_runs_the_analysing_job(app, settings, track):
    campaign_id = _campaign(settings)
    app.extensions["nlgboard.queue"].enqueue_analysis(campaign_id)
    run_queue(app)
    assert _stored(settings, campaign_id)[0] == AnalysisStatus.DONE
