"""The home page's view of each challenge: what it is, its tracks with their phase and
deadline, how many teams and submissions it has, and who leads each track, as the public (or
the signed-in viewer) may see it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import distinct, func, select
from sqlalchemy.orm import Session

from app.data.models import Challenge, Submission, SubmissionStatus, System, Track
from app.web.services.access import Viewer
from app.web.services.leaderboard import leaderboard


@dataclass(frozen=True)
class TrackSummary:
    track: Track
    leader: str | None
    """The first row's system (and team) on the primary metric, as the viewer may see them."""
    metric: str | None
    value: float | None
    scores_hidden: bool


@dataclass(frozen=True)
class ChallengeSummary:
    challenge: Challenge
    tracks: list[TrackSummary]
    teams: int
    submissions: int
    next_deadline: datetime | None
    latest: datetime | None


def summaries(session: Session, viewer_for: Callable[[int], Viewer]) -> list[ChallengeSummary]:
    """Every challenge, newest first, as ``viewer_for(challenge id)`` may see it."""
    found = []
    for challenge in session.scalars(select(Challenge).order_by(Challenge.created_at.desc())):
        viewer = viewer_for(challenge.id)
        counted = (
            select(
                func.count(distinct(System.team_id)),
                func.count(Submission.id),
                func.max(Submission.created_at),
            )
            .join(Submission, Submission.system_id == System.id)
            .join(Track, Track.id == System.track_id)
            .where(
                Track.challenge_id == challenge.id,
                System.is_baseline.is_(False),
                Submission.withdrawn_at.is_(None),
                Submission.status != SubmissionStatus.FAILED,
            )
        )
        teams, submissions, latest = session.execute(counted).one()
        deadlines = [t.deadline for t in challenge.tracks if t.deadline and not t.deadline_passed]
        found.append(
            ChallengeSummary(
                challenge,
                [_track_summary(session, track, viewer) for track in challenge.tracks],
                teams,
                submissions,
                min(deadlines) if deadlines else None,
                latest,
            )
        )
    return found


def _track_summary(session: Session, track: Track, viewer: Viewer) -> TrackSummary:
    metrics, rows = leaderboard(session, track, viewer=viewer)  # sorted on the primary metric
    primary = track.scoring_profile.primary_metric
    if primary not in metrics:
        primary = metrics[0] if metrics else None
    hidden = not track.scores_public and not viewer.is_organiser
    leading = next(
        (row for row in rows if not row.is_baseline and primary and primary in row.scores), None
    )
    if leading is None or primary is None:
        return TrackSummary(track, None, None, None, hidden)
    name = leading.label
    return TrackSummary(track, name, primary, leading.scores[primary], hidden)
