"""``/api/v1``: submit, poll a submission, read a leaderboard (ARCHITECTURE.md, "Interfaces")."""

from __future__ import annotations

from dataclasses import asdict

from flask import Blueprint, Response, abort, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from sqlalchemy.orm import joinedload
from werkzeug.utils import secure_filename

from app.data.disclosure import Figure, seal
from app.data.models import Submission, System, TestSet, Track, User
from app.data.visibility import Viewer
from app.web.api.openapi import (
    BEARER,
    OPTIONAL_BEARER,
    documented,
    error_response,
    json_response,
    openapi_document,
    query,
)
from app.web.errors import DomainError
from app.web.extensions import db, file_cache, storage, submission_queue
from app.web.public_cache import public_cache
from app.web.services.access import PUBLIC, can_see_scores, can_see_submission, viewer_of
from app.web.services.accounts import user_for_token
from app.web.services.breakdowns import Cell, breakdown_choices, track_breakdown
from app.web.services.columns import ordered_scores
from app.web.services.compare import ITEM_LIMIT, compare_systems, comparison_json
from app.web.services.human_results import human_tables, tables_json
from app.web.services.leaderboard import (
    default_language,
    leaderboard,
    reference_statistics,
    subset_sizes,
)
from app.web.services.overview import overview
from app.web.services.submissions import submit_output, test_set_for_upload
from app.web.services.tracks import get_challenge, get_track
from app.web.services.waiting import standings

bp = Blueprint("api_v1", __name__, url_prefix="/api/v1")


@bp.get("/openapi.json")
@documented(
    summary="This description",
    responses={"200": {"description": "An OpenAPI 3 document."}},
)
def openapi() -> ResponseReturnValue:
    """Every route of this API, described (OpenAPI 3): ``app/web/api/openapi.py``."""
    return jsonify(openapi_document(current_app))


def error(status: int, message: str) -> Response:
    response = jsonify({"error": message})
    response.status_code = status
    return response


def _found_track(slug: str, track_slug: str) -> Track:
    """The track the URL names; one that does not exist answers 404 with the API's JSON error
    (every route's OpenAPI entry says so), so no route repeats the lookup's refusal."""
    try:
        return get_track(db(), slug, track_slug)
    except DomainError as exc:
        abort(error(404, str(exc)))


def token_user() -> User | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return user_for_token(db(), token.strip())


@bp.post("/challenges/<slug>/tracks/<track_slug>/submissions")
@documented(
    summary="Upload a system's outputs",
    description=(
        "The file is checked at once with the scorer's readers (one output per test "
        "input, in order, laid out as the track's kind says: `submit` of GET .../kind); "
        "a refused file stores nothing. Accepted files are queued and scored by a "
        "worker: poll the submission."
    ),
    security=BEARER,
    request_body={
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["file", "system"],
                    "properties": {
                        "file": {"type": "string", "format": "binary"},
                        "system": {"type": "string", "description": "Your system's name."},
                        "language": {
                            "type": "string",
                            "description": "Test set of a multilingual track.",
                        },
                    },
                }
            }
        },
    },
    responses={
        "202": {
            **json_response("SubmissionCreated", "Stored and queued."),
            "headers": {"Location": {"schema": {"type": "string"}}},
        },
        "400": error_response("Refused (the reason names the line and the rule); nothing stored."),
        "401": error_response("No valid API token."),
        "404": error_response("No such track."),
    },
)
def create_submission(slug: str, track_slug: str) -> ResponseReturnValue:
    user = token_user()
    if user is None:
        return error(401, "send a valid API token: Authorization: Bearer <token>")
    track = _found_track(slug, track_slug)
    upload = request.files.get("file")
    if upload is None:
        return error(400, "missing multipart field 'file' (the output file)")
    system_name = request.form.get("system", "")
    max_bytes = current_app.config["UPLOAD_MAX_BYTES"]
    warnings: list[str] = []
    submissions = submit_output(  # a refusal: app.web.errors answers it
        db(),
        submission_queue(),
        storage(),
        user=user,
        team=user.team,
        track=track,
        system_name=system_name,
        filename=secure_filename(upload.filename or "") or "upload.txt",
        data=upload.read(max_bytes + 1),
        max_bytes=max_bytes,
        language=request.form.get("language") or None,
        warnings=warnings,
    )
    first = submissions[0]
    response = jsonify(
        {
            "id": first.id,
            "status": first.status.value,
            "submissions": [
                {"id": s.id, "language": s.language, "status": s.status.value} for s in submissions
            ],
            "warnings": warnings,
        }
    )
    response.status_code = 202
    response.headers["Location"] = f"/api/v1/submissions/{first.id}"
    return response


