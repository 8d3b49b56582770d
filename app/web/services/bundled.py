"""Bundled baseline runs (baselines/runs/) registered when a matching test set is imported.

Depends on ``baselines.manifest`` only (pure Python: JSON and a hash), not on the models.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.models import Submission, System, TestSet
from app.data.queue import SubmissionQueue
from app.data.storage import Storage
from app.web.services.import_rules import track_rule
from app.web.services.submissions import submit_output
from baselines.manifest import BundledRun, matching_runs, read_manifest
from scorer.errors import Refused


@dataclass(frozen=True)
class Registered:
    system: str
    file: str
    submissions: tuple[int, ...] = ()
    problem: str | None = None


def register_bundled_runs(
    session: Session,
    queue: SubmissionQueue,
    storage: Storage,
    test_set: TestSet,
    max_bytes: int,
) -> list[Registered]:
    """Add every bundled run decoded from exactly this test set's inputs as a baseline system
    (once: a baseline of that name already scored or queued for the language is left alone).

    Call after the import is committed: a run that cannot be added is reported, and the
    imported test set stays."""
    track = test_set.track
    inputs = [item.input_text for item in test_set.items]
    added = []
    for run in matching_runs(track_rule(track).bundled_baselines, test_set.language, inputs):
        if _already_there(session, track.id, run.system, test_set.language):
            continue
        try:
            created = submit_output(
                session,
                queue,
                storage,
                user=None,
                team=None,
                track=track,
                system_name=run.system,
                filename=run.file,
                data=run.path.read_bytes(),
                max_bytes=max_bytes,
                is_baseline=True,
                language=test_set.language if track.is_multilingual else None,
            )
        except (Refused, OSError) as error:
            session.rollback()
            added.append(Registered(run.system, run.file, problem=str(error)))
            continue
        _describe_system(session, created, run)
        added.append(Registered(run.system, run.file, tuple(s.id for s in created)))
    return added


def _describe_system(session: Session, created: list[Submission], run: BundledRun) -> None:
    """The system page and the exports say what the run is (a model retrained here, not the
    published run its name recalls)."""
    system = created[0].system if created else None
    if system is not None and run.note and not system.description:
        system.description = run.note
        session.commit()


def remove_bundled_runs(session: Session, test_set: TestSet) -> list[str]:
    """Delete the test set's copies of bundled runs before items are added to it; return the
    systems removed.

    A run has one line per item of the inputs it was decoded from, so it cannot be scored on
    the extended set, and it must not stop the organiser from extending it: the repository
    keeps the file, and registration after the import adds whichever run matches the new
    inputs. Runs an organiser added by hand are not copies and are left alone."""
    copies = _bundled_copies(session, test_set)
    systems = {submission.system for submission in copies}
    for submission in copies:
        session.delete(submission)
    session.flush()
    for system in systems:
        left = session.scalar(select(Submission.id).where(Submission.system_id == system.id))
        if left is None:
            session.delete(system)
    session.flush()
    return sorted(system.name for system in systems)


def _bundled_copies(session: Session, test_set: TestSet) -> list[Submission]:
    """Baseline submissions whose system name and file are a bundled run's."""
    runs = {
        (run.system, hashlib.sha256(run.path.read_bytes()).hexdigest())
        for run in read_manifest()
        if run.baseline in track_rule(test_set.track).bundled_baselines
        and run.language == test_set.language
        and run.path.exists()
    }
    if not runs:
        return []
    candidates = session.scalars(
        select(Submission)
        .join(System)
        .where(
            System.track_id == test_set.track_id,
            System.is_baseline.is_(True),
            System.team_id.is_(None),
            Submission.language == test_set.language,
        )
    )
    return [s for s in candidates if (s.system.name, s.file_sha256) in runs]


def describe(registered: list[Registered]) -> str:
    """One line for the CLI and the organisers' flash message."""
    parts = [
        f"{r.system} not added ({r.problem})" if r.problem else f"{r.system} added as a baseline"
        for r in registered
    ]
    return "; ".join(parts)


def _already_there(session: Session, track_id: int, name: str, language: str) -> bool:
    return (
        session.scalar(
            select(Submission.id)
            .join(System)
            .where(
                System.track_id == track_id,
                System.name == name,
                System.is_baseline.is_(True),
                Submission.language == language,
                Submission.withdrawn_at.is_(None),
            )
            .limit(1)
        )
        is not None
    )
