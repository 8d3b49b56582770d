"""Human evaluation pages: organisers set campaigns up and publish results; annotators judge.

Annotator pages show texts only, never system names, and work without JavaScript (number fields,
radio buttons); with JavaScript a slider mirrors each number field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
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
from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from app.data.mail.outbox import post
from app.data.models import Campaign, CampaignUnit, Role, System, Track
from app.web.errors import DomainError
from app.web.extensions import db, file_cache, settings, storage, submission_queue
from app.web.forms import ActionForm, CampaignForm, ImportJudgementsForm, JudgeForm, LinksForm
from app.web.organise import organised_track
from app.web.security import form_id, secret_page
from app.web.services.access import may_annotate, viewer_of
from app.web.services.annotation import (
    Annotator,
    create_links,
    current_assignment,
    hits_of,
    link_annotator,
    next_unit,
    progress,
    record,
)
from app.web.services.campaigns import (
    CampaignSpec,
    campaign_options,
    challenge_method,
    get_campaign,
    open_campaign,
    protocol_of,
    references_embargoed,
    track_campaigns,
)
from app.web.services.human_import import (
    ImportFile,
    import_judgements_by,
    parse_target,
    read_import,
)
from app.web.services.human_judges import import_judge_by, judge_views
from app.web.services.human_results import (
    CAMPAIGN_ACTIONS,
    QUEUED,
    campaign_action,
    campaign_table,
    export_csv,
    significance_matrix,
)
from app.web.services.plots import STYLE
from app.web.services.tracks import get_track
from scorer.errors import Refused
from scorer.human.heatmap import heatmap_svg

bp = Blueprint("human", __name__)
TRACK = "/challenges/<slug>/tracks/<track_slug>/human"


def _organised_campaign(slug: str, track_slug: str, name: str) -> Campaign:
    track = organised_track(slug, track_slug)
    try:
        return get_campaign(db(), track, name)
    except DomainError:
        abort(404)


@bp.route(TRACK, methods=["GET", "POST"])
@login_required
def campaigns(slug: str, track_slug: str) -> ResponseReturnValue:
    track = organised_track(slug, track_slug)
    form = CampaignForm(prefix="new")
    upload = ImportJudgementsForm(prefix="import")
    if request.method == "GET":
        form.method.data = upload.method.data = challenge_method(db(), track) or ""
    if form.validate_on_submit():
        spec = CampaignSpec(
            name=form.name.data,
            method=form.method.data,
            criterion=form.criterion.data,
            language=request.args.get("lang"),
            systems=[s.strip() for s in (form.systems.data or "").split(",") if s.strip()] or None,
            include_baselines=form.include_baselines.data,
            include_human=form.include_human.data,
            items=form.items.data,
            subset=form.subset.data or None,
            annotators_per_hit=form.annotators_per_hit.data,
            quality_control=(form.quality_control.data or "").strip(),
            clusters=form.clusters.data or None,
            options=form.options(),
        )
        try:
            campaign, mails = open_campaign(
                db(), current_user, track, spec, settings().mail.base_url
            )
        except DomainError as error:
            form.name.errors.append(f"Refused: {error}. Nothing was stored.")
        else:
            post(submission_queue(), [mail.id for mail in mails])
            flash(f"Campaign {campaign.name} created with {len(campaign.units)} units.", "info")
            return redirect(
                url_for("human.campaign", slug=slug, track_slug=track_slug, name=campaign.name)
            )
    return render_template(
        "human/campaigns.html",
        track=track,
        campaigns=track_campaigns(db(), track, published_only=False),
        form=form,
        upload=upload,
    )


class ImportRequest(NamedTuple):
    """What the organiser asked to import, carried from the preview to the confirmation."""

    name: str
    method: str
    criterion: str
    filename: str
    quality_control: str = ""
    """DA: the controls the organiser named; empty = the kinds of row the file holds."""
    clusters: str = ""
    """The cluster procedure the organiser chose; empty = the protocol's default."""
    options: Mapping[str, str] | None = None
    """The protocol's options the organiser gave (``CampaignNaming.options``)."""


PREVIEW_AGE = 3600
"""Seconds a preview can be confirmed (the stored file is swept as an orphan after an hour)."""


