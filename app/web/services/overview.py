"""The cross-language overview of a multilingual challenge (SR'18 paper, Tables 3-5).

One metric at a time: teams as rows, (track, language) as columns in the kinds' order (SR'18:
shallow before deep, as its kind lists its track kinds); each
cell is the team's primary system's latest scored submission on that test set. Rows are listed
by the number of languages covered, as the paper lists them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select, true
from sqlalchemy.orm import Session, selectinload

from app.data.disclosure import Figure, Hidden
from app.data.models import Challenge, Submission, SubmissionStatus, System, Track
from app.web.services.access import ANONYMOUS, PUBLIC, Viewer


@dataclass(frozen=True)
class Column:
    track_slug: str
    track_title: str
    language: str


@dataclass(frozen=True)
class Cell:
    value: float
    is_late: bool
    submission_id: int
    is_best: bool = False


@dataclass
class OverviewRow:
    label: str
    is_baseline: bool
    cells: dict[Column, Cell] = field(default_factory=dict)


@dataclass
class Overview:
    metric: str | None
    metrics: list[str]
    columns: list[Column]
    rows: list[OverviewRow]
    signatures: list[str] = field(default_factory=list)
    """The signatures of the shown cells' scores (one, unless a rescoring is under way)."""


def ordered_tracks(challenge: Challenge) -> list[Track]:
    """Tracks as the papers list them: a kind's tracks together (kinds in creation order), in
    the order the kind lists its track kinds (SR'18: shallow before deep), then by creation."""
    first: dict[str, int] = {}
    for track in sorted(challenge.tracks, key=lambda t: t.id):
        first.setdefault(track.profile, track.id)

    def position(track: Track) -> tuple[int, int, int]:
        kinds = track.scoring_profile.track_kinds
        listed = kinds.index(track.kind) if track.kind in kinds else len(kinds)
        return first[track.profile], listed, track.id

    return sorted(challenge.tracks, key=position)


def overview(
    session: Session, challenge: Challenge, metric: str | None = None, viewer: Viewer = PUBLIC
) -> Overview:
    """Build the matrix for ``metric`` (default: the first track's primary metric), with what
    ``viewer`` may see: the tracks' phase rules, no withdrawn submission, anonymised names."""
    tracks = ordered_tracks(challenge)
    columns = [
        Column(track.slug, track.title, language)
        for track in tracks
        for language in track.languages
    ]
    metrics = _metric_names(tracks)
    if metric not in metrics:
        metric = _default_metric(tracks, metrics)
    rows: dict[str, OverviewRow] = {}
    signatures: set[str] = set()
    for submission in _latest_scored(session, challenge, viewer.sees_withdrawn):
        system = submission.system
        if not (system.is_primary or system.is_baseline):
            continue
        if not viewer.sees_scores_of(system.track, system):
            continue
        score = next((s for s in submission.scores if s.metric == metric and not s.subset), None)
        if score is None:
            continue
        value = viewer.disclose(
            system.track, Hidden(score.value, Figure.HEADLINE, score.metric, system.team_id)
        )
        if value is None:
            continue
        signatures.add(score.signature)
        if not viewer.sees_names_of(system):
            label = ANONYMOUS
        elif system.is_baseline or system.team is None:
            label = system.name
        else:
            label = system.team.name
        key = (
            f"{ANONYMOUS}:{system.team_id}"
            if label == ANONYMOUS
            else f"{system.is_baseline}:{label}"
        )
        row = rows.setdefault(key, OverviewRow(label, system.is_baseline))
        column = Column(system.track.slug, system.track.title, submission.language)
        row.cells[column] = Cell(value, submission.is_late, submission.id)
    rises = all(t.scoring_profile.higher_is_better(metric) for t in tracks if metric)
    _mark_best(list(rows.values()), columns, rises)
    ordered = sorted(rows.values(), key=lambda r: (r.is_baseline, -len(r.cells), r.label.lower()))
    return Overview(metric, metrics, columns, ordered, sorted(signatures))


def _latest_scored(
    session: Session, challenge: Challenge, with_withdrawn: bool
) -> list[Submission]:
    """Each system's latest scored submission per language."""
    submissions = session.scalars(
        select(Submission)
        .join(System)
        .join(Track)
        .where(
            Track.challenge_id == challenge.id,
            Submission.status == SubmissionStatus.SCORED,
            Submission.withdrawn_at.is_(None) if not with_withdrawn else true(),
        )
        .options(
            selectinload(Submission.scores),
            selectinload(Submission.system).selectinload(System.team),
        )
        .order_by(Submission.id)
    ).all()
    latest = {(s.system_id, s.language): s for s in submissions}
    return list(latest.values())


def _metric_names(tracks: list[Track]) -> list[str]:
    names: list[str] = []
    for track in tracks:
        names += [m for m in track.scoring_profile.columns if m not in names]
    return names


def _default_metric(tracks: list[Track], metrics: list[str]) -> str | None:
    for track in tracks:
        primary = track.scoring_profile.primary_metric
        if primary in metrics:
            return primary
    return metrics[0] if metrics else None


def _mark_best(rows: list[OverviewRow], columns: list[Column], rises: bool) -> None:
    """Bold the best score per column among teams' systems."""
    for column in columns:
        scored = [row for row in rows if column in row.cells and not row.is_baseline]
        if not scored:
            continue
        best = (max if rises else min)(row.cells[column].value for row in scored)
        for row in scored:
            cell = row.cells[column]
            if cell.value == best:
                row.cells[column] = Cell(cell.value, cell.is_late, cell.submission_id, True)
