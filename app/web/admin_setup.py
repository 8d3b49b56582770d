"""``/setup/admin/<token>``: the one-time link that makes a fresh board's first administrator
(``app/web/services/admin_setup.py``). Opening it changes nothing; the button on it does."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_required

from app.web.extensions import db
from app.web.forms import ActionForm
from app.web.security import secret_page
from app.web.services.admin_setup import LinkState, link_state, redeem

bp = Blueprint("admin_setup", __name__)
STATUS = {
    LinkState.VALID: 200,
    LinkState.INVALID: 404,
    LinkState.EXPIRED: 410,
    LinkState.USED: 410,
    LinkState.ADMIN_EXISTS: 410,
}


@bp.get("/setup/admin/<token>")
def setup_admin(token: str) -> ResponseReturnValue:
    state = link_state(db(), current_app.config["SECRET_KEY"], token)
    page = secret_page(
        "setup/admin.html", state=state, form=ActionForm(), here=request.path, valid=LinkState.VALID
    )
    page.status_code = STATUS[state]
    return page


@bp.post("/setup/admin/<token>")
@login_required
def grant_admin(token: str) -> ResponseReturnValue:
    if not ActionForm().validate_on_submit():
        return redirect(url_for("admin_setup.setup_admin", token=token))
    state = redeem(db(), current_user, current_app.config["SECRET_KEY"], token)
    if state is not LinkState.VALID:
        return setup_admin(token)
    flash(
        f"{current_user.email} is the board's administrator: grant roles under Organise → "
        "Accounts. The setup link no longer works.",
        "info",
    )
    return redirect(url_for("organise.accounts"))
