"""Human-evaluation results: importing judgements collected elsewhere, analysing a campaign with
``scorer.human`` and the tables the track page shows beside the automatic metrics."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Campaign, Judgement, Method, Track, utcnow
from app.services import DomainError, add_unique
from app.services.access import ORGANISERS
from app.services.campaigns import CRITERIA, track_campaigns
from app.services.csv_cells import csv_cell
from app.services.leaderboard import default_language, leaderboard
from scorer.errors import InputError
from scorer.human import correlation, direct_assessment, rose, trueskill_rank
from scorer.human import judgements as files
from scorer.human.heatmap import heatmap_svg
from scorer.profiles import get_profile

EXPORT_COLUMNS = ("item", "system", "annotator", "criterion", "score", "kind", "subset", "unit")


def import_judgements(
    session: Session,
    track: Track,
    name: str,
    method: str,
    criterion: str,
    data: bytes,
    filename: str,
    language: str | None = None,
) -> Campaign:
    """A closed campaign holding the file's judgements: the E2E RankME layout or the long CSV.

    The whole file is read and checked before anything is stored; a bad file stores nothing.
    """
    if method not in CRITERIA:
        raise DomainError(f"method {method!r} is not one of {', '.join(CRITERIA)}")
    notes: dict = {"file": filename}
    if method == Method.RANKME:
        ratings = files.read_ratings(data, filename, criterion)
        rows = [
            files.Judgement(r.item, system, r.annotator, r.criterion, score, unit=r.unit)
            for r in ratings.rankings
            for system, score in r.scores.items()
        ]
        notes.update(ratings.notes())
    else:
        rows = files.read_judgements(data, filename)
        if method == Method.DA:
            rows = [row for row in rows if row.criterion == criterion]
        if not rows:
            raise InputError(f"holds no judgements for {criterion!r}", filename=filename)
    notes["judgements"] = len(rows)
    campaign = Campaign(
        track_id=track.id,
        language=language or default_language(track) or track.language,
        name=name,
        method=method,
        criterion=criterion,
        show_input=False,
        show_reference=False,
        hit_size=1,
        annotators_per_hit=1,
        is_open=False,
        imported=notes,
    )
    add_unique(session, campaign, duplicate=f"track {track.slug!r} already has {name!r}")
    add_unique(
        session,
        *(
            Judgement(
                campaign_id=campaign.id,
                unit_key=row.unit or f"{row.item}/{row.annotator}/{row.kind}",
                item_key=row.item,
                system_name=row.system,
                annotator=row.annotator,
                criterion=row.criterion,
                score=row.score,
                kind=row.kind,
                subset=row.subset,
            )
            for row in rows
        ),
        duplicate=f"{filename}: an annotator scores the same output twice in one unit; "
        "give each ranking its own unit",
    )
    return campaign


def campaign_judgements(session: Session, campaign: Campaign) -> list[files.Judgement]:
    return [
        files.Judgement(
            j.item_key,
            j.system_name,
            j.annotator,
            j.criterion,
            j.score,
            j.kind,
            j.subset,
            j.unit_key,
        )
        for j in session.scalars(
            select(Judgement).where(Judgement.campaign_id == campaign.id).order_by(Judgement.id)
        )
    ]


def export_csv(session: Session, campaign: Campaign) -> str:
    """Every judgement in the long layout ``nlg-human`` reads: nothing collected is lost."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(EXPORT_COLUMNS)
    for j in campaign_judgements(session, campaign):
        writer.writerow(
            [
                *(csv_cell(v) for v in (j.item, j.system, j.annotator, j.criterion)),
                f"{j.score:g}",
                *(csv_cell(v) for v in (j.kind, j.subset, j.unit)),
            ]
        )
    return buffer.getvalue()


