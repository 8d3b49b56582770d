"""Human-evaluation results: analysing a campaign with ``scorer.human``, and what is shown of
them: tables beside the automatic metrics, plot points and significance heatmaps, each through
the leaderboard's visibility rule for its viewer (``human_subjects.shown_subjects``)."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from app.data.errors import AnalysisRefused
from app.data.human_analysis import (
    AnalysisStatus,
    as_read,
    campaign_results,
    judgement_count,
    store_results,
    stored_judgements,
)
from app.data.judge_runs import compare_judges
from app.data.models import Campaign, Track, User
from app.web.errors import DomainError
from app.web.services import action
from app.web.services.access import Viewer
from app.web.services.audit import record
from app.web.services.campaigns import track_campaigns
from app.web.services.columns import human_column
from app.web.services.csv_cells import csv_cell
from app.web.services.human_judges import JudgeView, judge_views, judges_json
from app.web.services.human_subjects import Shown, shown_subjects, stored_subjects
from scorer.human import correlation
from scorer.human import judgements as files
from scorer.kinds import Profile

EXPORT_COLUMNS = (
    "item", "system", "annotator", "criterion", "score", "kind", "subset", "unit", "system_id"
)  # fmt: skip


def campaign_judgements(session: Session, campaign: Campaign) -> list[files.Judgement]:
    """Every judgement under the name it was judged by (the file's, for an import)."""
    return [as_read(j, j.system_name) for j in stored_judgements(session, campaign)]


def export_csv(session: Session, campaign: Campaign) -> str:
    """Every judgement in the long layout ``nlg-human`` reads: nothing collected is lost; the
    board's system id (empty for the references and systems not on the board) lets a
    re-import match each one to its system, whatever its name."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(EXPORT_COLUMNS)
    for stored in stored_judgements(session, campaign):
        j = as_read(stored, stored.system_name)
        writer.writerow(
            [
                *(csv_cell(v) for v in (j.item, j.system, j.annotator, j.criterion)),
                f"{j.score:g}",
                *(csv_cell(v) for v in (j.kind, j.subset, j.unit)),
                stored.system_id if stored.system_id is not None else "",
            ]
        )
    return buffer.getvalue()


CAMPAIGN_ACTIONS = ("analyse", "publish", "open")
ANALYSED_IN_REQUEST = 10_000
"""Judgements up to which "Compute results" analyses at once, in the organiser's request (a
few seconds at most); a larger campaign is left to the worker (``worker.human``: TrueSkill
over 180,000 RankME judgements takes most of a minute, past a web process's timeout)."""
QUEUED = "queued"


def campaign_action(session: Session, actor: User, campaign: Campaign, name: str) -> str | None:
    """An organiser's button on a campaign: compute the results, or toggle publication or
    whether annotators may work; recorded in the audit log saying which way a toggle went.
    ``QUEUED`` when the results are the worker's to compute: the caller enqueues the analysis
    once this has committed (the campaign is ``pending`` until the worker has stored them)."""
    if name not in CAMPAIGN_ACTIONS:
        raise DomainError(f"unknown action {name!r}")
    outcome = None
    with action(session):
        if name == "analyse":
            if judgement_count(session, campaign) > ANALYSED_IN_REQUEST:
                campaign.analysis, campaign.analysis_error = AnalysisStatus.PENDING, None
                outcome = QUEUED
            else:
                analyse(session, campaign)
            done = "human analyse"
        elif name == "publish":
            if campaign.results is None and not campaign.is_published:
                raise DomainError("compute the results before publishing them")
            campaign.is_published = not campaign.is_published
            done = "human publish" if campaign.is_published else "human unpublish"
        else:
            campaign.is_open = not campaign.is_open
            done = "human open" if campaign.is_open else "human close"
        record(session, actor, done, f"{campaign.track.slug}/{campaign.name}",
               campaign.track.challenge_id)  # fmt: skip
    return outcome


def analyse(session: Session, campaign: Campaign, runs: int | None = None) -> dict:
    """Compute and store the campaign's results now (``human_analysis.campaign_results``); a
    refusal says why to the organiser. Each automatic judge of the campaign is compared again
    with the judgements as they are now (``judge_runs.compare_judges``). Their correlation
    with the automatic metrics is not stored: a table computes it from the scores its viewer
    may see (``campaign_table``)."""
    try:
        results = campaign_results(session, campaign, runs)
    except AnalysisRefused as error:
        raise DomainError(str(error)) from None
    store_results(campaign, results)
    compare_judges(session, campaign)
    return results


def metric_correlation(
    profile: Profile, human: Mapping[str, float], scores: Mapping[str, Mapping[str, float]]
) -> dict | None:
    """Pearson r of each of the profile's metrics with ``human`` over the subjects that have
    scores (at least 3), with the Williams test between metrics; ``scores`` are the ones the
    reader may see, so the figure says nothing of a hidden score."""
    matched = {key: value for key, value in human.items() if key in scores}
    if len(matched) < 3:
        return None
    metrics = {
        metric: {key: scores[key][metric] for key in matched}
        for metric in profile.columns
        if all(metric in scores[key] for key in matched)
    }
    return correlation.correlate(matched, metrics).to_dict() if metrics else None


BESIDE = 5
"""How many automatic metrics a human table shows beside its own columns: the first in the
kind's order that a shown system has (no empty column), so the table still fits a page; the
leaderboard above it has them all."""


@dataclass(frozen=True)
class HumanRow:
    """One subject's row of a human table, as one viewer may see it."""

    subject: Shown
    values: list
    """The human columns' cells as the table prints them ("0.744", "1–2", a count)."""
    cluster: int | None
    scores: dict[str, float]
    """The table's automatic metrics this row has, as the viewer's leaderboard shows them."""
    printed: dict[str, str]
    """The same as the track's kind prints them (``Profile.printed``: decimals, scale), the
    one formatting the page, the API and the exports all use."""


@dataclass(frozen=True)
class HumanTable:
    """A campaign's results as one viewer may see them, with the automatic scores beside:
    the one table the page, the API and the exports each write out."""

    campaign: Campaign
    columns: list[str]
    rows: list[HumanRow]
    metrics: list[str]
    """The automatic metrics beside the human columns (``BESIDE``)."""
    correlation: dict | None
    """Pearson and Williams over the rows' systems (named by their labels)."""
    judges: list[JudgeView] = field(default_factory=list)
    """Automatic judges beside the humans, never among the rows (``human_judges``)."""


def human_tables(
    session: Session, track: Track, language: str | None, viewer: Viewer
) -> list[HumanTable]:
    """The published campaigns of ``track`` (in ``language``) with results, as ``viewer`` may
    see them."""
    tables = []
    for campaign in track_campaigns(session, track, published_only=True):
        if language and campaign.language != language:
            continue
        table = campaign_table(session, campaign, viewer)
        if table is not None:
            tables.append(table)
    return tables


def pending_campaigns(session: Session, track: Track, language: str | None) -> list[Campaign]:
    """The published campaigns of ``track`` (in ``language``) whose results the worker is
    still computing: their tables say so instead of being absent."""
    return [
        campaign
        for campaign in track_campaigns(session, track, published_only=True)
        if campaign.analysis == AnalysisStatus.PENDING
        and (not language or campaign.language == language)
    ]


def tables_json(tables: list[HumanTable]) -> list[dict]:
    """The API's form of ``human_tables``."""
    return [table_json(table) for table in tables]


def table_json(table: HumanTable) -> dict:
    """One table as JSON: each row's system by team and name, its human figures by column
    (as numbers), its significance cluster (TrueSkill's or DA's Wilcoxon rank-sum one), and
    the automatic metrics beside, as the viewer's leaderboard gives them (``scores``) and as
    the kind prints them (``printed``)."""
    profile = table.campaign.track.scoring_profile
    return {
        "name": table.campaign.name,
        "method": table.campaign.method,
        "criterion": table.campaign.criterion,
        "language": table.campaign.language,
        "clusters": table.campaign.clusters,
        "options": table.campaign.options or {},
        "options_text": table.campaign.options_text,
        "judgements": (table.campaign.results or {}).get("judgements"),
        "agreement": (table.campaign.results or {}).get("agreement"),
        **_quality_control(table.campaign),
        "columns": table.columns,
        "metrics": table.metrics,
        "printing": {metric: profile.printing(metric) for metric in table.metrics},
        "rows": [_row_json(table.columns, row) for row in table.rows],
        "correlation": table.correlation,
        "judges": judges_json(table.judges),
    }


def _row_json(columns: list[str], row: HumanRow) -> dict:
    subject = row.subject
    return {
        "system_id": subject.system_id,
        "team": subject.team,
        "system": subject.system,
        "label": subject.label,
        "references": subject.is_reference,
        "cluster": row.cluster,
        "values": dict(zip(columns, map(cell_number, row.values), strict=True)),
        "scores": row.scores,
        "printed": row.printed,
    }


def _quality_control(campaign: Campaign) -> dict:
    """A DA campaign's controls and how many annotators they kept and dropped (by rule)."""
    annotators = (campaign.results or {}).get("annotators")
    if not campaign.protocol.quality_controls or not annotators:
        return {}
    return {
        "quality_control": (campaign.results or {}).get(
            "quality_control", campaign.quality_control
        ),
        "annotators": {key: annotators.get(key) for key in ("total", "kept", "dropped")},
    }


def cell_number(value: object) -> object:
    """A table cell as a number where it is one ("0.744" -> 0.744); a rank range stays text."""
    if isinstance(value, str):
        try:
            return float(value) if "." in value else int(value)
        except ValueError:
            return value
    return value


def campaign_table(session: Session, campaign: Campaign, viewer: Viewer) -> HumanTable | None:
    """None without results, or with results from before they were keyed by subject."""
    subjects = stored_subjects(campaign.results)
    if subjects is None or campaign.results is None:
        return None
    results = campaign.results
    shown = shown_subjects(session, campaign.track, campaign.language, viewer, subjects)
    protocol = campaign.protocol
    printed = protocol.table(results)
    kept = [(shown[key], values, cluster) for key, values, cluster in printed.rows if key in shown]
    profile = campaign.track.scoring_profile
    metrics = [m for m in profile.columns if any(m in s.scores for s, _, _ in kept)][:BESIDE]
    rows = [_row(profile, metrics, *found) for found in kept]
    visible = {key: value for key, value in protocol.values(results).items() if key in shown}
    scores = {key: subject.scores for key, subject in shown.items() if subject.scores}
    correlation = metric_correlation(profile, visible, scores)
    if correlation is not None:
        correlation["systems"] = [shown[key].label for key in correlation["systems"]]
    judges = judge_views(session, campaign, viewer)
    return HumanTable(campaign, printed.columns, rows, metrics, correlation, judges)


def _row(
    profile: Profile, metrics: list[str], subject: Shown, values: list, cluster: int | None
) -> HumanRow:
    scores = {metric: subject.scores[metric] for metric in metrics if metric in subject.scores}
    printed = {metric: profile.printed(metric, value) for metric, value in scores.items()}
    return HumanRow(subject, values, cluster, scores, printed)


@dataclass(frozen=True)
class HumanPoints:
    """A campaign's human figure against one metric, one point per system (a plot's data)."""

    human: str
    labels: list[str]
    x: list[float]
    y: list[float]


def human_points(
    session: Session, campaign: Campaign, viewer: Viewer, metric: str
) -> HumanPoints | None:
    """The systems of this campaign alone that the publication view shows with ``metric``,
    named "team / system" and placed on the scale the tables print ``metric`` on (WebNLG+
    2020's BLEU on 0-1)."""
    subjects = stored_subjects(campaign.results)
    if subjects is None:
        return None
    shown = shown_subjects(
        session, campaign.track, campaign.language, viewer.for_publication(), subjects
    )
    column, value, rows = human_column(campaign)
    factor = campaign.track.scoring_profile.scale.get(metric, 1.0)
    points = [
        (shown[r["system"]].label, shown[r["system"]].scores[metric] * factor, float(r[value]))
        for r in rows
        if r["system"] in shown and metric in shown[r["system"]].scores
    ]
    return HumanPoints(
        f"{column} ({campaign.name})",
        [label for label, _, _ in points],
        [x for _, x, _ in points],
        [y for _, _, y in points],
    )


def significance_matrix(
    session: Session, campaign: Campaign, viewer: Viewer
) -> tuple[list[str], list[list[float]]] | None:
    """DA's Wilcoxon p-values between the systems the publication view shows (labels, rows)."""
    subjects = stored_subjects(campaign.results)
    wilcoxon = (campaign.results or {}).get("wilcoxon")
    if subjects is None or not wilcoxon:
        return None
    shown = shown_subjects(
        session, campaign.track, campaign.language, viewer.for_publication(), subjects
    )
    order = [
        row["system"]
        for row in (campaign.results or {}).get("systems", [])
        if row["system"] in shown
    ]
    p_values = [
        [wilcoxon.get(a, {}).get(b, math.nan) if a != b else math.nan for b in order] for a in order
    ]
    return [shown[key].label for key in order], p_values
