"""Public pages: challenges, track leaderboards, system pages."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, request
from flask.typing import ResponseReturnValue
from flask_login import current_user
from sqlalchemy import select

from app.data.models import (
    Item,
    Output,
    Submission,
    SubmissionStatistics,
    System,
)
from app.data.statistics import unpack_statistics
from app.web.errors import DomainError
from app.web.extensions import db, file_cache
from app.web.public_cache import public_cache
from app.web.services.access import Viewer, can_see_outputs, can_see_submission, viewer_of
from app.web.services.analyses import has_similarity, split_report
from app.web.services.breakdowns import breakdown_choices, slot_error_table, track_breakdown
from app.web.services.bundle_format import SECTIONS, kind_keys, known_parts
from app.web.services.challenge_page import (
    challenge_status,
    glossaries,
    team_entries,
    track_facts,
)
from app.web.services.columns import add_human_scores, beats_baseline, columns, headline_scores
from app.web.services.compare import compare_systems
from app.web.services.home import summaries
from app.web.services.human_results import human_tables, pending_campaigns
from app.web.services.item_results import as_csv, as_jsonl, item_results
from app.web.services.leaderboard import (
    default_language,
    display_names,
    dlevel_comparison,
    leaderboard,
    reference_statistics,
    subset_tables,
)
from app.web.services.overview import ordered_tracks, overview
from app.web.services.rank_groups import assign_rank_groups
from app.web.services.tracks import get_challenge, get_track
from scorer.describe import dlevel
from scorer.describe.textstats import STATISTICS
from scorer.metrics import get_metric

bp = Blueprint("challenges", __name__)


@bp.route("/")
@public_cache
def index() -> ResponseReturnValue:
    challenges = summaries(db(), lambda challenge_id: viewer_of(db(), current_user, challenge_id))
    return render_template("challenges/index.html", challenges=challenges)


@bp.route("/bundle-format")
@public_cache
def bundle_format() -> ResponseReturnValue:
    """The challenge bundle's format, with every key a defined kind may have."""
    return render_template(
        "challenges/bundle_format.html",
        sections=SECTIONS,
        kind_keys=kind_keys(),
        parts=known_parts(),
    )


@bp.route("/challenges/<slug>")
def challenge(slug: str) -> ResponseReturnValue:
    try:
        found = get_challenge(db(), slug)
    except DomainError:
        abort(404)
    tracks = ordered_tracks(found)
    facts = track_facts(db(), tracks)
    entries, unlisted = team_entries(db(), tracks, viewer_of(db(), current_user, found.id))
    return render_template(
        "challenges/challenge.html",
        challenge=found,
        tracks=tracks,
        facts=facts,
        status=challenge_status(facts),
        entries=entries,
        unlisted_teams=unlisted,
        glossaries=glossaries(tracks),
    )


