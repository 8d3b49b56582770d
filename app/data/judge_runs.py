"""An automatic judge's comparison with a campaign's humans, computed from the stored rows.

Here, below the web layer, because two callers re-analyse a campaign: the organisers' "Compute
results" and the worker's job for a bundle's campaign; each then compares every judge of the
campaign again (``compare_judges``), so the figures on the page are those of the judgements the
campaign holds now. The judge's scores are read from ``judge_scores`` and the humans' from
``judgements``: the two meet only in ``scorer.human.judge.compare``, never in a human analysis.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.human_analysis import by_subject, stored_judgements, subject_key
from app.data.models import Campaign, JudgeRun, JudgeScore, utcnow
from scorer.errors import InputError
from scorer.human import judge
from scorer.human import judgements as files

JUDGE_ANNOTATOR = "judge"
"""The annotator the judge's scores are read as (``compare`` keeps it apart as its own coder)."""


def campaign_runs(session: Session, campaign: Campaign) -> list[JudgeRun]:
    return list(
        session.scalars(
            select(JudgeRun).where(JudgeRun.campaign_id == campaign.id).order_by(JudgeRun.id)
        )
    )


def judge_judgements(session: Session, run: JudgeRun) -> list[files.Judgement]:
    """The run's scores as ``scorer.human`` reads judgements, each system by its subject key."""
    rows = session.scalars(select(JudgeScore).where(JudgeScore.run_id == run.id))
    return [
        files.Judgement(
            row.item_key,
            subject_key(row.system_id, row.is_reference, row.system_name),
            JUDGE_ANNOTATOR,
            row.criterion,
            row.score,
        )
        for row in rows
    ]


def comparison(
    humans: list[files.Judgement], scores: list[files.Judgement], run: JudgeRun, criterion: str
) -> dict:
    """``compare`` on the campaign's criterion, systems keyed by subject; ValueError when the
    judge and the humans share no output."""
    spec = judge.JudgeSpec.parse(run.spec, run.filename)
    return judge.compare(humans, scores, spec, criterion).to_dict()


def compare_run(session: Session, campaign: Campaign, run: JudgeRun) -> None:
    """Store the run's comparison with the campaign's judgements as they are now; when they no
    longer share an output with the judge, the reason instead (shown to the organisers)."""
    humans, _ = by_subject(stored_judgements(session, campaign))
    try:
        run.comparison = comparison(humans, judge_judgements(session, run), run, campaign.criterion)
        run.comparison_error = None
    except (ValueError, InputError) as error:
        run.comparison, run.comparison_error = None, str(error)[:500]
    run.compared_at = utcnow()


def compare_judges(session: Session, campaign: Campaign) -> None:
    """Every judge of ``campaign`` compared again: called wherever the campaign is analysed."""
    for run in campaign_runs(session, campaign):
        compare_run(session, campaign, run)
