"""What an account does by e-mail: reset a forgotten password, verify its address, choose its
notifications; and the administrator's rule on uploads from unverified addresses.

Links carry tokens signed with the board's secret key (itsdangerous) and expire. A reset token
names the account, a digest of its password hash and the outbox row of its mail, so it stops
working once the password changes (it is good for one reset) or a newer reset link is mailed. Mails are written to the outbox in the caller's
transaction; the caller commits, then posts them to the queue (``app.data.mail.outbox.post``).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from itsdangerous import BadData, URLSafeTimedSerializer
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from app.data.config import AccountLimits
from app.data.errors import MailError
from app.data.mail.messages import check_address
from app.data.mail.outbox import add_mail
from app.data.models import (
    NOTIFICATIONS,
    BoardSetting,
    Mail,
    PendingRegistration,
    Role,
    User,
    utcnow,
)
from app.data.models.accounts import hash_password
from app.web.errors import DomainError
from app.web.services import action, add_unique, committed
from app.web.services.accounts import REGISTER, RESET, VERIFY, note_account_request
from app.web.services.audit import record

RESET_HOURS = 2
VERIFY_DAYS = 7
RESEND_WAIT = timedelta(minutes=2)
"""One reset or verification mail per account in this long: a form cannot be used to flood
someone's mailbox."""

DEFAULT_LIMITS = AccountLimits()

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
def request_password_reset(
    session: Session,
    secret: str,
    email: str,
    base_url: str,
    address: str = "unknown",
    limits: AccountLimits = DEFAULT_LIMITS,
) -> list[Mail]:
    """Mail a reset link if ``email`` has an account; the caller answers the same either way.

    Both ways do the same work: the request is counted for the limits (``TooManyRequests``
    from ``address``), a link is signed and the mail written; only for an account, under the
    limits, is the mail kept (the 5.4 vs 2.9 ms of a known vs an unknown address was a timing
    oracle)."""
    email = email.strip().lower()
    may_mail = note_account_request(session, RESET, email, address, limits)
    user = session.scalar(select(User).where(User.email == email))
    send = user is not None and may_mail and not _recently_mailed(session, user, "reset")
    mail = None
    if send and user is not None:
        mail = add_mail(
            session, kind="reset", to=user.email, subject="Reset your password", body="",
            user=user, secret=True,
        )  # fmt: skip
        session.flush()  # the mail's id goes into the link: a newer mail voids the older links
    claims = {
        "u": user.id if user is not None else 0,
        "p": _password_digest(user) if user is not None else _UNUSABLE_DIGEST,
        "m": mail.id if mail is not None else 0,
    }
    token = _signer(secret, "reset").dumps(claims)
    body = (
        f"Someone (we hope you) asked to reset the password of {email} on the NLG "
        f"shared-task board.\n\nChoose a new password here within {RESET_HOURS} hours:\n\n"
        f"{base_url}/password/reset/{token}\n\nThe link works once, and only while it is the "
        "newest one we sent. If you did not ask, ignore this mail: your password stays as it is."
    )
    if mail is None:
        return []
    mail.body = body
    return [mail]


