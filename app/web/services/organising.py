"""What organisers do to a running challenge: settings, publication, rescoring, the archive
of every submission."""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from app.data.models import (
    PHASES,
    TEST,
    Challenge,
    ChallengeOrganiser,
    Mail,
    Role,
    Submission,
    SubmissionStatus,
    System,
    Track,
    User,
)
from app.data.queue import SubmissionQueue
from app.data.storage import Storage
from app.web.errors import DomainError
from app.web.services import action
from app.web.services.approvals import approval_off_notice
from app.web.services.audit import record
from app.web.services.csv_cells import csv_cell
from app.web.services.notifications import notify_published
from app.web.services.submissions import submit_output
from app.web.services.tracks import check_deadline, create_challenge


def organised_challenges(session: Session, user: User) -> list[Challenge]:
    query = select(Challenge).order_by(Challenge.created_at.desc())
    if user.role != Role.ADMIN:
        query = query.join(ChallengeOrganiser).where(ChallengeOrganiser.user_id == user.id)
    return list(session.scalars(query))


def create_organised_challenge(
    session: Session, user: User, slug: str, title: str, description: str = ""
) -> Challenge:
    """A new challenge whose first organiser is the person who created it."""
    if user.role not in (Role.ORGANISER, Role.ADMIN):
        raise DomainError("only organisers and admins create challenges")
    with action(session):
        challenge = create_challenge(session, slug, title, description)
        session.add(ChallengeOrganiser(challenge_id=challenge.id, user_id=user.id))
        session.flush()
        record(session, user, "challenge create", challenge.slug, challenge.id)
    return challenge


def edit_challenge(
    session: Session, actor: User, challenge: Challenge, title: str, description: str
) -> None:
    with action(session):
        challenge.title, challenge.description = title, description
        record(session, actor, "challenge edit", challenge.slug, challenge.id)


@dataclass(frozen=True)
class TrackSettings:
    title: str
    phase: str
    deadline: datetime | None
    daily_limit: int | None
    max_systems: int | None
    max_primary: int
    hide_own_scores: bool
    confirmed_only_in_test: bool = True


LIMIT_MAX = 10_000
"""The largest per-team limit (submissions a day, systems, primary systems): far above any
shared task's, and far below the database's integers (2**31 - 1 in PostgreSQL)."""


def save_track_settings(
    session: Session, actor: User | None, track: Track, settings: TrackSettings
) -> str | None:
    """Apply the settings (``update_track``'s rules) and record them in the audit log. Returns
    what the organiser is to be told: when this opens the test phase of a challenge whose teams
    upload without approval, how to switch approval on (``approval_off_notice``)."""
    opening = track.phase != TEST and settings.phase == TEST
    with action(session):
        update_track(track, settings)
        record(
            session,
            actor,
            "track settings",
            track.slug,
            track.challenge_id,
            phase=track.phase,
            deadline=track.deadline.isoformat() if track.deadline else None,
            daily_limit=track.daily_limit,
            max_systems=track.max_systems,
            max_primary=track.max_primary,
            hide_own_scores=track.hide_own_scores,
            confirmed_only_in_test=track.confirmed_only_in_test,
        )
    return approval_off_notice(track.challenge, [track.slug]) if opening else None


def update_track(track: Track, settings: TrackSettings) -> None:
    if settings.phase not in PHASES:
        raise DomainError(f"phase must be one of {', '.join(PHASES)}, got {settings.phase!r}")
    for name in ("daily_limit", "max_systems"):
        value = getattr(settings, name)
        if value is not None and not 1 <= value <= LIMIT_MAX:
            raise DomainError(
                f"{name.replace('_', ' ')} must be 1 to {LIMIT_MAX:,} (or empty: no limit)"
            )
    if settings.max_primary < 1:
        raise DomainError("a team needs at least one primary system")
    if settings.max_primary > LIMIT_MAX:
        raise DomainError(f"max primary must be at most {LIMIT_MAX:,}")
    if not settings.title.strip():
        raise DomainError("the track needs a title")
    track.title = settings.title.strip()
    track.phase = settings.phase
    track.deadline = check_deadline(settings.deadline)
    track.daily_limit = settings.daily_limit
    track.max_systems = settings.max_systems
    track.max_primary = settings.max_primary
    track.hide_own_scores = settings.hide_own_scores
    track.confirmed_only_in_test = settings.confirmed_only_in_test
    if track.phase != TEST:
        track.is_published = False


def set_published(track: Track, published: bool) -> None:
    """Publishing is what the test phase waits for; development scores are public anyway."""
    if track.phase != TEST:
        raise DomainError(
            "the track is in its development phase, whose scores are public already; "
            "switch it to the test phase first"
        )
    track.is_published = published