@bp.route("/challenges/<slug>/tracks/<track_slug>")
@public_cache
def track(slug: str, track_slug: str) -> ResponseReturnValue:
    try:
        found = get_track(db(), slug, track_slug)
    except DomainError:
        abort(404)
    language = request.args.get("lang") or default_language(found)
    if language and found.test_set_for(language) is None:
        abort(404)
    viewer = viewer_of(db(), current_user, found.challenge_id)
    include_secondary = request.args.get("all") == "1"
    descending = request.args.get("order", "desc") != "asc"
    metrics, rows = leaderboard(
        db(),
        found,
        viewer=viewer,
        language=language,
        include_secondary=include_secondary,
        sort_by=request.args.get("sort"),
        descending=descending,
    )
    sort = request.args.get("sort") if request.args.get("sort") in metrics else None
    profile = found.scoring_profile
    if language:
        add_human_scores(db(), found, language, rows)
    default_sort = profile.primary_metric if profile.primary_metric in metrics else None
    sort_key = sort or default_sort or (metrics[0] if metrics else None)
    if sort_key:
        assign_rank_groups(db(), found, rows, sort_key, viewer, file_cache())
    reference_rows = reference_statistics(db(), found, language, viewer=viewer) if rows else {}
    challenge_sets, other_subsets = (
        subset_tables(db(), found, metrics, rows, language) if rows else ([], [])
    )
    choices = breakdown_choices(found, viewer) if rows else []
    attribute = request.args.get("breakdown")
    by_bucket = (
        track_breakdown(
            db(), found, attribute, viewer, language=language,
            include_secondary=include_secondary, cache=file_cache(),
        )
        if attribute in choices
        else None
    )  # fmt: skip
    return render_template(
        "challenges/track.html",
        track=found,
        metrics=metrics,
        groups=columns(metrics, rows, profile),
        rows=rows,
        beats=beats_baseline(rows, metrics, profile),
        include_secondary=include_secondary,
        sort=sort_key,
        descending=descending,
        language=language,
        test_set=found.test_set_for(language),
        rising={m: profile.higher_is_better(m) for m in metrics},
        statistics=(STATISTICS + dlevel.SUMMARY) if any(row.described for row in rows) else (),
        reference_rows=reference_rows,
        levels=dlevel_comparison(rows, reference_rows),
        challenge_sets=challenge_sets,
        subset_tables=other_subsets,
        absent_metrics=profile.optional_columns_missing(metrics) if rows else {},
        split_report=split_report(found, language, viewer),
        human_tables=human_tables(db(), found, language, viewer),
        human_pending=pending_campaigns(db(), found, language),
        is_organiser=viewer.is_organiser,
        scores_hidden=not viewer.sees_every_score_of(found),
        breakdown_choices=choices,
        breakdown=by_bucket,
        breakdown_metric=request.args.get("bmetric") or sort_key,
        slot_errors=slot_error_table(db(), rows) if profile.annotate else None,
        has_similarity=has_similarity(found, language, viewer),
    )


@bp.route("/challenges/<slug>/tracks/<track_slug>/compare")
def compare(slug: str, track_slug: str) -> ResponseReturnValue:
    """Two systems of a track side by side: per metric, per bucket of an attribute, per item."""
    try:
        found = get_track(db(), slug, track_slug)
    except DomainError:
        abort(404)
    language = request.args.get("lang") or default_language(found)
    system_a = request.args.get("a", type=int)
    system_b = request.args.get("b", type=int)
    if system_a is None or system_b is None:
        abort(404)
    viewer = viewer_of(db(), current_user, found.challenge_id)
    try:
        comparison = compare_systems(
            db(), found, system_a, system_b, viewer, language=language,
            attribute=request.args.get("breakdown") or None,
            which=request.args.get("filter", "all"), cache=file_cache(),
        )  # fmt: skip
    except DomainError:
        abort(404)
    return render_template(
        "challenges/compare.html",
        track=found,
        comparison=comparison,
        language=language,
        lang=language if found.is_multilingual else None,
        rising={
            d.metric: found.scoring_profile.higher_is_better(d.metric) for d in comparison.metrics
        },
    )