_UNUSABLE_DIGEST = "-" * 24
"""What the link made for an address without account carries (it is never mailed)."""


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
def send_verification(
    session: Session,
    secret: str,
    user: User,
    base_url: str,
    address: str = "unknown",
    limits: AccountLimits = DEFAULT_LIMITS,
) -> list[Mail]:
    """Mail the link that proves ``user`` owns the address (none if verified or just sent);
    counted for the limits on account mails (``TooManyRequests`` from ``address``)."""
    if user.email_verified or _recently_mailed(session, user, "verify"):
        return []
    if not note_account_request(session, VERIFY, user.email, address, limits):
        return []
    token = _signer(secret, "verify").dumps({"u": user.id, "e": user.email})
    body = (
        f"To confirm that {user.email} is yours on the NLG shared-task board, open "
        f"this link within {VERIFY_DAYS} days:\n\n{base_url}/verify/{token}\n\n"
        "If you did not ask for it, ignore this mail: nothing happens without the link."
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


@committed
def register(
    session: Session,
    email: str,
    password: str,
    secret: str,
    base_url: str,
    address: str = "unknown",
    limits: AccountLimits = DEFAULT_LIMITS,
) -> list[Mail]:
    """A web registration, which says nothing about who has an account: the account is made
    only when the link mailed to the address is opened (``confirm_registration``); an address
    that has an account already gets a mail saying so (log in, or reset the password) and
    nothing else changes. Both ways hash the password, sign a link and write one mail, so
    neither the answer nor its time tells them apart; over the address's hourly share of mails
    neither mails anything. Registrations from one client ``address`` are limited per hour
    (``TooManyRequests``). The mails are to be posted once committed."""
    try:  # a header injection is refused, not mailed (the form checks it first)
        email = check_address(email.strip().lower())
    except MailError as error:
        raise DomainError(str(error)) from None
    may_mail = note_account_request(session, REGISTER, email, address, limits)
    password_hash = hash_password(password)
    user = session.scalar(select(User).where(User.email == email))
    nonce = secrets.token_hex(16)
    token = _signer(secret, "verify").dumps({"e": email, "n": nonce})
    if user is None:
        subject = "Confirm your e-mail address"
        body = (
            f"Welcome to the NLG shared-task board. To finish registering {email}, open this "
            f"link within {VERIFY_DAYS} days (it logs you in):\n\n{base_url}/verify/{token}\n\n"
            "If you did not register, ignore this mail: no account is made without the link."
        )
    else:
        subject = "Someone tried to register with your address"
        body = (
            f"Someone (perhaps you) tried to register {email} on the NLG shared-task board, "
            f"which has an account already. Log in at {base_url}/login; if you forgot the "
            f"password, choose a new one at {base_url}/password/forgot.\n\n"
            "If it was not you, ignore this mail: nothing changed."
        )
    if not may_mail:
        return []
    stale = utcnow() - timedelta(days=VERIFY_DAYS)
    session.execute(delete(PendingRegistration).where(PendingRegistration.created_at < stale))
    if user is None:
        pending = session.scalar(
            select(PendingRegistration).where(PendingRegistration.email == email)
        )
        if pending is None:
            pending = PendingRegistration(email=email)
            session.add(pending)
        pending.password_hash, pending.nonce, pending.created_at = password_hash, nonce, utcnow()
    mail = add_mail(
        session, kind="verify" if user is None else "registered", to=email, subject=subject,
        body=body, user=user, secret=user is None,
    )  # fmt: skip
    session.flush()
    return [mail]


def pending_registration(session: Session, secret: str, token: str) -> PendingRegistration | None:
    """The registration a confirmation link finishes (None: the link is for an account's
    address, ``verification_user``); a stale or replaced link raises DomainError."""
    claims = _verification_claims(secret, token)
    if "n" not in claims:
        return None
    pending = session.scalar(
        select(PendingRegistration).where(
            PendingRegistration.email == claims.get("e"),
            PendingRegistration.nonce == claims.get("n"),
        )
    )
    if pending is None:
        raise DomainError(
            "this link has been used or replaced by a newer registration; log in, or register again"
        )
    return pending


@committed
def confirm_registration(session: Session, secret: str, token: str) -> User:
    """Make the account of a registration whose link was opened: its address is confirmed."""
    pending = pending_registration(session, secret, token)
    if pending is None:
        raise DomainError("this link is not a registration's")
    if session.scalar(select(User.id).where(User.email == pending.email)) is not None:
        raise DomainError("this address has an account already; log in")
    user = User(email=pending.email, password_hash=pending.password_hash,
                email_verified_at=utcnow())  # fmt: skip
    session.delete(pending)
    add_unique(session, user, duplicate="this address has an account already; log in")
    return user


@committed
def verify_address(session: Session, secret: str, token: str) -> User:
    """Mark the address of the link's account as confirmed (again: no harm)."""
    user = verification_user(session, secret, token)
    if user.email_verified_at is None:
        user.email_verified_at = utcnow()
    return user


def _verification_claims(secret: str, token: str) -> dict:
    try:
        claims = _signer(secret, "verify").loads(token, max_age=VERIFY_DAYS * 24 * 3600)
    except BadData:
        raise DomainError(
            "this confirmation link has expired or is not valid; register again, or send a new "
            "one from your Team page"
        ) from None
    if not isinstance(claims, dict):
        raise DomainError("this confirmation link is not for any account here")
    return claims


def verification_user(session: Session, secret: str, token: str) -> User:
    """The account a confirmation link is for, while the link is fresh."""
    claims = _verification_claims(secret, token)
    user = session.get(User, claims.get("u")) if isinstance(claims.get("u"), int) else None
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
