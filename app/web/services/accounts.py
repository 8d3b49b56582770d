"""Users and teams."""

from __future__ import annotations

import hmac
from datetime import timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session, joinedload
from werkzeug.security import check_password_hash

from app.data.config import AccountLimits
from app.data.models import (
    AccountRequest,
    Challenge,
    ChallengeAnnotator,
    ChallengeOrganiser,
    LoginAttempt,
    Membership,
    Role,
    Team,
    User,
    hash_token,
    utcnow,
)
from app.data.models.accounts import unusable_hash
from app.web.errors import DomainError, TooManyRequests
from app.web.services import action, add_unique, committed
from app.web.services.audit import record
from app.web.services.names import check_name
from app.web.services.passwords import is_common


def create_user(
    session: Session,
    email: str,
    password: str | None = None,
    role: Role = Role.PARTICIPANT,
    verified: bool = True,
) -> User:
    """An account. One made on the server (CLI, demo, bundles) has an address its maker
    vouches for (``verified``); one registered on the web confirms it by mail."""
    email = email.strip().lower()
    user = User(email=email, role=role, email_verified_at=utcnow() if verified else None)
    if password:
        user.set_password(password)
    add_unique(session, user, duplicate=f"an account for {email} already exists")
    return user


def set_role(
    session: Session, email: str, role: Role, challenges: list[Challenge] | None = None
) -> User:
    """Give an existing account (one registered on the web, say) a role, and for organisers and
    annotators the challenges they work on; challenges already theirs are kept."""
    user = session.scalar(select(User).where(User.email == email.strip().lower()))
    if user is None:
        raise DomainError(f"no account for {email.strip().lower()}")
    user.role = role
    if not challenges:
        return user
    staff: type[ChallengeOrganiser] | type[ChallengeAnnotator]
    if role == Role.ORGANISER:
        staff = ChallengeOrganiser
    elif role == Role.ANNOTATOR:
        staff = ChallengeAnnotator
    else:
        raise DomainError(f"a {role.value} is not tied to challenges; drop --challenge")
    for challenge in challenges:
        listed = select(staff.id).where(
            staff.challenge_id == challenge.id, staff.user_id == user.id
        )
        if session.scalar(listed) is None:
            session.add(staff(challenge_id=challenge.id, user_id=user.id))
    return user


def grant_role(
    session: Session, actor: User | None, email: str, role: Role, challenges: list[Challenge]
) -> User:
    """``set_role`` as one action of ``actor`` (None: the server's command line), recorded in
    the audit log."""
    with action(session):
        account = set_role(session, email, role, challenges)
        record(session, actor, "user role", f"{account.email}: {account.role.value}",
               challenges[0].id if challenges else None)  # fmt: skip
    return account


def authenticate(session: Session, email: str, password: str) -> User | None:
    """The account, if the password is right. An unknown account costs the same hash check
    as a known one, so the answer's timing says nothing about who has an account."""
    user = session.scalar(select(User).where(User.email == email.strip().lower()))
    if user is None:
        check_password_hash(unusable_hash(), password)
        return None
    return user if user.check_password(password) else None


MIN_PASSWORD_LENGTH = 12
"""NIST SP 800-63B: a minimum length and a blocklist of common passwords, no composition rules.
Twelve characters, and Django's list of common passwords (``passwords.is_common``)."""


def password_problem(password: str, email: str) -> str | None:
    """Why a new password is refused, or None."""
    if len(password) < MIN_PASSWORD_LENGTH:
        return f"use at least {MIN_PASSWORD_LENGTH} characters (a few words make a good one)"
    if len(password) > 200:
        return "use at most 200 characters"
    if is_common(password):
        return "it is on a list of common passwords, the first ones attackers try"
    local = email.strip().lower().split("@")[0]
    if len(set(password)) < 3 or (len(local) >= 3 and local in password.lower()):
        return "use something not made of your e-mail address or one repeated character"
    return None