@bp.route("/challenges/<slug>/tracks/<track_slug>/inputs")
def inputs(slug: str, track_slug: str) -> ResponseReturnValue:
    """The test inputs to generate from, as the kind's reader writes them (E2E: a one-column
    ``mr`` CSV, the published testset layout; CoNLL-U trees or DRSs: blocks)."""
    try:
        found = get_track(db(), slug, track_slug)
    except DomainError:
        abort(404)
    language = request.args.get("lang") or default_language(found)
    test_set = found.test_set_for(language) if language else None
    if test_set is None:
        abort(404)
    written = found.scoring_profile.write_inputs([item.input_text for item in test_set.items])
    body, suffix, mimetype = written.body, written.suffix, written.mimetype
    name = f"{slug}-{track_slug}-{test_set.language}-inputs.{suffix}"
    return Response(
        body,
        content_type=f"{mimetype}; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@bp.route("/challenges/<slug>/overview")
def challenge_overview(slug: str) -> ResponseReturnValue:
    """Teams x languages for one metric, as the SR'18 paper's Tables 3-5."""
    try:
        found = get_challenge(db(), slug)
    except DomainError:
        abort(404)
    viewer = viewer_of(db(), current_user, found.id)
    matrix = overview(db(), found, request.args.get("metric"), viewer)
    return render_template("challenges/overview.html", challenge=found, overview=matrix)


@bp.route("/submissions/<int:submission_id>/outputs")
def submission_outputs(submission_id: int) -> ResponseReturnValue:
    """Each output beside its input: for the team and the organisers, and for everyone once
    test results are out. What the scorer found item by item (E2E: slot errors; SR'18: DIST)
    only once they are out (``Viewer.sees_item_figures_of``), organisers aside."""
    found = db().get(Submission, submission_id)
    if found is None or not can_see_outputs(db(), current_user, found):
        abort(404)
    viewer = viewer_of(db(), current_user, found.system.track.challenge_id)
    figures_shown = viewer.sees_item_figures_of(found.system.track)
    only_errors = figures_shown and request.args.get("errors") == "1"
    rows = (
        db()
        .execute(
            select(Item.position, Item.input_text, Output.text, Output.annotations)
            .join(Output, Output.item_id == Item.id)
            .where(Output.submission_id == found.id)
            .order_by(Item.position)
        )
        .all()
    )
    item_scores = _item_scores(found, len(rows), viewer)
    scored = [
        (row, {m: values[k] for m, values in item_scores.items()}) for k, row in enumerate(rows)
    ]
    if only_errors:
        scored = [(row, values) for row, values in scored if row.annotations]
    name = display_names([found.system], viewer)[found.system.id][0]
    return render_template(
        "challenges/outputs.html",
        downloads=viewer.sees_item_results_of(found.system.track, found.system),
        submission=found,
        system_name=name,
        rows=scored,
        item_metrics=list(item_scores),
        only_errors=only_errors,
        figures_shown=figures_shown,
    )


@bp.route("/submissions/<int:submission_id>/items.<fmt>")
def submission_items(submission_id: int, fmt: str) -> ResponseReturnValue:
    """Per-item scores to take away (CSV or JSON Lines): the organisers at any time, the team
    its own once the results are published."""
    found = db().get(Submission, submission_id)
    if fmt not in ITEM_FORMATS or found is None:
        abort(404)
    track = found.system.track
    viewer = viewer_of(db(), current_user, track.challenge_id)
    if not viewer.sees_item_results_of(track, found.system):
        abort(404)
    records = item_results(db(), found, viewer)
    body = as_csv(records) if fmt == "csv" else as_jsonl(records)
    name = f"submission-{found.id}-items.{fmt}"
    return Response(
        body,
        content_type=ITEM_FORMATS[fmt],
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


ITEM_FORMATS = {"csv": "text/csv; charset=utf-8", "jsonl": "application/jsonl; charset=utf-8"}


def _item_scores(submission: Submission, items: int, viewer: Viewer) -> dict[str, list[float]]:
    """The profile's per-item metrics (SR'18: DIST) from the stored statistics, where
    ``viewer`` may read them."""
    track = submission.system.track
    profile = track.scoring_profile
    stored = db().get(SubmissionStatistics, submission.id)
    if stored is None or not profile.item_metrics:
        return {}
    packed = viewer.disclose(track, stored.data)
    if packed is None:
        return {}
    statistics = unpack_statistics(packed)
    return {
        get_metric(m).name: profile.item_scores(statistics, m)
        for m in profile.item_metrics
        if m in statistics and len(statistics[m]) == items
    }


@bp.route("/systems/<int:system_id>")
def system(system_id: int) -> ResponseReturnValue:
    found = db().get(System, system_id)
    if found is None:
        abort(404)
    viewer = viewer_of(db(), current_user, found.track.challenge_id)
    if not viewer.sees_system(found.track, found):
        abort(404)  # as for an id that does not exist: a test-phase system is not confirmed
    name, team = display_names([found], viewer)[found.id]
    scores_shown = viewer.sees_scores_of(found.track, found)
    visible = [
        (submission, can_see_submission(db(), current_user, submission))
        for submission in reversed(found.submissions)
        if submission.withdrawn_at is None or viewer.is_organiser
    ]
    return render_template(
        "challenges/system.html",
        system=found,
        name=name,
        team=team,
        submissions=visible,
        scores_shown=scores_shown,
        headline=lambda submission: headline_scores(submission, viewer),
        outputs_shown=found.track.outputs_public,
    )
