"""A participant's team: create one, join one with its code, see the members."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_required
from flask_wtf import FlaskForm

from app.data.models import NOTIFICATIONS
from app.web.errors import DomainError
from app.web.extensions import db
from app.web.forms import ActionForm, CreateTeamForm, JoinTeamForm
from app.web.services.account_mail import unverified_may_upload
from app.web.services.accounts import create_team, join_team
from app.web.services.tracks import submittable_tracks

bp = Blueprint("teams", __name__)


@bp.route("/team", methods=["GET"])
@login_required
def team() -> ResponseReturnValue:
    return render_template(
        "teams/team.html",
        team=current_user.team,
        create_form=CreateTeamForm(prefix="create"),
        join_form=JoinTeamForm(prefix="join"),
        token_form=ActionForm(),
        tracks=submittable_tracks(db()) if current_user.team else [],
        notifications=NOTIFICATIONS,
        may_upload=unverified_may_upload(db()),
    )


@bp.route("/team/create", methods=["POST"])
@login_required
def create() -> ResponseReturnValue:
    form = CreateTeamForm(prefix="create")
    if form.validate_on_submit():
        try:
            created = create_team(db(), current_user, form.name.data)
        except DomainError as error:
            flash(str(error), "error")
        else:
            # Not the join code: a flash travels in the session cookie, signed but readable.
            flash(f"Team {created.name!r} created. Give team mates its join code below.", "info")
    else:
        _flash_form_errors(form)
    return redirect(url_for("teams.team"))


@bp.route("/team/join", methods=["POST"])
@login_required
def join() -> ResponseReturnValue:
    form = JoinTeamForm(prefix="join")
    if form.validate_on_submit():
        try:
            joined = join_team(db(), current_user, form.name.data, form.join_code.data)
        except DomainError as error:
            flash(str(error), "error")
        else:
            flash(f"You joined {joined.name!r}.", "info")
    else:
        _flash_form_errors(form)
    return redirect(url_for("teams.team"))


def _flash_form_errors(form: FlaskForm) -> None:
    for field, messages in form.errors.items():
        for message in messages:
            flash(f"{getattr(form, field).label.text}: {message}", "error")
