"""Accounts: ``nlgboard user``."""

from __future__ import annotations

import click
from flask.cli import AppGroup

from app.data.db import session_scope
from app.data.models import ChallengeAnnotator, ChallengeOrganiser, Role
from app.entry.cli.common import board_settings, fail
from app.web.errors import DomainError
from app.web.services.accounts import create_user, find_or_create_team, grant_role, password_problem
from app.web.services.tracks import (
    get_challenge,
)


@click.group(cls=AppGroup)
def user() -> None:
    """Accounts."""


@user.command("create")
@click.argument("email")
@click.option("--role", type=click.Choice([r.value for r in Role]), default=Role.PARTICIPANT.value)
@click.option(
    "--team", "team_name", default=None, help="Put the user in this team (created if new)."
)
@click.option("--password", default=None, help="Password for the web login (optional).")
@click.option(
    "--challenge",
    "challenges",
    multiple=True,
    help="Organiser (--role organiser) or annotator (--role annotator) of this challenge.",
)
def user_create(
    email: str, role: str, team_name: str | None, password: str | None, challenges: tuple[str, ...]
) -> None:
    """Create a user and print their API token (shown once)."""
    from app.data.models import Membership

    problem = password_problem(password, email) if password else None
    if problem:
        fail(DomainError(f"--password: {problem}"))
    with session_scope(board_settings().database_url) as session:
        account = create_user(session, email, password, Role(role))
        if team_name:
            session.add(Membership(user=account, team=find_or_create_team(session, team_name)))
        staff = ChallengeAnnotator if account.role == Role.ANNOTATOR else ChallengeOrganiser
        for slug in challenges:
            session.add(staff(challenge_id=get_challenge(session, slug).id, user_id=account.id))
        token = account.new_api_token()
    click.echo(token)


@user.command("role")
@click.argument("email")
@click.argument("role", type=click.Choice([r.value for r in Role]))
@click.option(
    "--challenge",
    "challenges",
    multiple=True,
    help="Organiser or annotator of this challenge (repeat for several).",
)
def user_role(email: str, role: str, challenges: tuple[str, ...]) -> None:
    """Give an existing account a role (e.g. make a web-registered user an organiser)."""
    with session_scope(board_settings().database_url) as session:
        found = [get_challenge(session, slug) for slug in challenges]
        account = grant_role(session, None, email, Role(role), found)
        click.echo(f"{account.email} is now {account.role.value}"
                   + (f" of {', '.join(challenges)}" if challenges else ""))  # fmt: skip


@user.command("admin-link")
@click.option(
    "--url", default="http://127.0.0.1:5000", show_default=True, help="The board's address."
)
def user_admin_link(url: str) -> None:
    """Print a one-time link that makes the account opening it the administrator (while the
    board has none; valid 24 h). ``nlgboard run`` prints one at start-up."""
    from flask import current_app

    from app.data.mail.transport import where_mail_goes
    from app.web.services.admin_setup import has_admin, setup_path

    settings = board_settings()
    with session_scope(settings.database_url) as session:
        if has_admin(session):
            fail(DomainError("the board has an administrator; run: nlgboard user role EMAIL admin"))
    click.echo(url.rstrip("/") + setup_path(current_app.config["SECRET_KEY"]))
    note = where_mail_goes(settings)
    if note:  # on stderr: the link alone on stdout, for LINK=$(nlgboard user admin-link)
        click.echo(f"registering through it: {note}", err=True)
