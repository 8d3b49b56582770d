"""Organiser pages, scoped to the challenges a person organises: challenges, tracks and their
hidden test sets, phases and publication, baselines, rescoring, the submissions archive."""

from __future__ import annotations

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_required
from flask_wtf.file import FileField
from sqlalchemy import select
from werkzeug.utils import secure_filename

from app.data.mail.outbox import post
from app.data.models import Challenge, Role, Team, Track, User
from app.web.errors import DomainError
from app.web.extensions import db, settings, storage, submission_queue
from app.web.forms import (
    ActionForm,
    BaselineForm,
    BundleForm,
    ChallengeForm,
    NewChallengeForm,
    ParticipantMessageForm,
    RoleForm,
    TrackSettingsForm,
    TrackUploadForm,
    UploadRuleForm,
)
from app.web.security import form_id
from app.web.services.access import is_organiser_of
from app.web.services.account_mail import set_unverified_may_upload, unverified_may_upload
from app.web.services.accounts import grant_role
from app.web.services.admin_setup import has_admin
from app.web.services.approvals import (
    set_team_approval,
    set_teams_need_approval,
    teams_for_approval,
)
from app.web.services.audit import challenge_events
from app.web.services.bundled import describe as describe_bundled
from app.web.services.bundled import register_bundled_runs
from app.web.services.bundles import Bundle, import_bundle
from app.web.services.kind_choices import challenge_kind, defined_kind, kind_choices
from app.web.services.notifications import prepare_message, send_message
from app.web.services.organising import (
    TrackSettings,
    create_organised_challenge,
    download_submissions,
    edit_challenge,
    organised_challenges,
    publish_results,
    rescore_track,
    save_track_settings,
    track_submissions,
    upload_baseline,
)
from app.web.services.track_imports import import_track
from app.web.services.tracks import get_challenge, get_track
from scorer.errors import Refused

bp = Blueprint("organise", __name__, url_prefix="/organise")
CHALLENGE = "/<slug>"
TRACK = "/<slug>/tracks/<track_slug>"


def _organiser_only() -> None:
    """Participants who find this page learn how to become organisers (not a bare 404)."""
    if current_user.role not in (Role.ORGANISER, Role.ADMIN):
        abort(Response(render_template("organise/not_organiser.html"), 403))


def organised_challenge(slug: str) -> Challenge:
    """The challenge ``slug`` if the current user organises it; 404 otherwise (not 403: what
    exists is not told to outsiders)."""
    try:
        found = get_challenge(db(), slug)
    except DomainError:
        abort(404)
    if not is_organiser_of(db(), current_user, found.id):
        abort(404)
    return found


def organised_track(slug: str, track_slug: str) -> Track:
    """The track if the current user organises its challenge; 404 otherwise."""
    try:
        found = get_track(db(), slug, track_slug)
    except DomainError:
        abort(404)
    if not is_organiser_of(db(), current_user, found.challenge_id):
        abort(404)
    return found


def _file(field: FileField) -> tuple[bytes, str] | None:
    upload = field.data
    if not upload or not getattr(upload, "filename", ""):
        return None
    data = upload.read(current_app.config["MAX_CONTENT_LENGTH"])
    return data, secure_filename(upload.filename) or field.name


@bp.route("", methods=["GET", "POST"])
@login_required
def index() -> ResponseReturnValue:
    _organiser_only()
    form = NewChallengeForm()
    if form.validate_on_submit():
        try:
            created = create_organised_challenge(
                db(), current_user, form.slug.data, form.title.data, form.description.data or ""
            )
        except DomainError as error:
            form.slug.errors.append(f"Refused: {error}.")
        else:
            flash(f"Challenge {created.slug} created; add its tracks below.", "info")
            return redirect(url_for("organise.challenge", slug=created.slug))
    return render_template(
        "organise/index.html",
        challenges=organised_challenges(db(), current_user),
        form=form,
        bundle_form=BundleForm(prefix="bundle"),
    )


