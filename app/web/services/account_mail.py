"""What an account does by e-mail: reset a forgotten password, verify its address, choose its
notifications; and the administrator's rule on uploads from unverified addresses.

Links carry tokens signed with the board's secret key (itsdangerous) and expire. A reset token
names the account, a digest of its password hash and the outbox row of its mail, so it stops
working once the password changes (it is good for one reset) or a newer reset link is mailed. Mails are written to the outbox in the caller's
transaction; the caller commits, then posts them to the queue (``app.data.mail.outbox.post``).
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from itsdangerous import BadData, URLSafeTimedSerializer
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.data.mail.messages import MailError
from app.data.mail.outbox import add_mail
from app.data.models import NOTIFICATIONS, BoardSetting, Mail, Role, User, utcnow
from app.web.services import DomainError, action, committed
from app.web.services.accounts import create_user
from app.web.services.audit import record

RESET_HOURS = 2
VERIFY_DAYS = 7
RESEND_WAIT = timedelta(minutes=2)
"""One reset or verification mail per account in this long: a form cannot be used to flood
someone's mailbox."""

UNVERIFIED_MAY_UPLOAD = "unverified_may_upload"
UNVERIFIED_MAY_UPLOAD_DEFAULT = True
"""Unverified accounts may upload unless the administrator says otherwise: a board that
upgrades keeps working as before for everyone who registered meanwhile."""


def _signer(secret: str, purpose: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret, salt=f"nlgboard-{purpose}")


def _password_digest(user: User) -> str:
    return hashlib.sha256((user.password_hash or "").encode()).hexdigest()[:24]


def _recently_mailed(session: Session, user: User, kind: str) -> bool:
    since = utcnow() - RESEND_WAIT
    found = select(func.count(Mail.id)).where(
        Mail.user_id == user.id, Mail.kind == kind, Mail.created_at >= since
    )
    return bool(session.scalar(found))


@committed
def request_password_reset(session: Session, secret: str, email: str, base_url: str) -> list[Mail]:
    """Mail a reset link if ``email`` has an account; the caller answers the same either way."""
    user = session.scalar(select(User).where(User.email == email.strip().lower()))
    if user is None or _recently_mailed(session, user, "reset"):
        return []
    mail = add_mail(
        session, kind="reset", to=user.email, subject="Reset your password", body="",
        user=user, secret=True,
    )  # fmt: skip
    session.flush()  # the mail's id goes into the link: a newer mail voids the older links
    token = _signer(secret, "reset").dumps(
        {"u": user.id, "p": _password_digest(user), "m": mail.id}
    )
    mail.body = (
        f"Someone (we hope you) asked to reset the password of {user.email} on the NLG "
        f"shared-task board.\n\nChoose a new password here within {RESET_HOURS} hours:\n\n"
        f"{base_url}/password/reset/{token}\n\nThe link works once, and only while it is the "
        "newest one we sent. If you did not ask, ignore this mail: your password stays as it is."
    )
    return [mail]


def user_for_reset(session: Session, secret: str, token: str) -> User:
    """The account a reset link is for, while the link is fresh and unused."""
    try:
        claims = _signer(secret, "reset").loads(token, max_age=RESET_HOURS * 3600)
    except BadData:
        raise DomainError(
            "this reset link has expired or is not valid; ask for a new one"
        ) from None
    user = session.get(User, claims.get("u")) if isinstance(claims, dict) else None
    mail_id = claims.get("m") if isinstance(claims, dict) else None
    if (
        user is None
        or claims.get("p") != _password_digest(user)
        or not isinstance(mail_id, int)
        or _newer_reset_mail(session, user, mail_id)
    ):
        raise DomainError("this reset link has been used or replaced; ask for a new one")
    return user


def _newer_reset_mail(session: Session, user: User, mail_id: int) -> bool:
    """Whether a reset link was mailed to ``user`` after the one in mail ``mail_id`` (the
    outbox keeps its rows, the links' text erased once sent)."""
    newer = select(Mail.id).where(Mail.user_id == user.id, Mail.kind == "reset", Mail.id > mail_id)
    return session.scalar(newer.limit(1)) is not None