def publish_results(
    session: Session, actor: User, track: Track, published: bool, base_url: str
) -> list[Mail]:
    """Publish (or hide again) a test phase's results; the mails to its teams, written with
    the change, are returned to be posted once it is committed."""
    with action(session):
        was_published = track.is_published
        set_published(track, published)
        record(
            session, actor, "publish" if published else "unpublish", track.slug,
            track.challenge_id,
        )  # fmt: skip
        mails = (
            notify_published(session, track, base_url) if published and not was_published else []
        )
    return mails


def rescore_track(
    session: Session, queue: SubmissionQueue, track: Track, actor: User | None = None
) -> int:
    """Queue every scored submission again (after a scorer update). Old scores stay on the
    leaderboard, marked "older scorer", until each new set is written."""
    record(session, actor, "rescore", track.slug, track.challenge_id)
    submissions = list(
        session.scalars(
            select(Submission)
            .join(System)
            .where(System.track_id == track.id, Submission.status == SubmissionStatus.SCORED)
            .order_by(Submission.id)
        )
    )
    for submission in submissions:
        submission.status = SubmissionStatus.QUEUED
    session.commit()
    for submission in submissions:
        queue.enqueue(submission.id)
    return len(submissions)


def track_submissions(session: Session, track: Track) -> list[Submission]:
    """Every submission of a track, withdrawn ones included (the organisers' view)."""
    return list(
        session.scalars(
            select(Submission)
            .join(System)
            .where(System.track_id == track.id)
            .options(
                selectinload(Submission.system).selectinload(System.team),
                selectinload(Submission.scores),
            )
            .order_by(Submission.id.desc())
        )
    )


MANIFEST_COLUMNS = (
    "id",
    "team",
    "system",
    "baseline",
    "primary",
    "anonymised",
    "language",
    "status",
    "late",
    "withdrawn",
    "submitted_utc",
    "filename",
    "sha256",
    "path",
)


def upload_baseline(
    session: Session,
    queue: SubmissionQueue,
    storage: Storage,
    actor: User | None,
    track: Track,
    *,
    name: str,
    filename: str,
    data: bytes,
    max_bytes: int,
    language: str | None,
) -> list[Submission]:
    """Upload a baseline system's output (no team) and record it in the audit log."""
    created = submit_output(
        session, queue, storage, user=actor, team=None, track=track, system_name=name,
        filename=filename, data=data, max_bytes=max_bytes, is_baseline=True, language=language,
    )  # fmt: skip
    with action(session):
        record(
            session, actor, "baseline add", f"{track.slug}/{name}", track.challenge_id,
            submissions=[s.id for s in created],
        )  # fmt: skip
    return created


def download_submissions(session: Session, storage: Storage, actor: User, track: Track) -> bytes:
    """``submissions_zip``, recorded in the audit log (every hidden output leaves with it)."""
    data = submissions_zip(session, storage, track)
    with action(session):
        record(session, actor, "download submissions", track.slug, track.challenge_id)
    return data


def submissions_zip(session: Session, storage: Storage, track: Track) -> bytes:
    """Every uploaded file of the track under ``team/system/`` with a ``manifest.csv``
    (organisers only: real names, withdrawn and failed uploads included)."""
    buffer = io.BytesIO()
    manifest = io.StringIO()
    writer = csv.writer(manifest)
    writer.writerow(MANIFEST_COLUMNS)
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for submission in reversed(track_submissions(session, track)):
            system = submission.system
            owner = system.team.name if system.team else "baselines"
            path = "/".join(
                _safe(part)
                for part in (
                    owner,
                    system.name,
                    f"{submission.id}-{submission.language}-{submission.filename}",
                )
            )
            try:
                archive.writestr(path, storage.get(submission.file_sha256))
            except FileNotFoundError:
                path = "(file missing from storage)"
            writer.writerow(
                csv_cell(value)
                for value in (
                    submission.id,
                    system.team.name if system.team else "",
                    system.name,
                    system.is_baseline,
                    system.is_primary,
                    system.is_anonymous,
                    submission.language,
                    submission.status.value,
                    submission.is_late,
                    submission.withdrawn_at is not None,
                    submission.created_at.strftime("%Y-%m-%d %H:%M:%S"),
                    submission.filename,
                    submission.file_sha256,
                    path,
                )
            )
        archive.writestr("manifest.csv", manifest.getvalue())
    return buffer.getvalue()


def _safe(part: str) -> str:
    """One path component: no separators, no leading dots."""
    cleaned = "".join(c if c.isalnum() or c in "-_. " else "_" for c in part).strip(" .")
    return cleaned or "_"