@bp.post("/bundle")
@login_required
def import_challenge_bundle() -> ResponseReturnValue:
    """A challenge from an uploaded bundle (README: "Challenge bundles"); refused whole."""
    _organiser_only()
    form = BundleForm(prefix="bundle")
    if not form.validate_on_submit():
        flash("Choose a bundle (a zip) to import.", "error")
        return redirect(url_for("organise.index"))
    upload = _file(form.bundle)
    try:
        bundle = Bundle.from_zip(
            upload[0] if upload else b"",
            upload[1] if upload else "bundle",
            settings().bundle_max_bytes,
        )
        report = import_bundle(db(), submission_queue(), storage(), bundle, by=current_user)
    except Refused as error:
        flash(f"Bundle refused, nothing stored: {error}", "error")
        return redirect(url_for("organise.index"))
    flash(f"Imported {report.summary()}.", "info")
    for notice in report.notices:
        flash(notice, "info")
    return redirect(url_for("organise.challenge", slug=report.challenge))


@bp.route(CHALLENGE, methods=["GET", "POST"])
@login_required
def challenge(slug: str) -> ResponseReturnValue:
    found = organised_challenge(slug)
    form = ChallengeForm(prefix="edit", obj=found)
    upload = TrackUploadForm(prefix="track", kind=challenge_kind(found))
    upload.kind.choices = [(choice.value, choice.label) for choice in kind_choices(db())]
    if request.method == "POST" and request.form.get("action") == "edit" and form.validate():
        try:
            edit_challenge(db(), current_user, found, form.title.data, form.description.data or "")
        except DomainError as error:
            form.title.errors.append(f"Refused: {error}.")
        else:
            flash("Challenge saved.", "info")
            return redirect(url_for("organise.challenge", slug=slug))
    if request.method == "POST" and request.form.get("action") == "track" and upload.validate():
        try:
            definition = defined_kind(db(), upload.kind.data)
            test_set, report = import_track(
                db(),
                current_user,
                found,
                upload.slug.data,
                definition["name"] if definition else upload.kind.data,
                language=upload.language.data or None,
                inputs=_file(upload.inputs),
                references=_file(upload.references),
                subset=upload.subset.data or None,
                title=upload.title.data or None,
                definition=definition,
            )
        except Refused as error:
            upload.inputs.errors.append(f"Refused: {error}. Nothing was stored.")
        else:
            flash(f"Imported: {report}.", "info")
            registered = register_bundled_runs(
                db(),
                submission_queue(),
                storage(),
                test_set,
                current_app.config["UPLOAD_MAX_BYTES"],
            )
            if registered:
                flash(f"Bundled baselines: {describe_bundled(registered)}.", "info")
            return redirect(url_for("organise.track", slug=slug, track_slug=upload.slug.data))
    return render_template("organise/challenge.html", challenge=found, form=form, upload=upload)


@bp.route(TRACK, methods=["GET", "POST"])
@login_required
def track(slug: str, track_slug: str) -> ResponseReturnValue:
    found = organised_track(slug, track_slug)
    form = TrackSettingsForm(prefix="settings", obj=found)
    baseline = BaselineForm(prefix="baseline")
    if request.method == "POST" and form.validate_on_submit():
        try:
            notice = save_track_settings(
                db(),
                current_user,
                found,
                TrackSettings(
                    title=form.title.data,
                    phase=form.phase.data,
                    deadline=form.deadline.data,
                    daily_limit=form.daily_limit.data,
                    max_systems=form.max_systems.data,
                    max_primary=form.max_primary.data,
                    hide_own_scores=form.hide_own_scores.data,
                    confirmed_only_in_test=form.confirmed_only_in_test.data,
                ),
            )
        except DomainError as error:
            form.title.errors.append(f"Refused: {error}.")
        else:
            flash("Track settings saved.", "info")
            if notice:
                flash(notice, "info")
            return redirect(url_for("organise.track", slug=slug, track_slug=track_slug))
    return render_template(
        "organise/track.html",
        track=found,
        form=form,
        baseline=baseline,
        action_form=ActionForm(),
        submissions=track_submissions(db(), found),
    )


