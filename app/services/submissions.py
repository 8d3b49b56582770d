"""Accepting an output file: every check runs before anything is stored or queued."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import Submission, SubmissionStatus, System, Team, Track, User, utcnow
from app.services import DomainError
from scorer.errors import InputError
from scorer.profiles import get_profile
from worker.queues import SubmissionQueue
from worker.storage import LocalStorage

SYSTEM_NAME_MAX = 100


def submit_output(
    session: Session,
    submission_queue: SubmissionQueue,
    storage: LocalStorage,
    *,
    user: User | None,
    team: Team | None,
    track: Track,
    system_name: str,
    filename: str,
    data: bytes,
    max_bytes: int,
    is_baseline: bool = False,
) -> Submission:
    """Validate, store, record and enqueue one output file; raise DomainError/InputError.

    A refused file leaves no trace: it is not written to storage and no row is created.
    """
    system_name = " ".join(system_name.split())
    if not system_name or len(system_name) > SYSTEM_NAME_MAX:
        raise DomainError(f"give the system a name of 1 to {SYSTEM_NAME_MAX} characters")
    if not is_baseline and team is None:
        raise DomainError("create or join a team before submitting")
    if len(data) > max_bytes:
        raise InputError(
            f"is {len(data):,} bytes; the limit is {max_bytes:,} bytes", filename=filename
        )
    if not data:
        raise InputError("is empty", filename=filename)
    test_set = track.test_set_for()
    if test_set is None:
        raise DomainError(f"track {track.slug!r} has no test set yet")
    inputs = [item.input_text for item in test_set.items]
    get_profile(track.profile).read_outputs(data, inputs, filename)
    if not is_baseline:
        _check_daily_limit(session, track, team)
    try:
        system = _find_or_new_system(session, track, team, system_name, is_baseline)
    except DomainError:
        session.rollback()
        raise

    submission = Submission(
        system=system,
        user=user,
        language=test_set.language,
        filename=filename[:255],
        file_sha256=storage.put(data),
        status=SubmissionStatus.QUEUED,
        is_late=track.deadline is not None and utcnow() > _aware(track.deadline),
    )
    session.add(submission)
    session.commit()
    submission_queue.enqueue(submission.id)
    return submission


def _find_or_new_system(
    session: Session, track: Track, team: Team | None, name: str, is_baseline: bool
) -> System:
    system = session.scalar(select(System).where(System.track_id == track.id, System.name == name))
    if system is None:
        has_primary = team is not None and session.scalar(
            select(func.count(System.id)).where(
                System.track_id == track.id, System.team_id == team.id, System.is_primary
            )
        )
        system = System(
            track=track,
            team=team,
            name=name,
            is_baseline=is_baseline,
            is_primary=is_baseline or not has_primary,
        )
        session.add(system)
        return system
    same_owner = system.is_baseline if is_baseline else (team and system.team_id == team.id)
    if not same_owner:
        raise DomainError(f"the system name {name!r} is taken in this track; choose another")
    return system


def _check_daily_limit(session: Session, track: Track, team: Team) -> None:
    """Failed uploads do not count against the limit; queued, running and scored ones do."""
    if not track.daily_limit:
        return
    since = utcnow() - timedelta(days=1)
    used = session.scalar(
        select(func.count(Submission.id))
        .join(System)
        .where(
            System.track_id == track.id,
            System.team_id == team.id,
            Submission.created_at >= since,
            Submission.status != SubmissionStatus.FAILED,
        )
    )
    if used >= track.daily_limit:
        raise DomainError(
            f"your team has used its {track.daily_limit} submissions for this track "
            "in the last 24 hours; try again later"
        )


def set_primary(session: Session, system: System, primary: bool) -> None:
    system.is_primary = primary
    session.commit()


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
