"""The analysing job: a human-evaluation campaign's results computed from its judgements, for a
published campaign a bundle brings (TrueSkill's bootstrap over 180,000 RankME judgements takes
the better part of a minute, too long to hold the organiser's upload request).

It runs on the describing queue, beside the scoring and never before a waiting score: what it
computes is not a score anyone waits to see first. The database is the truth, as for
submissions: the campaign is ``pending`` until the job has stored its results (``done``) or
why it could not (``failed``), and the recovery pass enqueues a pending one again.
"""

from __future__ import annotations

import logging

from app.data.config import Settings
from app.data.db import session_scope
from app.data.errors import AnalysisRefused
from app.data.human_analysis import (
    AnalysisStatus,
    campaign_results,
    store_failure,
    store_results,
)
from app.data.judge_runs import compare_judges
from app.data.models import Campaign

log = logging.getLogger(__name__)

INTERNAL_ERROR = (
    "The analysis failed because of an internal error on our side, not because of the "
    "judgements; the board's log has the details. Compute the results again from this page."
)


def analyse_campaign(campaign_id: int, settings: Settings | None = None) -> str:
    """Analyse one campaign whose analysis is pending; return what happened (``done``,
    ``failed`` or ``skipped``: gone, or analysed by an earlier run of the job). A crash is
    logged and stored as a failure, so the recovery pass does not run it again and again."""
    settings = settings or Settings.from_env()
    try:
        return _analyse(settings, campaign_id)
    except Exception:
        log.exception("campaign %s: the analysis crashed", campaign_id)
        _fail(settings, campaign_id, AnalysisRefused(INTERNAL_ERROR))
        return "failed"


def _analyse(settings: Settings, campaign_id: int) -> str:
    with session_scope(settings.database_url) as session:
        campaign = session.get(Campaign, campaign_id)
        if campaign is None or campaign.analysis != AnalysisStatus.PENDING:
            return "skipped"
        try:
            results = campaign_results(session, campaign)
        except AnalysisRefused as error:
            log.warning("campaign %s: analysis refused: %s", campaign_id, error)
            store_failure(campaign, error)
            return "failed"
        store_results(campaign, results)
        compare_judges(session, campaign)
    return "done"


def _fail(settings: Settings, campaign_id: int, error: AnalysisRefused) -> None:
    with session_scope(settings.database_url) as session:
        campaign = session.get(Campaign, campaign_id)
        if campaign is not None and campaign.analysis == AnalysisStatus.PENDING:
            store_failure(campaign, error)