LOGIN_WINDOW = timedelta(minutes=15)
FAILURES_BEFORE_BACK_OFF = 5
"""Failed logins for one account from one source before each further try must wait."""
LONGEST_WAIT = timedelta(minutes=15)
FAILURES_PER_ADDRESS = 100
"""Failed logins within the window from one address, over all accounts, by browsers no account
logged in from before (password spraying): then such tries from that address wait."""


def login_wait(
    session: Session, email: str, address: str, device: str | None = None
) -> timedelta | None:
    """How long this try must wait before its password is checked, or None.

    Failures are counted per account and source, never per account alone: the source is the
    browser when it shows the device cookie the account's last login from it left
    (``device``), else the address. So neither a stranger failing elsewhere nor one behind the
    same NAT (one address for a whole lab) locks the owner out of a browser they used before.
    After 5 failures each further one doubles the wait (1, 2, 4 ... minutes, at most 15), with
    no CAPTCHA. An address failing on many accounts makes the tries from unknown browsers
    behind it wait for the window to pass; known browsers go on.
    """
    now = utcnow()
    email, address = _attempt_key(email, address)
    source = (
        LoginAttempt.device == device
        if device
        else (LoginAttempt.address == address) & LoginAttempt.device.is_(None)
    )
    failures, last = session.execute(
        select(func.count(LoginAttempt.id), func.max(LoginAttempt.at)).where(
            LoginAttempt.at >= now - 4 * LOGIN_WINDOW, LoginAttempt.email == email, source
        )
    ).one()
    if failures >= FAILURES_BEFORE_BACK_OFF:
        wait = min(LONGEST_WAIT, timedelta(minutes=2 ** (failures - FAILURES_BEFORE_BACK_OFF)))
        if now < last + wait:
            return last + wait - now
    if device:
        return None
    by_address = session.execute(
        select(func.count(LoginAttempt.id)).where(
            LoginAttempt.at >= now - LOGIN_WINDOW,
            LoginAttempt.address == address,
            LoginAttempt.device.is_(None),
        )
    ).scalar_one()
    return LOGIN_WINDOW if by_address >= FAILURES_PER_ADDRESS else None


def _attempt_key(email: str, address: str) -> tuple[str, str]:
    """How a failed login is filed: the e-mail as accounts store it, both cut to their columns."""
    return email.strip().lower()[:254], address[:64]


def note_failed_login(
    session: Session, email: str, address: str, device: str | None = None
) -> None:
    email, address = _attempt_key(email, address)
    session.add(LoginAttempt(email=email, address=address, device=device))
    session.execute(delete(LoginAttempt).where(LoginAttempt.at < utcnow() - 4 * LOGIN_WINDOW))
    session.commit()


REQUEST_WINDOW = timedelta(hours=1)
"""The window of the limits on registrations and account mails (``AccountLimits``)."""
BURST_WINDOW = timedelta(minutes=1)
"""The window of the burst limit on registrations (``AccountLimits.registrations_per_minute``):
a script sends its hour's share in seconds, people behind one NAT do not."""
REGISTER, RESET, VERIFY = "register", "reset", "verify"


def note_account_request(
    session: Session, kind: str, email: str, address: str, limits: AccountLimits
) -> bool:
    """Count a registration (``register``) or a reset or confirmation mail asked for (``reset``,
    ``verify``) from client ``address`` about ``email``, and say whether a mail may go to that
    address (False once it has received its hour's share, whoever asked).

    Raises ``TooManyRequests`` when ``address`` has sent its minute's or its hour's
    registrations or asked for its hour's mails (then nothing is counted, so a flood does not
    fill the table). Requests are counted whether or not ``email`` has an account, so neither
    limit says which addresses have one. The caller commits (with the action's other rows)."""
    email, address = _attempt_key(email, address)
    since = utcnow() - REQUEST_WINDOW
    _check_source(session, kind, address, limits)
    to_address = select(func.count(AccountRequest.id)).where(
        AccountRequest.at >= since, AccountRequest.email == email
    )
    mailed = session.scalar(to_address) or 0
    session.add(AccountRequest(kind=kind, email=email, address=address, at=utcnow()))
    session.execute(delete(AccountRequest).where(AccountRequest.at < since))
    return mailed < limits.mails_per_address


