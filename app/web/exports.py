"""Files to pass on, for anyone who may see the track: CSV / JSON / LaTeX exports and the
SVG plots. All come from the publication view (anonymised names, no withdrawn rows)."""

from __future__ import annotations

import json

from flask import Blueprint, Response, abort, request
from flask.typing import ResponseReturnValue
from flask_login import current_user

from app.data.models import Campaign, Track
from app.data.visibility import Viewer
from app.web.errors import DomainError
from app.web.extensions import db, file_cache
from app.web.services.access import viewer_of
from app.web.services.analyses import similarity_view
from app.web.services.breakdowns import breakdown_csv, track_breakdown
from app.web.services.campaigns import get_campaign
from app.web.services.exports import overview_latex, to_csv, to_json, to_latex, track_table
from app.web.services.human_exports import human_csv, human_json, human_latex
from app.web.services.human_results import HumanTable, campaign_table, human_points
from app.web.services.leaderboard import (
    default_language,
    dlevel_comparison,
    leaderboard,
    reference_statistics,
)
from app.web.services.overview import overview
from app.web.services.plots import (
    STYLE,
    dlevel_bars,
    human_scatter,
    metric_bars,
    similarity_heatmap,
)
from app.web.services.rank_groups import resampled_rows
from app.web.services.tracks import get_challenge, get_track

bp = Blueprint("exports", __name__)
TRACK = "/challenges/<slug>/tracks/<track_slug>"
FORMATS = {
    "csv": "text/csv; charset=utf-8",
    "json": "application/json",
    "tex": "application/x-tex; charset=utf-8",
}


def _track(slug: str, track_slug: str) -> Track:
    try:
        return get_track(db(), slug, track_slug)
    except DomainError:
        abort(404)


def _language(track: Track) -> str | None:
    language = request.args.get("lang") or default_language(track)
    if language and track.test_set_for(language) is None:
        abort(404)
    return language


def _publication(track: Track) -> Viewer:
    return viewer_of(db(), current_user, track.challenge_id).for_publication()