@bp.post(TRACK + "/publish")
@login_required
def publish(slug: str, track_slug: str) -> ResponseReturnValue:
    found = organised_track(slug, track_slug)
    _check_action()
    try:
        published = request.form.get("published") == "1"
        mails = publish_results(db(), current_user, found, published, settings().mail.base_url)
    except DomainError as error:
        flash(f"Refused: {error}.", "error")
    else:
        post(submission_queue(), [mail.id for mail in mails])
        state = "published: everyone sees them" if found.is_published else "hidden again"
        flash(f"Results of {found.slug} {state}.", "info")
    return redirect(url_for("organise.track", slug=slug, track_slug=track_slug))


@bp.route(TRACK + "/rescore", methods=["GET", "POST"])
@login_required
def rescore(slug: str, track_slug: str) -> ResponseReturnValue:
    """GET asks for confirmation, saying how many submissions it would queue; POST queues."""
    found = organised_track(slug, track_slug)
    if request.method == "GET":
        scored = [s for s in track_submissions(db(), found) if s.status.value == "scored"]
        return render_template(
            "organise/rescore.html", track=found, count=len(scored), action_form=ActionForm()
        )
    _check_action()
    count = rescore_track(db(), submission_queue(), found, current_user)
    flash(f"{count} submissions queued for rescoring; their old scores show until then.", "info")
    return redirect(url_for("organise.track", slug=slug, track_slug=track_slug))


@bp.post(TRACK + "/baselines")
@login_required
def add_baseline(slug: str, track_slug: str) -> ResponseReturnValue:
    found = organised_track(slug, track_slug)
    form = BaselineForm(prefix="baseline")
    if not form.validate_on_submit():
        for field, messages in form.errors.items():
            flash(f"Baseline {field}: {'; '.join(messages)}", "error")
        return redirect(url_for("organise.track", slug=slug, track_slug=track_slug))
    upload = form.file.data
    max_bytes = current_app.config["UPLOAD_MAX_BYTES"]
    try:
        created = upload_baseline(
            db(),
            submission_queue(),
            storage(),
            current_user,
            found,
            name=form.name.data,
            filename=secure_filename(upload.filename or "") or "baseline.txt",
            data=upload.read(max_bytes + 1),
            max_bytes=max_bytes,
            language=form.language.data or None,
        )
    except Refused as error:
        flash(f"Baseline refused: {error}. Nothing was stored.", "error")
    else:
        flash(f"Baseline {form.name.data}: {len(created)} submission(s) queued.", "info")
    return redirect(url_for("organise.track", slug=slug, track_slug=track_slug))


@bp.get(TRACK + "/submissions.zip")
@login_required
def archive(slug: str, track_slug: str) -> ResponseReturnValue:
    found = organised_track(slug, track_slug)
    data = download_submissions(db(), storage(), current_user, found)
    return Response(
        data,
        mimetype="application/zip",
        headers={
            "Content-Disposition": f'attachment; filename="{slug}-{track_slug}-submissions.zip"'
        },
    )


def _check_action() -> None:
    if not ActionForm().validate_on_submit():
        abort(400)


@bp.route(CHALLENGE + "/teams", methods=["GET", "POST"])
@login_required
def teams(slug: str) -> ResponseReturnValue:
    """Whether the challenge's teams need approval before they upload, and approving them
    (each action in the audit log)."""
    found = organised_challenge(slug)
    if request.method == "POST":
        _check_action()
        chosen = request.form.get("action")
        try:
            if chosen == "rule":
                needed = request.form.get("needed") == "y"
                set_teams_need_approval(db(), current_user, found, needed)
                flash(
                    "Teams now need your approval before they upload."
                    if needed
                    else "Every team may upload now; approvals are kept.",
                    "info",
                )
            elif chosen in ("approve", "unapprove"):
                team_id = form_id(request.form.get("team"))
                team = db().get(Team, team_id) if team_id is not None else None
                if team is None:
                    raise DomainError("no such team")
                set_team_approval(db(), current_user, found, team, chosen == "approve")
                flash(f"Team {team.name} {chosen}d.", "info")
            else:
                raise DomainError("say what to do: rule, approve or unapprove")
        except DomainError as error:
            flash(f"Refused: {error}.", "error")
        return redirect(url_for("organise.teams", slug=slug))
    return render_template(
        "organise/teams.html",
        challenge=found,
        standings=teams_for_approval(db(), found),
        action_form=ActionForm(),
    )