def _check_source(session: Session, kind: str, address: str, limits: AccountLimits) -> None:
    """Refuse a request from client ``address`` over one of its limits: registrations per
    minute (a burst) and per hour, or account mails per hour. Only per client address, never
    per e-mail domain: one university's domain, or its NAT, is many real people."""
    if kind == REGISTER:
        kinds = [REGISTER]
        windows = [
            (BURST_WINDOW, limits.registrations_per_minute, "minute"),
            (REQUEST_WINDOW, limits.registrations_per_hour, "hour"),
        ]
    else:
        kinds, windows = [RESET, VERIFY], [(REQUEST_WINDOW, limits.mails_per_hour, "hour")]
    now = utcnow()
    for window, most, name in windows:
        sent = select(func.count(AccountRequest.id)).where(
            AccountRequest.at >= now - window,
            AccountRequest.address == address,
            AccountRequest.kind.in_(kinds),
        )
        if (session.scalar(sent) or 0) >= most:
            raise TooManyRequests(
                f"too many requests from your network in the last {name}; try again later"
            )


@committed
def revoke_api_token(session: Session, user: User) -> None:
    """The token stops working at once (only its hash was stored, so nothing else to erase)."""
    user.api_token_hash = None


@committed
def new_api_token(session: Session, user: User) -> str:
    """A new API token, shown once (only its hash is kept)."""
    return user.new_api_token()


@committed
def end_sessions(session: Session, user: User) -> None:
    """Log out everywhere: every session cookie of the account stops working."""
    user.end_sessions()


def user_for_token(session: Session, token: str) -> User | None:
    """The token's user with their team, in one query: every API request asks for both."""
    found = session.execute(
        select(User)
        .where(User.api_token_hash == hash_token(token))
        .options(joinedload(User.memberships).joinedload(Membership.team))
    )
    return found.unique().scalar_one_or_none()


TEAM_NAME_MAX = 100


@committed
def create_team(session: Session, user: User, name: str) -> Team:
    _require_no_team(user)
    name = check_name(name, "team name", TEAM_NAME_MAX)
    if session.scalar(select(Team).where(func.lower(Team.name) == name.lower())):
        raise DomainError(f"a team called {name!r} already exists; join it with its code")
    team = Team(name=name)
    add_unique(
        session, team, Membership(user=user, team=team), duplicate=f"a team called {name!r} exists"
    )
    return team


def team_named(session: Session, name: str) -> Team | None:
    """The team called ``name``, letter case and outer spaces aside, as ``create_team`` keeps
    names unique."""
    return session.scalar(select(Team).where(func.lower(Team.name) == name.strip().lower()))


@committed
def join_team(session: Session, user: User, name: str, join_code: str) -> Team:
    _require_no_team(user)
    team = team_named(session, name)
    given = join_code.strip().encode()  # compare_digest takes str of ASCII only
    if team is None or not hmac.compare_digest(team.join_code.encode(), given):
        raise DomainError("no team with that name and join code")
    session.add(Membership(user=user, team=team))
    session.flush()
    return team


def find_or_create_team(session: Session, name: str) -> Team:
    name = check_name(name, "team name", TEAM_NAME_MAX)
    team = session.scalar(select(Team).where(Team.name == name))
    if team is None:
        team = Team(name=name)
        session.add(team)
        session.flush()
    return team


def _require_no_team(user: User) -> None:
    if user.team is not None:
        raise DomainError(f"you are already in team {user.team.name!r}")
