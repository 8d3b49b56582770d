"""Register, log in, log out (session cookie) and API bearer tokens."""

from __future__ import annotations

import hashlib
import secrets
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_required, login_user, logout_user
from itsdangerous import BadData, URLSafeSerializer
from werkzeug.wrappers import Response as WerkzeugResponse

from app.data.mail.outbox import post
from app.data.models import User
from app.web.errors import DomainError, TooManyRequests
from app.web.extensions import db, login_manager, settings, submission_queue
from app.web.forms import LoginForm, RegisterForm
from app.web.security import secret_page
from app.web.services.account_mail import register as register_account
from app.web.services.accounts import (
    authenticate,
    end_sessions,
    login_wait,
    new_api_token,
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


AFTER_REGISTERING = "after_registering"
"""The session's page to go to once the registration's link is opened (in the same browser)."""


@bp.route("/register", methods=["GET", "POST"])
def register() -> ResponseReturnValue:
    """The same answer whether or not the address has an account ("check your mail"): the
    account is made when the mailed link is opened, which logs it in; an address with an
    account gets a mail saying so instead."""
    form = RegisterForm()
    if form.validate_on_submit():
        problem = password_problem(form.password.data, form.email.data)
        if problem:
            form.password.errors.append(f"Choose another password: {problem}.")
            return render_template("auth/register.html", form=form)
        try:
            mails = register_account(
                db(), form.email.data, form.password.data,
                current_app.config["SECRET_KEY"], settings().mail.base_url,
                request.remote_addr or "unknown", settings().account_limits,
            )  # fmt: skip
        except TooManyRequests as error:
            form.email.errors.append(f"Not registered: {error}.")
            return render_template("auth/register.html", form=form), 429
        except DomainError as error:
            form.email.errors.append(f"Not registered: {error}.")
            return render_template("auth/register.html", form=form)
        post(submission_queue(), [mail.id for mail in mails])
        session[AFTER_REGISTERING] = _safe_next(request.args.get("next")) or url_for("teams.team")
        return render_template(
            "auth/registered.html",
            email=form.email.data.strip().lower(),
            outbox=settings().mail.host is None,
        )
    return render_template("auth/register.html", form=form)


def after_registering() -> str:
    """Where the browser that registered goes once its link is opened (logged in)."""
    return _safe_next(session.pop(AFTER_REGISTERING, None)) or url_for("teams.team")


@bp.route("/login", methods=["GET", "POST"])
def login() -> ResponseReturnValue:
    form = LoginForm()
    if form.validate_on_submit():
        address = request.remote_addr or "unknown"
        device = _known_device(form.email.data)
        wait = login_wait(db(), form.email.data, address, device)
        if wait is not None:
            minutes = max(1, round(wait.total_seconds() / 60))
            form.password.errors.append(
                f"Too many failed logins from here; wait {minutes} minute(s) and try again."
            )
            return render_template("auth/login.html", form=form), 429
        user = authenticate(db(), form.email.data, form.password.data)
        if user is None:
            note_failed_login(db(), form.email.data, address, device)
            form.password.errors.append("Wrong e-mail or password.")
        else:
            login_user(user)
            answer = redirect(_safe_next(request.args.get("next")) or url_for("challenges.index"))
            _remember_device(answer, user.email, device)
            return answer
    return render_template("auth/login.html", form=form)


DEVICE_COOKIE = "nlgboard_device"
"""Left by a successful login: this browser has logged in to that account before, so its
failed logins count for the browser rather than for its address (``login_wait``)."""
DEVICE_COOKIE_DAYS = 365


def _device_signer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt="login-device")


def _account_tag(email: str) -> str:
    """Which account a device cookie is for, without the address in clear in the cookie."""
    return hashlib.sha256(email.strip().lower().encode()).hexdigest()[:16]


def _known_device(email: str) -> str | None:
    """The browser's device id if its (signed) device cookie is for this account."""
    try:
        shown = _device_signer().loads(request.cookies.get(DEVICE_COOKIE, ""))
    except BadData:
        return None
    if not isinstance(shown, dict) or shown.get("account") != _account_tag(email):
        return None
    device = shown.get("device")
    return device if isinstance(device, str) and len(device) == 16 else None


def _remember_device(response: WerkzeugResponse, email: str, device: str | None) -> None:
    value = {"account": _account_tag(email), "device": device or secrets.token_hex(8)}
    response.set_cookie(
        DEVICE_COOKIE,
        _device_signer().dumps(value),
        max_age=DEVICE_COOKIE_DAYS * 24 * 3600,
        path=url_for("auth.login"),
        secure=current_app.config["SESSION_COOKIE_SECURE"],
        httponly=True,
        samesite="Lax",
    )


@bp.route("/logout", methods=["POST"])
@login_required
def logout() -> ResponseReturnValue:
    end_sessions(db(), current_user)
    logout_user()
    return redirect(url_for("challenges.index"))


@bp.route("/account/token", methods=["POST"])
@login_required
def new_token() -> ResponseReturnValue:
    """Shown once, on this page only: never in a flash message (the session cookie is signed,
    not encrypted) nor in a URL; the answer is not to be cached."""
    token = new_api_token(db(), current_user)
    return secret_page("auth/token.html", token=token)


@bp.route("/account/token/revoke", methods=["POST"])
@login_required
def revoke_token() -> ResponseReturnValue:
    revoke_api_token(db(), current_user)
    flash("Your API token is revoked: scripts using it now get 401.", "info")
    return redirect(url_for("teams.team"))


def _safe_next(target: str | None) -> str | None:
    """Only same-site paths: an open redirect after login is a phishing aid. Browsers and
    URL parsers drop tabs and line breaks and read a backslash as a slash, so ``/<TAB>/evil``
    and ``/\\evil`` would leave the site: any such character refuses the target."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return None
    if any(char == "\\" or char.isspace() or not char.isprintable() for char in target):
        return None
    parts = urlsplit(target)
    return target if not (parts.scheme or parts.netloc) else None
