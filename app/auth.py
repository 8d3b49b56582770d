"""Register, log in, log out (session cookie) and API bearer tokens."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required, login_user, logout_user

from app.extensions import db, login_manager
from app.forms import LoginForm, RegisterForm
from app.models import User
from app.security import secret_page
from app.services import DomainError
from app.services.accounts import (
    authenticate,
    create_user,
    login_wait,
    note_failed_login,
    password_problem,
    revoke_api_token,
)

bp = Blueprint("auth", __name__)


@login_manager.user_loader
def load_user(session_id: str) -> User | None:
    """The session's user while its nonce is current (logout and a new password change it)."""
    user_id, _, nonce = session_id.partition(":")
    if not user_id.isdigit() or len(user_id) > 18:
        return None
    user = db().get(User, int(user_id))
    return user if user is not None and nonce and user.session_nonce == nonce else None


@bp.route("/register", methods=["GET", "POST"])
def register():
    form = RegisterForm()
    if form.validate_on_submit():
        problem = password_problem(form.password.data, form.email.data)
        if problem:
            form.password.errors.append(f"Choose another password: {problem}.")
            return render_template("auth/register.html", form=form)
        try:
            user = create_user(db(), form.email.data, form.password.data)
            db().commit()
        except DomainError:
            db().rollback()
            note_failed_login(db(), form.email.data, request.remote_addr or "unknown")
            form.email.errors.append(
                "This account cannot be created. If you have one, log in; otherwise use "
                "another e-mail address."
            )
        else:
            login_user(user)
            flash("Welcome! Create or join a team to submit.", "info")
            return redirect(_safe_next(request.args.get("next")) or url_for("teams.team"))
    return render_template("auth/register.html", form=form)


@bp.route("/login", methods=["GET", "POST"])
def login():
    form = LoginForm()
    if form.validate_on_submit():
        address = request.remote_addr or "unknown"
        wait = login_wait(db(), form.email.data, address)
        if wait is not None:
            minutes = max(1, round(wait.total_seconds() / 60))
            form.password.errors.append(
                f"Too many failed logins from here; wait {minutes} minute(s) and try again."
            )
            return render_template("auth/login.html", form=form), 429
        user = authenticate(db(), form.email.data, form.password.data)
        if user is None:
            note_failed_login(db(), form.email.data, address)
            form.password.errors.append("Wrong e-mail or password.")
        else:
            login_user(user)
            return redirect(_safe_next(request.args.get("next")) or url_for("challenges.index"))
    return render_template("auth/login.html", form=form)


@bp.route("/logout", methods=["POST"])
@login_required
def logout():
    current_user.end_sessions()
    db().commit()
    logout_user()
    return redirect(url_for("challenges.index"))


@bp.route("/account/token", methods=["POST"])
@login_required
def new_token():
    """Shown once, on this page only: never in a flash message (the session cookie is signed,
    not encrypted) nor in a URL; the answer is not to be cached."""
    token = current_user.new_api_token()
    db().commit()
    return secret_page("auth/token.html", token=token)


@bp.route("/account/token/revoke", methods=["POST"])
@login_required
def revoke_token():
    revoke_api_token(db(), current_user)
    flash("Your API token is revoked: scripts using it now get 401.", "info")
    return redirect(url_for("teams.team"))


def _safe_next(target: str | None) -> str | None:
    """Only same-site paths: an open redirect after login is a phishing aid."""
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return None