@bp.get(CHALLENGE + "/audit")
@login_required
def audit(slug: str) -> ResponseReturnValue:
    found = organised_challenge(slug)
    return render_template(
        "organise/audit.html", challenge=found, events=challenge_events(db(), found.id)
    )


@bp.route("/accounts", methods=["GET", "POST"])
@login_required
def accounts() -> ResponseReturnValue:
    """Admins grant roles to existing accounts: a participant registered on the web becomes the
    organiser of a challenge here, then creates it or its tracks from the organiser pages."""
    _organiser_only()
    if current_user.role != Role.ADMIN:  # organisers learn who grants roles (not a bare 404)
        page = render_template("organise/not_admin.html", board_has_admin=has_admin(db()))
        abort(Response(page, 403))
    form = RoleForm()
    if form.validate_on_submit():
        slug = (form.challenge.data or "").strip()
        try:
            found = [get_challenge(db(), slug)] if slug else []
            account = grant_role(db(), current_user, form.email.data, Role(form.role.data), found)
        except DomainError as error:
            form.email.errors.append(f"Refused: {error}.")
        else:
            flash(f"{account.email} is now {account.role.value}"
                  + (f" of {slug}" if slug else "") + ".", "info")  # fmt: skip
            return redirect(url_for("organise.accounts"))
    staff = db().scalars(select(User).where(User.role != Role.PARTICIPANT).order_by(User.email))
    rule = UploadRuleForm(prefix="rule", unverified_may_upload=unverified_may_upload(db()))
    return render_template("organise/accounts.html", form=form, staff=list(staff), rule_form=rule)


@bp.post("/accounts/uploads")
@login_required
def upload_rule() -> ResponseReturnValue:
    """Whether accounts with an unconfirmed address may upload (admins; audit-logged)."""
    form = UploadRuleForm(prefix="rule")
    if not form.validate_on_submit():
        abort(400)
    try:
        set_unverified_may_upload(db(), current_user, form.unverified_may_upload.data)
    except DomainError:
        abort(404)
    allowed = "may" if form.unverified_may_upload.data else "may not"
    flash(f"Accounts whose address is not confirmed {allowed} upload.", "info")
    return redirect(url_for("organise.accounts"))


@bp.route(TRACK + "/message", methods=["GET", "POST"])
@login_required
def message(slug: str, track_slug: str) -> ResponseReturnValue:
    """Write to every participant of the track: "Preview" shows the mail as they will read it
    and how many will get it; "Send" writes it (and the audit log records it)."""
    found = organised_track(slug, track_slug)
    form = ParticipantMessageForm()
    preview = None
    if form.validate_on_submit():
        base_url = settings().mail.base_url
        try:
            if request.form.get("send") == "1":
                mails = send_message(
                    db(), current_user, found, form.subject.data, form.text.data, base_url
                )
                post(submission_queue(), [mail.id for mail in mails])
                flash(f"Message sent to {len(mails)} participant(s).", "info")
                return redirect(url_for("organise.track", slug=slug, track_slug=track_slug))
            preview = prepare_message(
                db(), current_user, found, form.subject.data, form.text.data, base_url
            )
        except DomainError as error:
            form.subject.errors.append(f"Refused: {error}.")
    return render_template("organise/message.html", track=found, form=form, preview=preview)