SUBMISSION_WITH_TRACK = [joinedload(Submission.system).joinedload(System.track)]
"""A status poll reads the submission's system and track: one query, not three (teams poll
every few seconds while they wait)."""


@bp.get("/submissions/<int:submission_id>")
@documented(
    summary="A submission's status, place in the queue and scores",
    security=BEARER,
    responses={
        "200": json_response("Submission", "Its state; scores once scored and visible to you."),
        "401": error_response("No valid API token."),
        "404": error_response("No submission of that id visible to you."),
    },
)
def get_submission(submission_id: int) -> ResponseReturnValue:
    user = token_user()
    if user is None:
        return error(401, "send a valid API token: Authorization: Bearer <token>")
    submission = db().get(Submission, submission_id, options=SUBMISSION_WITH_TRACK)
    if submission is None or not can_see_submission(db(), user, submission):
        return error(404, f"no submission {submission_id} visible to you")
    shown = can_see_scores(db(), user, submission)
    headline = ordered_scores(submission) if shown else []
    track = submission.system.track
    values = viewer_of(db(), user, track.challenge_id).disclosed(
        track,
        seal({s.metric: s.value for s in headline}, Figure.HEADLINE, submission.system.team_id),
    )
    return jsonify(
        {
            "id": submission.id,
            "system": submission.system.name,
            "language": submission.language,
            "status": submission.status.value,
            "error": submission.error,
            "late": submission.is_late,
            "created_at": submission.created_at.isoformat(),
            "finished_at": submission.finished_at.isoformat() if submission.finished_at else None,
            "withdrawn": submission.withdrawn_at is not None,
            "scores_hidden": not shown,
            **(
                standing.as_dict()
                if (standing := standings(db(), [submission]).get(submission.id))
                else {}
            ),
            "metrics": [score.metric for score in headline],
            "scores": values,
            "signatures": {score.metric: score.signature for score in headline},
        }
    )


@bp.get("/challenges/<slug>/tracks/<track_slug>/inputs")
@documented(
    summary="The test inputs an output file answers line by line",
    parameters=[
        query("language", "Test set language (default: the track's first)."),
        query("filename", "Without language: the test set an upload so named goes to."),
    ],
    responses={
        "200": json_response("Inputs", "The inputs in test order."),
        "400": error_response("The file name names no language of the track."),
        "404": error_response("No such track or test set."),
    },
)
def get_inputs(slug: str, track_slug: str) -> ResponseReturnValue:
    """The test inputs of one language, in order: what an output file must answer line by
    line (``nlgboard-submit`` checks a file against them before uploading). With ``filename``
    (and no ``language``) the test set is the one an upload of that file would go to."""
    track = _found_track(slug, track_slug)
    language = request.args.get("language")
    filename = request.args.get("filename")
    test_set: TestSet | None
    if filename and not language:
        try:
            test_set = test_set_for_upload(track, None, filename)
        except DomainError as exc:
            return error(400, str(exc))
    else:
        language = language or default_language(track)
        test_set = track.test_set_for(language) if language else None
    if test_set is None:
        return error(404, f"track {track_slug!r} has no {language!r} test set")
    return jsonify(
        {
            "challenge": slug,
            "track": track_slug,
            "language": test_set.language,
            "profile": track.profile,
            "languages": track.languages,
            "inputs": [item.input_text for item in test_set.items],
        }
    )


@bp.get("/challenges/<slug>/tracks/<track_slug>/kind")
@documented(
    summary="The track's kind: its profile's name, an organiser's definition, what a file is",
    description=(
        "nlgboard-submit and nlg-score build the board's own profile from the "
        "definition, so a file is read and scored offline as the board reads and "
        "scores it."
    ),
    responses={
        "200": json_response("Kind", "The profile name and the definition (null if built in)."),
        "404": error_response("No such track."),
    },
)
def get_kind(slug: str, track_slug: str) -> ResponseReturnValue:
    """The track's kind: the name of the profile that scores it and, for a kind an organiser
    defined (in a bundle), its definition, from which ``nlgboard-submit`` and ``nlg-score``
    build the very profile the board scores with (its name is the definition's digest)."""
    track = _found_track(slug, track_slug)
    return jsonify(
        {
            "challenge": slug,
            "track": track_slug,
            "profile": track.profile,
            "built_in": track.kind_definition is None,
            "definition": track.kind_definition,
            "title": track.scoring_profile.title,
            "submit": asdict(track.scoring_profile.submit),
        }
    )