@committed
def reset_password(
    session: Session, secret: str, token: str, password: str, revoke_api_token: bool
) -> User:
    """Set the new password (which ends every session of the account and spends the link);
    with ``revoke_api_token`` the API token stops working too (make a new one on the Team
    page). A reset also proves the address."""
    user = user_for_reset(session, secret, token)
    user.set_password(password)
    if revoke_api_token:
        user.api_token_hash = None
    if user.email_verified_at is None:
        user.email_verified_at = utcnow()
    record(session, user, "password reset", user.email, None, api_token_revoked=revoke_api_token)
    return user


@committed
def send_verification(session: Session, secret: str, user: User, base_url: str) -> list[Mail]:
    """Mail the link that proves ``user`` owns the address (none if verified or just sent)."""
    if user.email_verified or _recently_mailed(session, user, "verify"):
        return []
    token = _signer(secret, "verify").dumps({"u": user.id, "e": user.email})
    body = (
        f"Welcome to the NLG shared-task board. To confirm that {user.email} is yours, open "
        f"this link within {VERIFY_DAYS} days:\n\n{base_url}/verify/{token}\n\n"
        "If you did not register, ignore this mail: nothing happens without the link."
    )
    try:
        mail = add_mail(
            session, kind="verify", to=user.email, subject="Confirm your e-mail address",
            body=body, user=user,
        )  # fmt: skip
    except MailError as error:
        raise DomainError(str(error)) from None
    session.flush()
    return [mail]


def register(
    session: Session, email: str, password: str, secret: str, base_url: str
) -> tuple[User, list[Mail]]:
    """A web registration: the unconfirmed account and the mail that confirms it, together
    (the mails are to be posted once committed)."""
    with action(session):
        user = create_user(session, email, password, verified=False)
        mails = send_verification(session, secret, user, base_url)
    return user, mails


@committed
def verify_address(session: Session, secret: str, token: str) -> User:
    """Mark the address of the link's account as confirmed (again: no harm)."""
    user = verification_user(session, secret, token)
    if user.email_verified_at is None:
        user.email_verified_at = utcnow()
    return user


def verification_user(session: Session, secret: str, token: str) -> User:
    """The account a confirmation link is for, while the link is fresh."""
    try:
        claims = _signer(secret, "verify").loads(token, max_age=VERIFY_DAYS * 24 * 3600)
    except BadData:
        raise DomainError(
            "this confirmation link has expired or is not valid; send a new one from your Team page"
        ) from None
    user = session.get(User, claims.get("u")) if isinstance(claims, dict) else None
    if user is None or claims.get("e") != user.email:
        raise DomainError("this confirmation link is not for any account here")
    return user


def unverified_may_upload(session: Session) -> bool:
    setting = session.get(BoardSetting, UNVERIFIED_MAY_UPLOAD)
    return UNVERIFIED_MAY_UPLOAD_DEFAULT if setting is None else bool(setting.value)


def set_unverified_may_upload(session: Session, actor: User, allowed: bool) -> None:
    """The administrator's rule; recorded in the audit log."""
    if actor.role != Role.ADMIN:
        raise DomainError("only an administrator changes who may upload")
    with action(session):
        setting = session.get(BoardSetting, UNVERIFIED_MAY_UPLOAD)
        if setting is None:
            session.add(BoardSetting(key=UNVERIFIED_MAY_UPLOAD, value=allowed))
        else:
            setting.value = allowed
        record(session, actor, "upload rule", f"unverified accounts may upload: {allowed}", None)


def check_may_upload(session: Session, user: User) -> None:
    if not user.email_verified and not unverified_may_upload(session):
        raise DomainError(
            f"confirm your e-mail address first: open the link we mailed to {user.email} "
            "(your Team page sends a new one)"
        )


@committed
def set_notifications(session: Session, user: User, wanted: set[str]) -> None:
    unknown = wanted - set(NOTIFICATIONS)
    if unknown:
        raise DomainError(f"unknown notifications: {', '.join(sorted(unknown))}")
    user.notifications_off = sorted(set(NOTIFICATIONS) - wanted)
