"""An account by e-mail: forgotten password, address confirmation, notification switches.

Links in mails point at the configured ``NLGBOARD_BASE_URL``, never at the request's Host
header (which whoever sends the request chooses: a reset link to their own site)."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_required, login_user

from app.data.config import AccountLimits
from app.data.mail.outbox import post
from app.data.mail.transport import outbox_copy
from app.data.models import NOTIFICATIONS, Mail
from app.web.auth import after_registering
from app.web.errors import DomainError, TooManyRequests
from app.web.extensions import db, settings, submission_queue
from app.web.forms import ActionForm, ForgotPasswordForm, ResetPasswordForm
from app.web.security import secret_page
from app.web.services.account_mail import (
    RESET_HOURS,
    confirm_registration,
    pending_registration,
    request_password_reset,
    reset_password,
    send_verification,
    set_notifications,
    user_for_reset,
    verification_user,
    verify_address,
)
from app.web.services.accounts import password_problem

bp = Blueprint("account", __name__)

RESET_SENT = (
    "If an account has that address, a link to choose a new password is on its way to it. "
    "It works for {hours} hours."
)


def _secret() -> str:
    return current_app.config["SECRET_KEY"]


def _base_url() -> str:
    return settings().mail.base_url


def _client() -> str:
    """The client's address as the app sees it (behind its proxy, the one the proxy names)."""
    return request.remote_addr or "unknown"


def _limits() -> AccountLimits:
    return settings().account_limits


def post_mails(mails: list[Mail]) -> None:
    """After the commit: the queue sends them (or, if it is down, the recovery pass)."""
    post(submission_queue(), [mail.id for mail in mails])


@bp.route("/password/forgot", methods=["GET", "POST"])
def forgot_password() -> ResponseReturnValue:
    """The same answer whether or not the address has an account."""
    form = ForgotPasswordForm()
    if form.validate_on_submit():
        try:
            mails = request_password_reset(
                db(), _secret(), form.email.data, _base_url(), _client(), _limits()
            )
        except TooManyRequests as error:
            form.email.errors.append(f"Not sent: {error}.")
            return render_template("account/forgot.html", form=form), 429
        post_mails(mails)
        flash(RESET_SENT.format(hours=RESET_HOURS), "info")
        return redirect(url_for("account.forgot_password"))
    return render_template("account/forgot.html", form=form)


@bp.route("/password/reset/<token>", methods=["GET", "POST"])
def reset(token: str) -> ResponseReturnValue:
    """A secret page (the token is in its URL): not cached, no referrer to other sites."""
    try:
        user = user_for_reset(db(), _secret(), token)
    except DomainError as error:
        return render_template("account/link_refused.html", reason=str(error)), 410
    form = ResetPasswordForm()
    if form.validate_on_submit():
        problem = password_problem(form.password.data, user.email)
        if problem:
            form.password.errors.append(f"Choose another password: {problem}.")
        else:
            reset_password(db(), _secret(), token, form.password.data, form.revoke_token.data)
            flash("Your password is changed and every session was ended: log in.", "info")
            return redirect(url_for("auth.login"))
    return secret_page("account/reset.html", form=form, email=user.email)


@bp.route("/verify/<token>", methods=["GET", "POST"])
def verify(token: str) -> ResponseReturnValue:
    """GET asks to confirm (mail scanners open links), POST confirms: an account's address, or
    a registration, whose account is made then and logged in."""
    form = ActionForm()
    try:
        pending = pending_registration(db(), _secret(), token)
        if pending is None:
            verification_user(db(), _secret(), token)
    except DomainError as error:
        return render_template("account/link_refused.html", reason=str(error)), 410
    if request.method == "POST":
        if not form.validate_on_submit():
            return render_template("account/link_refused.html", reason="the form expired"), 400
        try:
            if pending is not None:
                user = confirm_registration(db(), _secret(), token)
            else:
                user = verify_address(db(), _secret(), token)
        except DomainError as error:
            return render_template("account/link_refused.html", reason=str(error)), 410
        if pending is not None:
            login_user(user)
            flash(f"Welcome! {user.email} is confirmed. Create or join a team to submit.", "info")
            return redirect(after_registering())
        flash(f"Thank you: {user.email} is confirmed.", "info")
        return redirect(url_for("teams.team" if current_user.is_authenticated else "auth.login"))
    return secret_page("account/verify.html", form=form, registering=pending is not None)


@bp.post("/account/verify")
@login_required
def resend_verification() -> ResponseReturnValue:
    if not ActionForm().validate_on_submit():
        return redirect(url_for("teams.team"))
    try:
        mails = send_verification(db(), _secret(), current_user, _base_url(), _client(), _limits())
    except DomainError as error:
        flash(f"Not sent: {error}.", "error")
    else:
        post_mails(mails)
        copy = outbox_copy(settings(), mails[0].id) if mails else None
        flash(
            f"A confirmation link is on its way to {current_user.email}."
            + (f" No mail server is configured: the board writes it to {copy} in its "
               "instance folder." if copy else "")
            if mails
            else "A link was sent a moment ago (or the address is confirmed already).",
            "info",
        )  # fmt: skip
    return redirect(url_for("teams.team"))


@bp.post("/account/notifications")
@login_required
def notifications() -> ResponseReturnValue:
    if ActionForm().validate_on_submit():
        wanted = {kind for kind in NOTIFICATIONS if request.form.get(f"notify-{kind}") == "on"}
        set_notifications(db(), current_user, wanted)
        flash("Your notification settings are saved.", "info")
    return redirect(url_for("teams.team"))
