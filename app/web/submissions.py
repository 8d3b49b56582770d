"""Participant pages: upload an output file, follow own submissions, choose primary systems."""

from __future__ import annotations

from collections.abc import Sequence

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_required
from sqlalchemy import select
from werkzeug.utils import secure_filename

from app.data.models import Submission, System
from app.web.errors import DomainError
from app.web.extensions import db, storage, submission_queue
from app.web.forms import ActionForm, UploadForm
from app.web.services.access import can_see_scores, viewer_of
from app.web.services.columns import headline_scores
from app.web.services.submissions import (
    ARCHITECTURES,
    set_anonymous,
    set_architecture,
    set_primary,
    set_withdrawn,
    submit_output,
    until,
    upload_allowance,
)
from app.web.services.tracks import get_track
from app.web.services.waiting import standings
from scorer.errors import Refused

bp = Blueprint("submissions", __name__)


@bp.route("/challenges/<slug>/tracks/<track_slug>/submit", methods=["GET", "POST"])
@login_required
def upload(slug: str, track_slug: str) -> ResponseReturnValue:
    try:
        track = get_track(db(), slug, track_slug)
    except DomainError:
        abort(404)
    form = UploadForm()
    form.language.choices = [("", "from the file name / zip entries")] + [
        (language, language) for language in track.languages
    ]
    if not track.is_multilingual:
        form.file.label.text = "Output file"
    if not form.is_submitted() and request.args.get("lang") in track.languages:
        form.language.data = request.args["lang"]
    if form.validate_on_submit():
        upload_file = form.file.data
        filename = secure_filename(upload_file.filename or "") or "upload.txt"
        data = upload_file.read(current_app.config["UPLOAD_MAX_BYTES"] + 1)
        warnings: list[str] = []
        try:
            submissions = submit_output(
                db(),
                submission_queue(),
                storage(),
                user=current_user,
                team=current_user.team,
                track=track,
                system_name=form.system.data,
                filename=filename,
                data=data,
                max_bytes=current_app.config["UPLOAD_MAX_BYTES"],
                language=form.language.data or None,
                warnings=warnings,
            )
        except Refused as error:
            form.file.errors.append(f"Refused: {error}. Nothing was stored.")
        else:
            described = ", ".join(f"{s.id} ({s.language})" for s in submissions)
            noun = "Submission" if len(submissions) == 1 else "Submissions"
            flash(f"{noun} {described} queued for scoring.", "info queued")  # dropped once scored
            for warning in warnings:
                flash(f"Warning: {warning}", "warning")
            return redirect(url_for("submissions.mine"))
    team = current_user.team
    return render_template(
        "submissions/upload.html",
        track=track,
        form=form,
        expected={ts.language: len(ts.items) for ts in track.test_sets},
        allowances={
            language: upload_allowance(db(), track, team, current_user, language)
            for language in track.languages
        }
        if team is not None
        else {},
        until=until,
    )


@bp.route("/submissions")
@login_required
def mine() -> ResponseReturnValue:
    team = current_user.team
    submissions: Sequence[Submission] = []
    systems: Sequence[System] = []
    if team is not None:
        submissions = (
            db()
            .scalars(
                select(Submission)
                .join(System)
                .where(System.team_id == team.id)
                .order_by(Submission.id.desc())
            )
            .all()
        )
        systems = (
            db()
            .scalars(
                select(System)
                .where(System.team_id == team.id)
                .order_by(System.track_id, System.name)
            )
            .all()
        )
    waiting = standings(db(), submissions)
    return render_template(
        "submissions/mine.html",
        team=team,
        submissions=submissions,
        systems=systems,
        action_form=ActionForm(),
        architectures=ARCHITECTURES,
        can_see_scores=lambda submission: can_see_scores(db(), current_user, submission),
        headline=lambda submission: headline_scores(
            submission, viewer_of(db(), current_user, submission.system.track.challenge_id)
        ),
        standings=waiting,
        nothing_waits=not waiting,  # scored before this page loaded: no "queued" notice
    )


def _own_system(system_id: int) -> System:
    system = db().get(System, system_id)
    team = current_user.team
    if system is None or team is None or system.team_id != team.id:
        abort(404)
    if not ActionForm().validate_on_submit():
        abort(400)
    return system


@bp.route("/systems/<int:system_id>/primary", methods=["POST"])
@login_required
def toggle_primary(system_id: int) -> ResponseReturnValue:
    system = _own_system(system_id)
    try:
        set_primary(db(), system, not system.is_primary)
    except DomainError as error:
        flash(f"Refused: {error}.", "error")
    else:
        state = "primary" if system.is_primary else "secondary"
        flash(f"{system.name} is now a {state} system.", "info")
    return redirect(url_for("submissions.mine"))


@bp.route("/systems/<int:system_id>/anonymous", methods=["POST"])
@login_required
def toggle_anonymous(system_id: int) -> ResponseReturnValue:
    system = _own_system(system_id)
    set_anonymous(db(), current_user, system, not system.is_anonymous)
    if system.is_anonymous:
        flash(f"{system.name} now shows as 'anonymous' in every public view and export.", "info")
    else:
        flash(f"{system.name} shows under its name again.", "info")
    return redirect(url_for("submissions.mine"))


@bp.route("/systems/<int:system_id>/architecture", methods=["POST"])
@login_required
def architecture(system_id: int) -> ResponseReturnValue:
    system = _own_system(system_id)
    try:
        set_architecture(db(), system, request.form.get("architecture", ""))
    except DomainError as error:
        flash(f"Refused: {error}.", "error")
    return redirect(url_for("submissions.mine"))


def _own_submission(submission_id: int) -> Submission:
    found = db().get(Submission, submission_id)
    team = current_user.team
    if found is None or team is None or found.system.team_id != team.id:
        abort(404)
    return found


@bp.route("/submissions/<int:submission_id>/withdraw", methods=["GET", "POST"])
@login_required
def withdraw_submission(submission_id: int) -> ResponseReturnValue:
    """GET asks for confirmation (one click never withdraws); POST withdraws, undoably."""
    found = _own_submission(submission_id)
    if request.method == "GET":
        return render_template(
            "submissions/withdraw.html", submission=found, action_form=ActionForm()
        )
    done = (
        f"Submission {found.id} is withdrawn from the public views; Restore (below) brings it back."
    )
    return _set_withdrawn(found, True, done)


@bp.route("/submissions/<int:submission_id>/restore", methods=["POST"])
@login_required
def restore_submission(submission_id: int) -> ResponseReturnValue:
    found = _own_submission(submission_id)
    return _set_withdrawn(found, False, f"Submission {found.id} is restored.")


def _set_withdrawn(found: Submission, withdrawn: bool, done: str) -> ResponseReturnValue:
    """Withdraw or restore a team's own submission, in the audit log, back to its row."""
    if not ActionForm().validate_on_submit():
        abort(400)
    try:
        set_withdrawn(db(), current_user, found, withdrawn)
    except DomainError as error:
        flash(f"Refused: {error}.", "error")
    else:
        flash(done, "info")
    return redirect(url_for("submissions.mine", _anchor=f"submission-{found.id}"))