def analyse(session: Session, campaign: Campaign, runs: int = trueskill_rank.RUNS) -> dict:
    """Compute and store the campaign's results (TrueSkill, DA or ROSE) and their correlation
    with the track's automatic metrics."""
    judgements = campaign_judgements(session, campaign)
    if not judgements:
        raise DomainError(f"{campaign.name!r} has no judgements yet")
    if campaign.method == Method.RANKME:
        comparisons = trueskill_rank.pairwise(r.scores for r in files.rankings_of(judgements))
        try:
            result = trueskill_rank.rank(comparisons, runs=runs)
        except ValueError as error:
            raise DomainError(str(error)) from None
        results = result.to_dict()
        human = {row["system"]: row["mu"] for row in results["systems"]}
    elif campaign.method == Method.DA:
        assessed = direct_assessment.analyse(judgements, campaign.criterion)
        results = assessed.to_dict()
        if assessed.systems:
            names = [row.system for row in assessed.systems]
            results["heatmap_svg"] = heatmap_svg(names, assessed.p_values, campaign.criterion)
        human = {row.system: row.z for row in assessed.systems}
    else:
        try:
            rows = rose.analyse(judgements)
        except InputError as error:
            raise DomainError(str(error)) from None
        results = {"rows": [row.__dict__ for row in rows]}
        human = {row.system: row.rose for row in rows if not row.subset.endswith(":orig")}
    results["judgements"] = len(judgements)
    results["annotator_count"] = len({j.annotator for j in judgements})
    results["correlation"] = _correlation(session, campaign, human)
    campaign.results = results
    campaign.results_at = utcnow()
    return results


def metric_scores(session: Session, track: Track, language: str) -> dict[str, dict[str, float]]:
    """system name (case-folded) -> metric -> headline score, from the leaderboard."""
    _metrics, rows = leaderboard(
        session, track, viewer=ORGANISERS, language=language, include_secondary=True
    )
    return {row.system.casefold(): row.scores for row in rows}


def _correlation(session: Session, campaign: Campaign, human: dict[str, float]) -> dict | None:
    scores = metric_scores(session, campaign.track, campaign.language)
    matched = {name: value for name, value in human.items() if name.casefold() in scores}
    if len(matched) < 3:
        return None
    profile = get_profile(campaign.track.profile)
    metrics = {
        metric: {name: scores[name.casefold()][metric] for name in matched}
        for metric in profile.columns
        if all(metric in scores[name.casefold()] for name in matched)
    }
    return correlation.correlate(matched, metrics).to_dict() if metrics else None


@dataclass(frozen=True)
class HumanTable:
    """A published campaign as the track page shows it: rows with the automatic scores."""

    campaign: Campaign
    columns: list[str]
    rows: list[dict]
    metrics: list[str]


def human_tables(
    session: Session, track: Track, language: str | None, labels: dict[str, str] | None = None
) -> list[HumanTable]:
    """The published campaigns of ``track`` (in ``language``) with results; the leaderboard's
    scores are read once per language, not once per campaign. ``labels``: real name -> shown
    name of anonymised systems (``hidden_names``)."""
    scores: dict[str, dict[str, dict[str, float]]] = {}
    tables = []
    for campaign in track_campaigns(session, track, published_only=True):
        if campaign.results is None or (language and campaign.language != language):
            continue
        if campaign.language not in scores:
            scores[campaign.language] = metric_scores(session, track, campaign.language)
        tables.append(campaign_table(campaign, scores[campaign.language], labels or {}))
    return tables


def campaign_table(
    campaign: Campaign, scores: dict[str, dict[str, float]], labels: dict[str, str] | None = None
) -> HumanTable:
    """``scores``: the track's automatic scores by case-folded system name (metric_scores)."""
    results = campaign.results or {}
    if campaign.method == Method.RANKME:
        columns = ["#", "TrueSkill", "Rank"]
        rows = [
            _table_row(
                r["system"], [r["cluster"], f"{r['mu']:.3f}", _range(r["rank"])], r["cluster"]
            )
            for r in results.get("systems", [])
        ]
    elif campaign.method == Method.DA:
        columns = ["%", "z", "n", "Assess."]
        rows = [
            _table_row(r["system"], [f"{r['raw']:.1f}", f"{r['z']:.3f}", r["n"], r["assessments"]])
            for r in results.get("systems", [])
        ]
    else:
        columns = ["Subset", "Sem.", "Gram.", "Phen.", "ROSE"]
        rows = [
            _table_row(
                r["system"],
                [r["subset"] or "all"]
                + [
                    f"{r[name]:.1f}"
                    for name in ("semantics", "grammaticality", "phenomenon", "rose")
                ],
            )
            for r in results.get("rows", [])
        ]
    metrics = list(get_profile(campaign.track.profile).columns[:5])
    for row in rows:
        automatic = scores.get(row["system"].casefold(), {})
        row["metrics"] = [automatic.get(metric) for metric in metrics]
        row["system"] = (labels or {}).get(row["system"], row["system"])
    return HumanTable(campaign, columns, rows, metrics)


def _range(ranks: list[int]) -> str:
    return f"{ranks[0]}–{ranks[1]}"


def _table_row(system: str, values: list, cluster: int | None = None) -> dict:
    return {"system": system, "values": values, "cluster": cluster}