@bp.get("/challenges/<slug>/tracks/<track_slug>/leaderboard")
@documented(
    summary="A track's leaderboard, as the page shows it to the caller",
    security=OPTIONAL_BEARER,
    parameters=[
        query("language", "Test set language."),
        query("all", "1: secondary systems too.", enum=["1"]),
        query("sort", "A metric to sort by (default: the track's primary one)."),
        query("order", "Sort direction.", enum=["asc", "desc"]),
    ],
    responses={
        "200": json_response("Leaderboard", "Rows in rank order."),
        "404": error_response("No such track or test set."),
    },
)
@public_cache
def get_leaderboard(slug: str, track_slug: str) -> ResponseReturnValue:
    track = _found_track(slug, track_slug)
    language = request.args.get("language") or None
    if language and track.test_set_for(language) is None:
        return error(404, f"track {track_slug!r} has no {language!r} test set")
    user = token_user()
    viewer = viewer_of(db(), user, track.challenge_id) if user is not None else PUBLIC
    metrics, rows = leaderboard(
        db(),
        track,
        viewer=viewer,
        language=language,
        include_secondary=request.args.get("all") == "1",
        sort_by=request.args.get("sort"),
        descending=request.args.get("order", "desc") != "asc",
    )
    return jsonify(
        {
            "challenge": slug,
            "track": track_slug,
            "language": language or default_language(track),
            "phase": track.phase,
            "published": track.scores_public,
            "metrics": metrics,
            "rows": [
                {
                    "system_id": row.system_id,
                    "system": row.system,
                    "team": row.team,
                    "baseline": row.is_baseline,
                    "primary": row.is_primary,
                    "late": row.is_late,
                    "architecture": row.architecture,
                    "scores": row.scores,
                    "signatures": row.signatures,
                    "described": row.described,
                    "subsets": row.subsets,
                }
                for row in rows
            ],
            "references": reference_statistics(db(), track, language, viewer=viewer),
            "subsets": {
                name: {"items": size, "paired_with_originals": paired}
                for name, (size, paired) in _subset_sizes(track, language).items()
            },
        }
    )


@bp.get("/challenges/<slug>/tracks/<track_slug>/human")
@documented(
    summary="A track's published human evaluations, as the page shows them to the caller",
    description=(
        "Each campaign's table with its significance clusters (TrueSkill's; Direct "
        "Assessment's from Wilcoxon rank-sum tests) and, for Direct Assessment, the quality "
        "control it had and how many annotators it kept and dropped. Each row names its "
        'system by team and name ("team / system" in `label`: many teams call theirs '
        '"primary") and carries the automatic metrics a shown system has, as stored and as '
        "the track's kind prints them."
    ),
    security=OPTIONAL_BEARER,
    parameters=[query("language", "Test set language.")],
    responses={
        "200": json_response("HumanEvaluations", "Published campaigns, oldest first."),
        "404": error_response("No such track."),
    },
)
@public_cache
def get_human(slug: str, track_slug: str) -> ResponseReturnValue:
    track = _found_track(slug, track_slug)
    language = request.args.get("language") or default_language(track)
    tables = human_tables(db(), track, language, _viewer(track))
    return jsonify({"challenge": slug, "track": track_slug, "campaigns": tables_json(tables)})


def _viewer(track: Track) -> Viewer:
    user = token_user()
    return viewer_of(db(), user, track.challenge_id) if user is not None else PUBLIC


@bp.get("/challenges/<slug>/tracks/<track_slug>/breakdown")
@documented(
    summary="The leaderboard by an item attribute: every metric per bucket",
    description=(
        "Each bucket's figures come from the stored per-item statistics, with its item "
        "count and, where the caller sees exact scores, a 95% bootstrap interval. "
        "Buckets under 30 items are hidden from teams until the results are published."
    ),
    security=OPTIONAL_BEARER,
    parameters=[
        query("attribute", "WebNLG: seen, category, size; E2E: slots, slot:food...", required=True),
        query("language", "Test set language."),
        query("all", "1: secondary systems too.", enum=["1"]),
    ],
    responses={
        "200": json_response("Breakdown", "One entry per leaderboard row."),
        "404": error_response("No such track, test set or attribute."),
    },
)
def get_breakdown(slug: str, track_slug: str) -> ResponseReturnValue:
    """The leaderboard by an item attribute: every metric per bucket, as the page shows it."""
    try:
        track = get_track(db(), slug, track_slug)
        found = track_breakdown(
            db(), track, request.args.get("attribute", ""), _viewer(track),
            language=request.args.get("language") or None,
            include_secondary=request.args.get("all") == "1", cache=file_cache(),
        )  # fmt: skip
    except DomainError as exc:
        return error(404, str(exc))
    return jsonify(
        {
            "attribute": found.attribute,
            "attributes": breakdown_choices(track, _viewer(track)),
            "metrics": found.metrics,
            "buckets": [{"value": value, "items": items} for value, items in found.buckets],
            "hidden_buckets": found.hidden,
            "rows": [
                {
                    "system_id": entry.row.system_id,
                    "system": entry.row.system,
                    "team": entry.row.team,
                    "baseline": entry.row.is_baseline,
                    "buckets": {
                        value: {m: _cell(cell) for m, cell in cells.items()}
                        for value, cells in entry.buckets.items()
                    },
                }
                for entry in found.rows
            ],
        }
    )