def _previews() -> URLSafeTimedSerializer:
    """Signs what a preview page hands back (track, organiser, stored file, campaign), so the
    confirmation imports exactly the file that was previewed, for whoever previewed it."""
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="human-import-preview")


@bp.route(TRACK + "/import", methods=["POST"])
@login_required
def import_file(slug: str, track_slug: str) -> ResponseReturnValue:
    """Read the file and show how its names match the track's systems; nothing is stored
    until the organiser confirms a mapping (``confirm_import``)."""
    track = organised_track(slug, track_slug)
    upload = ImportJudgementsForm(prefix="import")
    if not upload.validate_on_submit():
        for field, errors in upload.errors.items():
            flash(f"Import refused: {field}: {'; '.join(errors)}", "error")
        return redirect(url_for("human.campaigns", slug=slug, track_slug=track_slug))
    data = upload.file.data.read(current_app.config["UPLOAD_MAX_BYTES"] + 1)
    request_ = ImportRequest(
        upload.name.data, upload.method.data, upload.criterion.data.strip(),
        upload.file.data.filename or "judgements.csv", (upload.quality_control.data or "").strip(),
        upload.clusters.data or "", upload.options(),
    )  # fmt: skip
    try:
        if len(data) > current_app.config["UPLOAD_MAX_BYTES"]:
            raise DomainError("the file is larger than the upload limit")
        campaign_options(protocol_of(request_.method), request_.options)
        read = read_import(
            db(), track, request_.method, request_.criterion, data, request_.filename
        )
    except Refused as error:
        flash(f"Import refused: {error}. Nothing was stored.", "error")
        return redirect(url_for("human.campaigns", slug=slug, track_slug=track_slug))
    token = _previews().dumps(
        {
            "track": track.id,
            "user": current_user.id,
            "file": storage().put(data),
            **request_._asdict(),
        }
    )
    proposed = {m.name: str(m.proposed) for m in read.names if m.proposed is not None}
    return _preview(track, read, request_, token, proposed)


def _preview(
    track: Track,
    read: ImportFile,
    request_: ImportRequest,
    token: str,
    chosen: dict,
    error: str = "",
) -> str:
    systems = db().scalars(
        select(System).where(System.track_id == track.id).options(selectinload(System.team))
        .order_by(System.name)
    ).all()  # fmt: skip
    return render_template(
        "human/import_preview.html", track=track, read=read, request_=request_, token=token,
        chosen=chosen, error=error, systems=systems, action=ActionForm(),
    )  # fmt: skip


@bp.route(TRACK + "/import/confirm", methods=["POST"])
@login_required
def confirm_import(slug: str, track_slug: str) -> ResponseReturnValue:
    """Import the previewed file with the mapping the organiser chose, name by name."""
    track = organised_track(slug, track_slug)
    if not ActionForm().validate_on_submit():
        abort(400)
    token = request.form.get("preview", "")
    try:
        found = _previews().loads(token, max_age=PREVIEW_AGE)
        if found["track"] != track.id or found["user"] != current_user.id:
            raise BadSignature("another track's or organiser's preview")
        data = storage().get(found["file"])
    except (BadSignature, FileNotFoundError, KeyError, TypeError):
        flash("This preview has expired: upload the file again. Nothing was stored.", "error")
        return redirect(url_for("human.campaigns", slug=slug, track_slug=track_slug))
    request_ = ImportRequest(
        found["name"], found["method"], found["criterion"], found["filename"],
        found.get("quality_control", ""), found.get("clusters", ""), found.get("options"),
    )  # fmt: skip
    read = read_import(db(), track, request_.method, request_.criterion, data, request_.filename)
    chosen = {m.name: request.form.get(f"map-{k}", "") for k, m in enumerate(read.names)}
    try:
        mapping = {name: parse_target(value) for name, value in chosen.items() if value}
        campaign = import_judgements_by(
            db(), current_user, track, request_.name, request_.method, request_.criterion, data,
            request_.filename, mapping, quality_control=request_.quality_control or None,
            clusters=request_.clusters or None, options=request_.options,
        )  # fmt: skip
    except Refused as error:
        return _preview(track, read, request_, token, chosen, str(error)), 400
    flash(
        f"Imported {(campaign.imported or {})['judgements']} judgements into {campaign.name}.",
        "info",
    )
    return redirect(url_for("human.campaign", slug=slug, track_slug=track_slug, name=campaign.name))


