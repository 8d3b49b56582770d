"""Teams the organisers approve: a challenge may ask that a team be approved before it uploads
(``Challenge.teams_need_approval``, off by default). Teams and accounts cost nothing to make;
an approval is an organiser's decision, one per team and challenge (``TeamApproval``), kept in
the audit log with the rule's changes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.data.models import Challenge, Membership, Team, TeamApproval, User
from app.web.errors import DomainError
from app.web.services import action
from app.web.services.access import is_organiser_of
from app.web.services.accounts import team_named
from app.web.services.audit import record


def team_approved(session: Session, team: Team, challenge: Challenge) -> bool:
    found = select(TeamApproval.id).where(
        TeamApproval.challenge_id == challenge.id, TeamApproval.team_id == team.id
    )
    return session.scalar(found.limit(1)) is not None


def _check_organiser(session: Session, actor: User | None, challenge: Challenge) -> None:
    """None is the server's command line (whoever has shell access)."""
    if actor is not None and not is_organiser_of(session, actor, challenge.id):
        raise DomainError(f"only the organisers of {challenge.slug!r} approve its teams")


def set_teams_need_approval(
    session: Session, actor: User | None, challenge: Challenge, needed: bool
) -> None:
    """Switch the rule; teams approved before stay approved."""
    _check_organiser(session, actor, challenge)
    with action(session):
        challenge.teams_need_approval = needed
        record(
            session, actor, "team approval rule", challenge.slug, challenge.id,
            teams_need_approval=needed,
        )  # fmt: skip


def approval_off_notice(challenge: Challenge, tracks: Sequence[str]) -> str | None:
    """What an organiser who opens the test phase of ``tracks`` is told while ``challenge``
    lets every team upload: approval is off unless asked for, and each test-phase upload of a
    team made a minute ago probes the hidden references. Names the Teams page and the command
    that switch it on; None when approval is on or no test phase opens."""
    if challenge.teams_need_approval or not tracks:
        return None
    named = f"track {tracks[0]}" if len(tracks) == 1 else f"tracks {', '.join(tracks)}"
    return (
        f"Any team uploads to the test phase of {named} of {challenge.slug} without your "
        f"approval. To approve each team first, turn approval on: on the challenge's Teams "
        f"page (/organise/{challenge.slug}/teams), or with "
        f"nlgboard challenge teams {challenge.slug} --need-approval"
    )


def set_team_approval(
    session: Session, actor: User | None, challenge: Challenge, team: Team, approved: bool
) -> None:
    """Approve ``team`` for ``challenge`` (again: no harm), or take the approval back: its
    uploads made so far stay; new ones are refused while the challenge asks for approval."""
    _check_organiser(session, actor, challenge)
    with action(session):
        existing = session.scalar(
            select(TeamApproval).where(
                TeamApproval.challenge_id == challenge.id, TeamApproval.team_id == team.id
            )
        )
        if approved and existing is None:
            session.add(
                TeamApproval(
                    challenge_id=challenge.id,
                    team_id=team.id,
                    approved_by_id=actor.id if actor is not None else None,
                )
            )
        elif not approved and existing is not None:
            session.delete(existing)
        record(
            session, actor, "team approve" if approved else "team unapprove", team.name,
            challenge.id,
        )  # fmt: skip


def find_team(session: Session, name: str) -> Team:
    team = team_named(session, name)
    if team is None:
        raise DomainError(f"no team called {name.strip()!r}")
    return team


@dataclass(frozen=True)
class TeamStanding:
    """A team as the organisers' Teams page lists it: no member's address (an organiser of one
    challenge is not told who registered on the board), only how many there are."""

    team: Team
    members: int
    approved_at: datetime | None


def teams_for_approval(session: Session, challenge: Challenge) -> list[TeamStanding]:
    """Every team on the board (a team needs its approval before its first upload), those
    waiting first, then by name."""
    members = (
        select(Membership.team_id, func.count(Membership.id).label("n"))
        .group_by(Membership.team_id)
        .subquery()
    )
    rows = session.execute(
        select(Team, func.coalesce(members.c.n, 0), TeamApproval.approved_at)
        .outerjoin(members, members.c.team_id == Team.id)
        .outerjoin(
            TeamApproval,
            (TeamApproval.team_id == Team.id) & (TeamApproval.challenge_id == challenge.id),
        )
        .order_by(TeamApproval.id.is_not(None), func.lower(Team.name))
    ).all()
    return [TeamStanding(team, count, approved_at) for team, count, approved_at in rows]