def _cell(cell: Cell) -> dict:
    found: dict[str, float | None] = {"value": cell.value}
    if cell.low is not None:
        found.update(low=cell.low, high=cell.high)
    return found


@bp.get("/challenges/<slug>/tracks/<track_slug>/compare")
@documented(
    summary="Two systems compared: paired bootstrap per metric, per bucket, per item",
    description=(
        "Both systems must be on the caller's leaderboard. items is null until the "
        "caller may see per-item figures (organisers; everyone once the results are "
        "published)."
    ),
    security=OPTIONAL_BEARER,
    parameters=[
        query("a", "System A's id (leaderboard rows link to it).", required=True, type="integer"),
        query("b", "System B's id.", required=True, type="integer"),
        query("attribute", "Also compare on each value of this item attribute."),
        query(
            "filter",
            "Which items to list: those where the scorer found errors (slot errors) in A, B or "
            "both. A kind that finds none per item lists every item (the answer's filter: all).",
            enum=["all", "only-a", "only-b", "both"],
        ),
        query("limit", "Items listed (0: all; default 100).", type="integer"),
        query("language", "Test set language."),
    ],
    responses={
        "200": json_response("Comparison", "A minus B."),
        "400": error_response("a or b missing."),
        "404": error_response("No such track, test set, attribute or listed system."),
    },
)
def get_comparison(slug: str, track_slug: str) -> ResponseReturnValue:
    """Two systems compared: per metric, per bucket of an attribute, per item (when allowed)."""
    try:
        track = get_track(db(), slug, track_slug)
        system_a, system_b = request.args.get("a", type=int), request.args.get("b", type=int)
        if system_a is None or system_b is None:
            return error(400, "give the two systems' ids as a=ID&b=ID")
        limit = request.args.get("limit", ITEM_LIMIT, type=int)
        found = compare_systems(
            db(), track, system_a, system_b, _viewer(track),
            language=request.args.get("language") or None,
            attribute=request.args.get("attribute") or None,
            which=request.args.get("filter", "all"), limit=limit or None, cache=file_cache(),
        )  # fmt: skip
    except DomainError as exc:
        return error(404, str(exc))
    return jsonify(comparison_json(found))


def _subset_sizes(track: Track, language: str | None) -> dict[str, tuple[int, int]]:
    test_set = track.test_set_for(language or default_language(track))
    return subset_sizes(db(), test_set.id) if test_set is not None else {}


@bp.get("/challenges/<slug>/overview")
@documented(
    summary="Teams by (track, language) for one metric (SR'18 Tables 3-5)",
    security=OPTIONAL_BEARER,
    parameters=[query("metric", "Default: the challenge's first metric.")],
    responses={
        "200": json_response("Overview", "One row per team."),
        "404": error_response("No such challenge."),
    },
)
def get_overview(slug: str) -> ResponseReturnValue:
    """Teams x (track, language) for one metric (SR'18 Tables 3-5); null where not submitted."""
    try:
        challenge = get_challenge(db(), slug)
    except DomainError as exc:
        return error(404, str(exc))
    user = token_user()
    viewer = viewer_of(db(), user, challenge.id) if user is not None else PUBLIC
    matrix = overview(db(), challenge, request.args.get("metric"), viewer)
    columns = [{"track": c.track_slug, "language": c.language} for c in matrix.columns]
    return jsonify(
        {
            "challenge": slug,
            "metric": matrix.metric,
            "metrics": matrix.metrics,
            "signatures": matrix.signatures,
            "columns": columns,
            "rows": [
                {
                    "team": row.label,
                    "baseline": row.is_baseline,
                    "cells": [
                        None
                        if (cell := row.cells.get(column)) is None
                        else {"value": cell.value, "late": cell.is_late, "best": cell.is_best}
                        for column in matrix.columns
                    ],
                }
                for row in matrix.rows
            ],
        }
    )