@bp.route(TRACK + "/<name>")
@login_required
def campaign(slug: str, track_slug: str, name: str) -> ResponseReturnValue:
    found = _organised_campaign(slug, track_slug, name)
    return _campaign_page(found, JudgeForm(prefix="judge"))


@bp.route(TRACK + "/<name>/judges", methods=["POST"])
@login_required
def import_judge(slug: str, track_slug: str, name: str) -> ResponseReturnValue:
    """An automatic judge's scores and spec, compared with the campaign's humans at once."""
    found = _organised_campaign(slug, track_slug, name)
    form = JudgeForm(prefix="judge")
    if not form.validate_on_submit():
        return _campaign_page(found, form), 400
    scores, spec = form.scores.data, form.spec.data
    try:
        run = import_judge_by(
            db(), current_user, found, form.name.data, scores.read(), scores.filename or "scores",
            spec.read(), spec.filename or "spec",
        )  # fmt: skip
    except Refused as error:
        form.name.errors.append(f"Refused: {error}. Nothing was stored.")
        return _campaign_page(found, form), 400
    flash(f"Judge {run.name} imported and compared with the humans.", "info")
    return redirect(url_for("human.campaign", slug=slug, track_slug=track_slug, name=name))


def _campaign_page(found: Campaign, judge_form: JudgeForm) -> str:
    results = found.results or {}
    viewer = viewer_of(db(), current_user, found.track.challenge_id)
    table = campaign_table(db(), found, viewer)
    return render_template(
        "human/campaign.html",
        campaign=found,
        track=found.track,
        hits=len(hits_of(db(), found)),
        units=db().scalar(select(func.count()).where(CampaignUnit.campaign_id == found.id)),
        table=table,
        stale=found.results is not None and table is None,
        quality_control=results.get("annotators"),
        action=ActionForm(),
        links_form=LinksForm(),
        judge_form=judge_form,
        judges=judge_views(db(), found, viewer),
    )


@bp.route(TRACK + "/<name>/links", methods=["POST"])
@login_required
def links(slug: str, track_slug: str, name: str) -> ResponseReturnValue:
    found = _organised_campaign(slug, track_slug, name)
    form = LinksForm()
    if not form.validate_on_submit():
        abort(400)
    tokens = create_links(db(), found, form.count.data)
    urls = [url_for("human.link_unit", token=token, _external=True) for token in tokens]
    return secret_page("human/links.html", campaign=found, track=found.track, urls=urls)


@bp.route(TRACK + "/<name>/<action>", methods=["POST"])
@login_required
def act(slug: str, track_slug: str, name: str, action: str) -> ResponseReturnValue:
    found = _organised_campaign(slug, track_slug, name)
    if not ActionForm().validate_on_submit() or action not in CAMPAIGN_ACTIONS:
        abort(400)
    try:
        outcome = campaign_action(db(), current_user, found, action)
    except DomainError as error:
        flash(str(error), "error")
    else:
        if outcome == QUEUED:
            current_app.extensions["nlgboard.queue"].enqueue_analysis(found.id)
            flash("The board's worker is computing the results (a large campaign); this page "
                  "shows them once it is done.", "info")  # fmt: skip
        elif action == "analyse":
            flash("Results computed.", "info")
    return redirect(url_for("human.campaign", slug=slug, track_slug=track_slug, name=name))


@bp.route(TRACK + "/<name>/judgements.csv")
@login_required
def judgements_csv(slug: str, track_slug: str, name: str) -> ResponseReturnValue:
    found = _organised_campaign(slug, track_slug, name)
    return Response(
        export_csv(db(), found),
        mimetype="text/csv",
        headers={"Content-Disposition": f"attachment; filename={found.name}-judgements.csv"},
    )


