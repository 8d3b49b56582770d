"""What a challenge's public page tells a newcomer before any leaderboard: each track's phase,
deadline and data to download, how many teams and submissions a test phase has (counts only:
nothing about who or how well), each team's entries where its systems are shown, and what
each column of its tables means."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from app.data.models import TEST, Item, Submission, SubmissionStatus, System, TestSet, Track
from app.data.visibility import Viewer
from scorer.kinds.glossary import Entry, glossary


@dataclass(frozen=True)
class TrackFacts:
    track: Track
    phase: str
    published: bool
    deadline: datetime | None
    test_sets: list[tuple[str, int]]
    """(language, number of test items) of each test set: the inputs to download."""
    teams: int | None
    submissions: int | None
    """Teams that submitted and their submissions (not withdrawn, not refused by the scorer),
    in the test phase; None in development, whose leaderboard shows them."""


def track_facts(session: Session, tracks: list[Track]) -> list[TrackFacts]:
    sizes = _test_set_sizes(session, [track.id for track in tracks])
    return [
        TrackFacts(
            track,
            track.phase,
            track.is_published,
            track.deadline,
            sizes.get(track.id, []),
            *(_participation(session, track) if track.phase == TEST else (None, None)),
        )
        for track in tracks
    ]


def _test_set_sizes(session: Session, track_ids: list[int]) -> dict[int, list[tuple[str, int]]]:
    sizes: dict[int, list[tuple[str, int]]] = {}
    rows = session.execute(
        select(TestSet.track_id, TestSet.language, func.count(Item.id))
        .join(Item, Item.test_set_id == TestSet.id)
        .where(TestSet.track_id.in_(track_ids))
        .group_by(TestSet.id)
        .order_by(TestSet.track_id, TestSet.language)
    )
    for track_id, language, count in rows:
        sizes.setdefault(track_id, []).append((language, count))
    return sizes


def _participation(session: Session, track: Track) -> tuple[int, int]:
    teams, submissions = session.execute(
        select(func.count(func.distinct(System.team_id)), func.count(Submission.id))
        .join(System, System.id == Submission.system_id)
        .where(
            System.track_id == track.id,
            System.team_id.is_not(None),
            System.is_baseline.is_(False),
            Submission.withdrawn_at.is_(None),
            Submission.status != SubmissionStatus.FAILED,
        )
    ).one()
    return teams, submissions


def glossaries(tracks: list[Track]) -> list[tuple[str, list[Entry]]]:
    """One glossary per scorer profile the tracks use (tracks of one kind share it), titled
    with the tracks' titles."""
    by_profile: dict[str, list[Track]] = {}
    for track in tracks:
        by_profile.setdefault(track.profile, []).append(track)
    return [
        (", ".join(t.title for t in same), glossary(same[0].scoring_profile))
        for same in by_profile.values()
    ]


@dataclass(frozen=True)
class TeamEntries:
    """One team's part in a challenge: how many systems and uploads, and when the last."""

    team: str
    systems: int
    submissions: int
    last: datetime


def team_entries(
    session: Session, tracks: list[Track], viewer: Viewer
) -> tuple[list[TeamEntries], int]:
    """Each team's entries over ``tracks``, counting the systems ``viewer`` may see by name
    (``Viewer.sees_system``: before a test phase's publication only one's own), and how many
    other teams have entries not listed. Counts and dates of uploads only: no score."""
    by_track = {track.id: track for track in tracks}
    systems = session.scalars(
        select(System)
        .where(
            System.track_id.in_(list(by_track)),
            System.team_id.is_not(None),
            System.is_baseline.is_(False),
        )
        .options(selectinload(System.team), selectinload(System.submissions))
    )
    shown: dict[str, list[System]] = {}
    entered: set[int] = set()
    for system in systems:
        uploads = _entries(system)
        if not uploads or system.team is None:
            continue
        entered.add(system.team.id)
        track = by_track[system.track_id]
        if viewer.sees_system(track, system) and viewer.sees_names_of(system):
            shown.setdefault(system.team.name, []).append(system)
    rows = [
        TeamEntries(
            team,
            len(found),
            sum(len(_entries(system)) for system in found),
            max(upload.created_at for system in found for upload in _entries(system)),
        )
        for team, found in shown.items()
    ]
    listed = {system.team_id for found in shown.values() for system in found}
    rows.sort(key=lambda row: (-row.submissions, row.team.casefold()))
    return rows, len(entered - listed)


def _entries(system: System) -> list[Submission]:
    """A system's uploads that count: not withdrawn, not refused by the scorer."""
    return [
        submission
        for submission in system.submissions
        if submission.withdrawn_at is None and submission.status != SubmissionStatus.FAILED
    ]


def challenge_status(facts: list[TrackFacts]) -> str:
    """Where the challenge stands, in one line, from its tracks' phases."""
    phases = {(fact.phase, fact.published) for fact in facts}
    if not facts:
        return "No track yet."
    if all(p != TEST for p, _ in phases):
        return "Development phase: submit and see every score at once."
    if all(p == TEST and published for p, published in phases):
        return "Results published."
    if all(p == TEST for p, _ in phases):
        return "Test phase: scores hidden until the organisers publish the results."
    return "Tracks in different phases: see each track below."
