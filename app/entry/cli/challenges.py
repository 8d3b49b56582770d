"""Challenges: ``nlgboard challenge``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click
from flask import current_app
from flask.cli import AppGroup

from app.data.db import session_scope
from app.data.storage import storage_for
from app.entry.cli.common import analyse_if_embedded, board_settings, fail, score_if_embedded
from scorer.errors import Refused

if TYPE_CHECKING:
    from app.web.services.bundles import Bundle
from app.web.services.tracks import (
    create_challenge,
)


@click.group(cls=AppGroup)
def challenge() -> None:
    """Challenges."""


@challenge.command("create")
@click.argument("slug")
@click.option("--title", required=True)
@click.option("--description", default="")
def challenge_create(slug: str, title: str, description: str) -> None:
    """Create a challenge."""
    with session_scope(board_settings().database_url) as session:
        create_challenge(session, slug, title, description)
    click.echo(f"challenge {slug} created")


@challenge.command("import")
@click.argument("bundle_path", metavar="BUNDLE", type=click.Path(exists=True, path_type=Path))
def challenge_import(bundle_path: Path) -> None:
    """Create a challenge from a bundle: a folder or zip holding challenge.yaml and its data
    files (README: "Challenge bundles"). A bad bundle is refused whole; nothing is stored."""
    from app.web.services.bundles import import_bundle

    settings = board_settings()
    queue = current_app.extensions["nlgboard.queue"]
    try:
        bundle = _read_bundle(bundle_path, settings.bundle_max_bytes)
        with session_scope(settings.database_url) as session:
            report = import_bundle(session, queue, storage_for(settings), bundle)
    except Refused as error:
        fail(error)
    click.echo(report.summary())
    for notice in report.notices:
        click.echo(notice)
    outcomes = score_if_embedded(queue, settings, report.submissions)
    if report.submissions:
        click.echo(f"submissions: {', '.join(sorted(set(outcomes)))}")
    analysed = analyse_if_embedded(queue, settings, report.analyses)
    if report.analyses:
        click.echo(f"human evaluations: {', '.join(sorted(set(analysed)))}")


def _read_bundle(path: Path, max_bytes: int) -> Bundle:
    from app.web.services.bundles import Bundle

    if path.is_dir():
        return Bundle.from_folder(path, max_bytes)
    return Bundle.from_zip(path.read_bytes(), path.name, max_bytes)


@challenge.command("export")
@click.argument("slug")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--with-submissions", is_flag=True, help="every submission's file, for moving the board"
)
def challenge_export(slug: str, out: Path, with_submissions: bool) -> None:
    """Write a challenge as a zip bundle: its definition, its test sets with their hidden
    references (keep it as safe as the board) and, on request, its submissions."""
    from app.web.services.bundles import export_bundle
    from app.web.services.tracks import get_challenge

    settings = board_settings()
    with session_scope(settings.database_url) as session:
        data = export_bundle(
            session, storage_for(settings), get_challenge(session, slug), with_submissions
        )
    out.write_bytes(data)
    click.echo(f"{out}: {len(data):,} bytes")


@challenge.command("teams")
@click.argument("slug")
@click.option(
    "--need-approval/--no-need-approval",
    "needed",
    default=None,
    help="Whether a team uploads only once an organiser approved it (default: off).",
)
def challenge_teams(slug: str, needed: bool | None) -> None:
    """List the teams and whether each is approved for challenge SLUG; with an option, switch
    the approval rule first (recorded in the audit log)."""
    from app.web.services.approvals import set_teams_need_approval, teams_for_approval
    from app.web.services.tracks import get_challenge

    with session_scope(board_settings().database_url) as session:
        found = get_challenge(session, slug)
        if needed is not None:
            set_teams_need_approval(session, None, found, needed)
        rule = "on" if found.teams_need_approval else "off"
        click.echo(f"{slug}: teams need approval: {rule}")
        for standing in teams_for_approval(session, found):
            when = standing.approved_at
            state = f"approved {when:%Y-%m-%d %H:%M} UTC" if when else "waiting"
            click.echo(f"  {standing.team.name}\t{standing.members} members\t{state}")


@challenge.command("approve-team")
@click.argument("slug")
@click.argument("team")
@click.option("--revoke", is_flag=True, help="Take the approval back (uploads made stay).")
def challenge_approve_team(slug: str, team: str, revoke: bool) -> None:
    """Let TEAM upload to challenge SLUG's tracks when the challenge asks for approval
    (recorded in the audit log)."""
    from app.web.services.approvals import find_team, set_team_approval
    from app.web.services.tracks import get_challenge

    with session_scope(board_settings().database_url) as session:
        found = find_team(session, team)
        set_team_approval(session, None, get_challenge(session, slug), found, not revoke)
        click.echo(f"team {found.name} {'no longer approved' if revoke else 'approved'} for {slug}")