@bp.route(TRACK + "/<name>/heatmap.svg")
def heatmap(slug: str, track_slug: str, name: str) -> ResponseReturnValue:
    """The DA significance heatmap: public once published, organisers before; always the
    publication view (anonymised names, no withdrawn system)."""
    try:
        track = get_track(db(), slug, track_slug)
        found = get_campaign(db(), track, name)
    except DomainError:
        abort(404)
    viewer = viewer_of(db(), current_user, track.challenge_id)
    if not viewer.sees_campaign(found):
        abort(404)
    matrix = significance_matrix(db(), found, viewer)
    if matrix is None or len(matrix[0]) < 2:
        abort(404)
    labels, p_values = matrix
    key = ["heatmap", found.id, found.criterion, labels, p_values]
    svg = file_cache().get_or_make(
        STYLE, key, ".svg",
        lambda: heatmap_svg(labels, np.array(p_values, dtype=float), found.criterion).encode(),
    )  # fmt: skip
    return Response(svg, mimetype="image/svg+xml")


# Annotators ---------------------------------------------------------------------------------


def _may_annotate(campaign: Campaign) -> bool:
    return may_annotate(db(), current_user, campaign.track.challenge_id)


EMBARGOED = (
    "This campaign shows references, which stay hidden until the track's deadline has passed; "
    "it opens then."
)


@bp.route("/annotate")
@login_required
def annotate_index() -> ResponseReturnValue:
    if current_user.role not in (Role.ANNOTATOR, Role.ORGANISER, Role.ADMIN):
        abort(403)
    open_campaigns = [
        c for c in db().query(Campaign).filter(Campaign.is_open.is_(True)).order_by(Campaign.id)
        if _may_annotate(c)
    ]  # fmt: skip
    return render_template("human/annotate_index.html", campaigns=open_campaigns)


@bp.route("/annotate/<int:campaign_id>", methods=["GET", "POST"])
@login_required
def account_unit(campaign_id: int) -> ResponseReturnValue:
    found = db().get(Campaign, campaign_id)
    if found is None or not _may_annotate(found):
        abort(404)
    annotator = Annotator(f"u{current_user.id}", current_user.id)
    return _annotate(found, annotator, url_for("human.account_unit", campaign_id=campaign_id))


@bp.route("/annotate/link/<token>", methods=["GET", "POST"])
def link_unit(token: str) -> ResponseReturnValue:
    try:
        found, annotator = link_annotator(db(), token)
    except DomainError as error:
        return render_template("human/done.html", message=str(error)), 410
    return _annotate(found, annotator, url_for("human.link_unit", token=token))


def _annotate(found: Campaign, annotator: Annotator, here: str) -> ResponseReturnValue:
    """Show the next unit of the annotator's HIT (GET) or store the page they answered (POST)."""
    if references_embargoed(db(), found):
        return render_template("human/done.html", message=EMBARGOED), 403
    try:
        assignment = current_assignment(db(), found, annotator)
    except DomainError as refused:
        return render_template("human/done.html", message=str(refused))
    if assignment is None:
        return render_template("human/done.html", message="Nothing left to judge here. Thank you!")
    error = None
    if request.method == "POST":
        if not ActionForm().validate_on_submit():
            abort(400)
        unit_id = form_id(request.form.get("unit"))
        unit = db().get(CampaignUnit, unit_id) if unit_id is not None else None
        if unit is None:
            abort(400)
        try:
            record(db(), found, assignment, unit, annotator, request.form)
        except DomainError as refused:
            error = str(refused)
        else:
            if assignment.completed_at is not None:
                message = "HIT done. Thank you!"
                if annotator.link is None:
                    message += " Load the page again for the next HIT, if there is one."
                return render_template("human/done.html", message=message, again=here)
            return redirect(here)
    unit = next_unit(db(), assignment)
    if unit is None:
        return render_template("human/done.html", message="HIT done. Thank you!")
    done, total = progress(db(), assignment)
    return render_template(
        "human/unit.html",
        campaign=found,
        unit=unit,
        action=ActionForm(),
        here=here,
        done=done,
        total=total,
        error=error,
        previous=request.form if error else {},
        reference=unit.item.references[0].text
        if found.show_reference and unit.item.references
        else None,
        protocol=found.protocol,
    )
