"""The public leaderboard of a track: one row per system, from Score rows only."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from app.models import DESCRIBED, Output, Score, Submission, SubmissionStatus, System, Track
from app.services import DomainError
from scorer.profiles import Profile, get_profile
from scorer.references import ReferenceSet
from worker.testsets import load_references


@dataclass
class LeaderboardRow:
    system_id: int
    system: str
    team: str | None
    is_baseline: bool
    is_primary: bool
    submission_id: int
    is_late: bool
    scores: dict[str, float] = field(default_factory=dict)
    signatures: dict[str, str] = field(default_factory=dict)
    described: dict[str, float] = field(default_factory=dict)
    """Descriptive statistics of the outputs (E2E Tables 9-10)."""


def default_language(track: Track) -> str | None:
    """The test set a track page shows first: its only one, else English, else the first."""
    languages = track.languages
    if not languages:
        return None
    return "en" if "en" in languages else languages[0]


def leaderboard(
    session: Session,
    track: Track,
    *,
    language: str | None = None,
    include_secondary: bool = False,
    sort_by: str | None = None,
    descending: bool = True,
) -> tuple[list[str], list[LeaderboardRow]]:
    """Return the metric columns and the rows: each system's latest scored submission on the
    test set of ``language`` (default: ``default_language``).

    Baselines are always included; secondary systems only on request.
    """
    language = language or default_language(track)
    systems = session.scalars(
        select(System)
        .where(System.track_id == track.id)
        .options(selectinload(System.team))
        .order_by(System.id)
    ).all()
    rows = []
    for system in systems:
        if not (system.is_primary or system.is_baseline or include_secondary):
            continue
        latest = session.scalar(
            select(Submission)
            .where(
                Submission.system_id == system.id,
                Submission.language == language,
                Submission.status == SubmissionStatus.SCORED,
            )
            .options(selectinload(Submission.scores))
            .order_by(Submission.id.desc())
            .limit(1)
        )
        if latest is None:
            continue
        rows.append(_row(system, latest, latest.scores))
    profile = get_profile(track.profile)
    present = {metric for row in rows for metric in row.scores}
    metrics = [m for m in profile.columns if m in present] + sorted(present - set(profile.columns))
    default = profile.primary_metric if profile.primary_metric in metrics else None
    key = sort_by if sort_by in metrics else (default or (metrics[0] if metrics else None))
    if key:
        present = [row for row in rows if key in row.scores]
        absent = [row for row in rows if key not in row.scores]
        present.sort(key=lambda row: row.scores[key], reverse=descending)
        rows = present + absent
    return metrics, rows


def _row(system: System, submission: Submission, scores: list[Score]) -> LeaderboardRow:
    overall = [score for score in scores if not score.subset]
    return LeaderboardRow(
        system_id=system.id,
        system=system.name,
        team=system.team.name if system.team else None,
        is_baseline=system.is_baseline,
        is_primary=system.is_primary,
        submission_id=submission.id,
        is_late=submission.is_late,
        scores={score.metric: score.value for score in overall},
        signatures={score.metric: score.signature for score in overall},
        described={s.metric: s.value for s in scores if s.subset == DESCRIBED},
    )


def reference_statistics(
    session: Session, track: Track, language: str | None = None
) -> dict[str, dict[str, float]]:
    """The "test set all" / "test set rand" rows, as the worker stored them (empty until the
    first submission against the test set is scored)."""
    test_set = track.test_set_for(language or default_language(track))
    return dict(test_set.described or {}) if test_set is not None else {}


@dataclass(frozen=True)
class LevelComparison:
    """D-level distributions side by side and KS tests between each pair (E2E Fig. 4, A.7)."""

    labels: list[str]
    shares: list[list[float]]
    tests: list[list[tuple[float, float]]]


def dlevel_comparison(
    rows: list[LeaderboardRow], reference_rows: dict[str, dict[str, float]]
) -> LevelComparison | None:
    from scorer import dlevel

    candidates = [*reference_rows.items(), *((row.system, row.described) for row in rows)]
    described = [(label, v) for label, v in candidates if v.get("D-level sentences")]
    if not described:
        return None
    counts = [dlevel.counts_from(values) for _, values in described]
    return LevelComparison(
        labels=[label for label, _ in described],
        shares=[[values[f"D-level {lvl} %"] for lvl in dlevel.LEVELS] for _, values in described],
        tests=[[dlevel.ks_test(a, b) for b in counts] for a in counts],
    )


def leaderboard_outputs(
    session: Session, track: Track, language: str | None = None, include_secondary: bool = False
) -> tuple[dict[str, list[str]], ReferenceSet, Profile]:
    """The outputs behind each leaderboard row (system name -> outputs in test order), with
    the test set's references: what system-similarity needs."""
    language = language or default_language(track)
    test_set = track.test_set_for(language)
    if test_set is None:
        raise DomainError(f"track {track.slug!r} has no {language!r} test set")
    _, rows = leaderboard(session, track, language=language, include_secondary=include_secondary)
    item_ids, references = load_references(session, test_set.id)
    position = {item_id: k for k, item_id in enumerate(item_ids)}
    systems = {}
    for row in rows:
        texts = [""] * len(item_ids)
        for item_id, text in session.execute(
            select(Output.item_id, Output.text).where(Output.submission_id == row.submission_id)
        ):
            texts[position[item_id]] = text
        systems[row.system] = texts
    return systems, references, get_profile(track.profile)