@bp.get(TRACK + "/export.<fmt>")
def track_export(slug: str, track_slug: str, fmt: str) -> ResponseReturnValue:
    if fmt not in FORMATS:
        abort(404)
    track = _track(slug, track_slug)
    table = track_table(
        db(),
        track,
        viewer_of(db(), current_user, track.challenge_id),
        _language(track),
        include_secondary=request.args.get("all") == "1",
    )
    if fmt == "csv":
        body = to_csv(table)
    elif fmt == "json":
        body = json.dumps(to_json(table), ensure_ascii=False, indent=1)
    else:
        body = to_latex(table)
    name = f"{slug}-{track_slug}-{table.language}.{fmt}"
    return Response(
        body,
        content_type=FORMATS[fmt],
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@bp.get(TRACK + "/breakdown.csv")
def breakdown_export(slug: str, track_slug: str) -> ResponseReturnValue:
    """The leaderboard broken down by an item attribute: every metric per bucket."""
    track = _track(slug, track_slug)
    attribute = request.args.get("attribute", "")
    try:
        found = track_breakdown(
            db(), track, attribute, _publication(track), language=_language(track),
            include_secondary=request.args.get("all") == "1", cache=file_cache(),
        )  # fmt: skip
    except DomainError:
        abort(404)
    name = f"{slug}-{track_slug}-by-{attribute.replace(':', '-').replace(' ', '-')}.csv"
    return Response(
        breakdown_csv(found),
        content_type=FORMATS["csv"],
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@bp.get("/challenges/<slug>/overview.tex")
def overview_export(slug: str) -> ResponseReturnValue:
    try:
        challenge = get_challenge(db(), slug)
    except DomainError:
        abort(404)
    viewer = viewer_of(db(), current_user, challenge.id).for_publication()
    matrix = overview(db(), challenge, request.args.get("metric"), viewer)
    return Response(overview_latex(slug, matrix), content_type=FORMATS["tex"])


def _svg(data: bytes) -> Response:
    response = Response(data, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get(TRACK + "/plots/bars.svg")
def bars_plot(slug: str, track_slug: str) -> ResponseReturnValue:
    """Each system's score on one metric, with its 95% bootstrap interval where the scores
    are shown exactly: the interval's ends are percentiles of the exact resampled scores, a
    finer probe of the references than the rounded score a team sees before publication."""
    track = _track(slug, track_slug)
    language = _language(track)
    profile = track.scoring_profile
    viewer = _publication(track)
    metrics, rows = leaderboard(db(), track, viewer=viewer, language=language)
    column = request.args.get("metric") or profile.primary_metric
    rows = [row for row in rows if column in row.scores]
    if column not in metrics or not rows:
        abort(404)
    rows.sort(key=lambda row: row.scores[column], reverse=profile.higher_is_better(column))
    intervals = viewer.sees_exact_scores_of(track)
    factor = profile.scale.get(column, 1.0)  # drawn on the scale the tables print
    key = [
        track.id,
        language,
        column,
        intervals,
        [(r.submission_id, r.label, r.scores[column]) for r in rows],
        factor,
    ]

    def make() -> bytes:
        resampled = resampled_rows(db(), profile, rows, column, file_cache()) if intervals else {}
        found = [resampled[r.submission_id].interval if r.submission_id in resampled else None
                 for r in rows]  # fmt: skip
        return metric_bars(
            column,
            [r.label for r in rows],
            [r.scores[column] * factor for r in rows],
            [None if i is None else (i[0] * factor, i[1] * factor) for i in found],
            [r.is_baseline for r in rows],
        )

    return _svg(file_cache().get_or_make(STYLE, ["bars", *key], ".svg", make))


@bp.get(TRACK + "/plots/dlevel.svg")
def dlevel_plot(slug: str, track_slug: str) -> ResponseReturnValue:
    track = _track(slug, track_slug)
    language = _language(track)
    viewer = _publication(track)
    _, rows = leaderboard(db(), track, viewer=viewer, language=language)
    levels = dlevel_comparison(rows, reference_statistics(db(), track, language, viewer=viewer))
    if levels is None:
        abort(404)
    key = ["dlevel", levels.labels, levels.shares]
    return _svg(
        file_cache().get_or_make(
            STYLE, key, ".svg", lambda: dlevel_bars(levels.labels, levels.shares)
        )
    )


@bp.get(TRACK + "/plots/similarity.svg")
def similarity_plot(slug: str, track_slug: str) -> ResponseReturnValue:
    track = _track(slug, track_slug)
    found = similarity_view(db(), track, _language(track), _publication(track))
    if found is None:
        abort(404)
    key = ["similarity", found.rows, found.tested, found.values]
    return _svg(
        file_cache().get_or_make(
            STYLE, key, ".svg", lambda: similarity_heatmap(found.rows, found.tested, found.values)
        )
    )


def _published_campaign(track: Track, name: str) -> Campaign:
    """A campaign whose results the publication view may pass on (404 otherwise)."""
    try:
        campaign: Campaign = get_campaign(db(), track, name)
    except DomainError:
        abort(404)
    if not _publication(track).sees_campaign(campaign) or not campaign.results:
        abort(404)
    return campaign


@bp.get(TRACK + "/human-<name>.<fmt>")
def human_export(slug: str, track_slug: str, name: str, fmt: str) -> ResponseReturnValue:
    """A published campaign's table as the track page shows it, from the publication view."""
    if fmt not in FORMATS:
        abort(404)
    track = _track(slug, track_slug)
    campaign = _published_campaign(track, name)
    table = campaign_table(db(), campaign, _publication(track))
    if table is None:
        abort(404)
    return Response(
        _human_file(table, fmt),
        content_type=FORMATS[fmt],
        headers={"Content-Disposition": f'attachment; filename="{slug}-{track_slug}-{name}.{fmt}"'},
    )


def _human_file(table: HumanTable, fmt: str) -> str:
    if fmt == "csv":
        return human_csv(table)
    if fmt == "json":
        return json.dumps(human_json(table), ensure_ascii=False, indent=1)
    return human_latex(table)


@bp.get(TRACK + "/plots/human-<name>.svg")
def human_plot(slug: str, track_slug: str, name: str) -> ResponseReturnValue:
    """A published campaign's system scores against a metric (default: the primary one): this
    campaign's own results, as the publication view shows them."""
    track = _track(slug, track_slug)
    campaign = _published_campaign(track, name)
    metric = request.args.get("metric") or track.scoring_profile.primary_metric
    points = human_points(db(), campaign, _publication(track), metric) if metric else None
    if metric is None or points is None or len(points.labels) < 2:
        abort(404)
    key = ["human", campaign.id, metric, points.human, points.labels, points.x, points.y]
    return _svg(
        file_cache().get_or_make(
            STYLE,
            key,
            ".svg",
            lambda: human_scatter(metric, points.human, points.labels, points.x, points.y),
        )
    )
