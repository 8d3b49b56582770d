"""The public leaderboard of a track: one row per system, from Score rows only."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from app.data.disclosure import Figure, seal
from app.data.labels import system_label
from app.data.models import (
    DESCRIBED,
    DEVELOPMENT,
    Item,
    ItemSubset,
    Output,
    Score,
    Submission,
    SubmissionStatus,
    System,
    Track,
)
from app.data.testsets import CHAL, HEADLINE_SUBSET, ORIG, PUBLIC_PART, load_references
from app.web.errors import DomainError
from app.web.services.access import ANONYMOUS, PUBLIC, Viewer
from scorer.kinds import Profile
from scorer.references import ReferenceSet
from scorer.signature import Signature


@dataclass
class LeaderboardRow:
    system_id: int
    system: str
    """The name this viewer may see ("anonymous" for an anonymised system, to the public)."""
    team: str | None
    is_baseline: bool
    is_primary: bool
    submission_id: int
    is_late: bool
    architecture: str = ""
    is_anonymous: bool = False
    team_id: int | None = None
    """Whose outputs the row scores, for the disclosure rule (``seal``); never shown (an
    anonymised system's team is not), None for a baseline."""
    is_withdrawn: bool = False
    """Only organisers get withdrawn rows (when nothing else of the system is left)."""
    scores: dict[str, float] = field(default_factory=dict)
    signatures: dict[str, str] = field(default_factory=dict)
    outdated: list[str] = field(default_factory=list)
    """Metrics scored with an older scorer than this one (until the organisers rescore)."""
    described: dict[str, float] = field(default_factory=dict)
    """Descriptive statistics of the outputs (E2E Tables 9-10)."""
    subsets: dict[str, dict[str, float]] = field(default_factory=dict)
    """Scores on named subsets (DRS: ``long``; challenge set ``tense`` and ``tense:orig``)."""
    human: dict[str, float] = field(default_factory=dict)
    """System-level figures of published human evaluations (``columns.add_human_scores``)."""
    rank_group: int | None = None
    """Significance group on the sort metric (``rank_groups``): 1 = not significantly
    different from the leader."""
    rank: str = ""
    """Place on the sort metric, ties sharing one ("1=", "1=", "3"); empty without a score."""

    @property
    def label(self) -> str:
        """The name shown wherever one system stands for itself (plots, headers, titles,
        exports): team and system, since many teams call theirs "primary"."""
        return system_label(self.system, self.team)


def default_language(track: Track) -> str | None:
    """The test set a track page shows first: its only one, else English, else the first."""
    languages = track.languages
    if not languages:
        return None
    return "en" if "en" in languages else languages[0]


def display_names(systems: list[System], viewer: Viewer) -> dict[int, tuple[str, str | None]]:
    """System id -> (system, team) as ``viewer`` may see them; anonymised systems become
    "anonymous" (numbered when a track has several), in pages, exports and plots alike."""
    hidden = [s.id for s in sorted(systems, key=lambda s: s.id) if not viewer.sees_names_of(s)]
    names: dict[int, tuple[str, str | None]] = {}
    for system in systems:
        if system.id in hidden:
            label = ANONYMOUS if len(hidden) == 1 else f"{ANONYMOUS} {hidden.index(system.id) + 1}"
            names[system.id] = (label, None)
        else:
            names[system.id] = (system.name, system.team.name if system.team else None)
    return names


def leaderboard(
    session: Session,
    track: Track,
    *,
    viewer: Viewer = PUBLIC,
    language: str | None = None,
    include_secondary: bool = False,
    sort_by: str | None = None,
    descending: bool = True,
) -> tuple[list[str], list[LeaderboardRow]]:
    """Return the metric columns and the rows ``viewer`` may see: each system's latest scored
    submission on the test set of ``language`` (default: ``default_language``).

    Baselines are always included; secondary systems on request, and always in the
    development phase (where nothing is ranked for the record yet). A submission being
    rescored keeps its old scores until the new ones are written; withdrawn ones are left out
    (organisers still get a system whose every submission was withdrawn, flagged).
    """
    language = language or default_language(track)
    systems = session.scalars(
        select(System)
        .where(System.track_id == track.id)
        .options(selectinload(System.team))
        .order_by(System.id)
    ).all()
    names = display_names(list(systems), viewer)
    profile = track.scoring_profile
    current = current_signatures(profile)
    public = _has_public_part(session, track, language)
    every_system = include_secondary or track.phase == DEVELOPMENT
    shown = [
        system
        for system in systems
        if (system.is_primary or system.is_baseline or every_system)
        and (public or viewer.sees_scores_of(track, system))
    ]
    latest = _latest_scored(session, [s.id for s in shown], language, viewer.sees_withdrawn)
    scores = _scores_of(session, [submission.id for submission in latest.values()])
    rows = [
        _row(
            system,
            latest[system.id],
            scores.get(latest[system.id].id, []),
            names[system.id],
            current,
        )
        for system in shown
        if system.id in latest
    ]
    sizes = scored_subset_sizes(session, track, language) if any(r.subsets for r in rows) else {}
    own_shown = {system.id for system in shown if viewer.sees_scores_of(track, system)}
    for row in rows:
        team = row.team_id
        row.scores = viewer.disclosed(track, seal(row.scores, Figure.HEADLINE, team))
        subsets = {
            name: viewer.disclosed(
                track,
                seal(values, Figure.SUBSET, team, sizes.get(name, 0), name == PUBLIC_PART),
            )
            for name, values in row.subsets.items()
        }
        row.subsets = {name: values for name, values in subsets.items() if values}
    # a system listed for the public part alone shows up only with its score there
    rows = [row for row in rows if row.scores or row.subsets or row.system_id in own_shown]
    present = {metric for row in rows for metric in row.scores}
    metrics = [m for m in profile.columns if m in present] + sorted(present - set(profile.columns))
    default = profile.primary_metric if profile.primary_metric in metrics else None
    key = sort_by if sort_by in metrics else (default or (metrics[0] if metrics else None))
    if key:
        scored = [row for row in rows if key in row.scores]
        absent = [row for row in rows if key not in row.scores]
        scored.sort(key=lambda row: row.scores[key], reverse=descending)
        rows = scored + absent
        if viewer.sees_significance_of(track):  # a rank among one's own systems compares them
            assign_ranks(rows, key)
    return metrics, rows


def _has_public_part(session: Session, track: Track, language: str | None) -> bool:
    test_set = track.test_set_for(language) if language else None
    if test_set is None:
        return False
    found = (
        select(ItemSubset.id)
        .join(Item)
        .where(Item.test_set_id == test_set.id, ItemSubset.name == PUBLIC_PART)
    )
    return session.scalar(found.limit(1)) is not None


def assign_ranks(rows: list[LeaderboardRow], key: str) -> None:
    """Standard competition ranking of rows already sorted on ``key``: equal scores share the
    place of the first of them, marked with "=" ("1=", "1=", "3"), as shared-task tables do."""
    values = [row.scores.get(key) for row in rows]
    for row, value in zip(rows, values, strict=True):
        if value is None:
            row.rank = ""
            continue
        first = values.index(value)
        row.rank = f"{first + 1}{'=' if values.count(value) > 1 else ''}"


def listed_system_ids(
    session: Session, system_ids: list[int], language: str | None, viewer: Viewer
) -> set[int]:
    """Of ``system_ids``, those the leaderboard lists for ``viewer`` whatever their scores'
    visibility: a scored submission in ``language`` that is not withdrawn (organisers: any)."""
    return set(_latest_scored(session, system_ids, language, viewer.sees_withdrawn))


def _latest_scored(
    session: Session, system_ids: list[int], language: str | None, with_withdrawn: bool
) -> dict[int, Submission]:
    """System id -> its newest submission with scores (scored, or queued again to be
    rescored), not withdrawn; failing that, for organisers, its newest withdrawn one. One query
    for the whole board."""
    if not system_ids:
        return {}
    has_scores = select(Score.id).where(Score.submission_id == Submission.id).exists()
    candidates = session.scalars(
        select(Submission)
        .where(
            Submission.system_id.in_(system_ids),
            Submission.language == language,
            Submission.status != SubmissionStatus.FAILED,
            has_scores,
        )
        .order_by(Submission.id.desc())
    )
    latest: dict[int, Submission] = {}
    for submission in candidates:
        found = latest.get(submission.system_id)
        if found is None or (found.withdrawn_at is not None and submission.withdrawn_at is None):
            latest[submission.system_id] = submission
    return {
        system_id: submission
        for system_id, submission in latest.items()
        if with_withdrawn or submission.withdrawn_at is None
    }


def _scores_of(session: Session, submission_ids: list[int]) -> dict[int, list[Score]]:
    found: dict[int, list[Score]] = {}
    if submission_ids:
        for score in session.scalars(
            select(Score).where(Score.submission_id.in_(submission_ids)).order_by(Score.id)
        ):
            found.setdefault(score.submission_id, []).append(score)
    return found


def _newer(current: str | None, signature: str) -> bool:
    """Whether the scorer now signs this metric differently (the implementation aside: the
    Python ports and the jars give the same numbers)."""
    return current is not None and not Signature.parse(current).comparable_with(
        Signature.parse(signature)
    )


def _row(
    system: System,
    submission: Submission,
    scores: list[Score],
    names: tuple[str, str | None],
    current: dict[str, str],
) -> LeaderboardRow:
    overall = [score for score in scores if not score.subset]
    return LeaderboardRow(
        system_id=system.id,
        system=names[0],
        team=names[1],
        is_baseline=system.is_baseline,
        is_primary=system.is_primary,
        submission_id=submission.id,
        is_late=submission.is_late,
        architecture=system.architecture,
        is_anonymous=system.is_anonymous,
        team_id=system.team_id,
        is_withdrawn=submission.withdrawn_at is not None,
        scores={score.metric: score.value for score in overall},
        signatures={score.metric: score.signature for score in overall},
        outdated=[s.metric for s in overall if _newer(current.get(s.metric), s.signature)],
        described={s.metric: s.value for s in scores if s.subset == DESCRIBED},
        subsets=_by_subset(scores),
    )


def current_signatures(profile: Profile) -> dict[str, str]:
    """Column -> the signature this scorer version writes (older rows differ until rescored)."""
    available = set(profile.available_metrics)
    return {
        name: profile.column_signature(name)
        for name in profile.columns
        if name not in profile.metric_ids or profile.metric_ids[name] in available
    }


def _by_subset(scores: list[Score]) -> dict[str, dict[str, float]]:
    subsets: dict[str, dict[str, float]] = {}
    for score in scores:
        if score.subset and score.subset != DESCRIBED:
            subsets.setdefault(score.subset, {})[score.metric] = score.value
    return subsets


@dataclass(frozen=True)
class ChallengeSetRow:
    system: str
    pairs: dict[str, tuple[float, float]]
    """Metric -> (score on the original items, score on the challenge items)."""


@dataclass(frozen=True)
class ChallengeSetTable:
    """One challenge set, Wang et al. (2021) Table 4: Orig vs Chal per metric and system."""

    name: str
    size: int
    paired: int
    metrics: list[str]
    rows: list[ChallengeSetRow]


@dataclass(frozen=True)
class SubsetTable:
    """Scores on a named subset that has no originals (PMB 5 long / compositional sets)."""

    name: str
    size: int
    metrics: list[str]
    rows: list[tuple[str, dict[str, float]]]


def subset_tables(
    session: Session,
    track: Track,
    metrics: list[str],
    rows: list[LeaderboardRow],
    language: str | None,
) -> tuple[list[ChallengeSetTable], list[SubsetTable]]:
    """The test set's challenge sets (Orig vs Chal) and other named subsets, with each
    leaderboard row's scores on them: those with scores the rows' viewer may read."""
    test_set = track.test_set_for(language)
    if test_set is None:
        return [], []
    sizes = subset_sizes(session, test_set.id)
    challenges, others = [], []
    for name, (size, paired) in sizes.items():
        if name == HEADLINE_SUBSET:
            continue
        if paired:
            chal = f"{name}{CHAL}" if paired < size else name
            table_rows = [
                ChallengeSetRow(
                    row.label,
                    {
                        m: (row.subsets[f"{name}{ORIG}"][m], row.subsets[chal][m])
                        for m in metrics
                        if m in row.subsets.get(f"{name}{ORIG}", {})
                        and m in row.subsets.get(chal, {})
                    },
                )
                for row in rows
            ]
            if any(row.pairs for row in table_rows):
                challenges.append(ChallengeSetTable(name, size, paired, metrics, table_rows))
        else:
            table = [(row.label, row.subsets[name]) for row in rows if name in row.subsets]
            if table:
                others.append(SubsetTable(name, size, metrics, table))
    return challenges, others


def scored_subset_sizes(session: Session, track: Track, language: str | None) -> dict[str, int]:
    """Name of each stored subset score (``tense``, ``tense:orig``, ``tense:chal``) -> the
    items it is computed on (``testsets.load_subsets``)."""
    test_set = track.test_set_for(language)
    if test_set is None:
        return {}
    sizes = {}
    for name, (size, paired) in subset_sizes(session, test_set.id).items():
        sizes.update({name: size, f"{name}{ORIG}": paired, f"{name}{CHAL}": paired})
    return sizes


def subset_sizes(session: Session, test_set_id: int) -> dict[str, tuple[int, int]]:
    """Subset name -> (items, items paired with an original), in the order they were added."""
    found = session.execute(
        select(
            ItemSubset.name,
            func.count(Item.id),
            func.count(Item.original_id),
            func.min(Item.position),
        )
        .join(Item)
        .where(Item.test_set_id == test_set_id)
        .group_by(ItemSubset.name)
        .order_by(func.min(Item.position))
    ).all()
    return {name: (size, paired) for name, size, paired, _ in found}


def reference_statistics(
    session: Session, track: Track, language: str | None = None, *, viewer: Viewer
) -> dict[str, dict[str, float]]:
    """The "test set all" / "test set rand" rows, as the worker stored them (empty until the
    first submission against the test set is scored, and for a viewer who may not see them)."""
    test_set = track.test_set_for(language or default_language(track))
    if test_set is None or test_set.described is None:
        return {}
    return viewer.disclose(track, test_set.described) or {}


@dataclass(frozen=True)
class LevelComparison:
    """D-level distributions side by side and KS tests between each pair (E2E Fig. 4, A.7)."""

    labels: list[str]
    shares: list[list[float]]
    tests: list[list[tuple[float, float]]]


def dlevel_comparison(
    rows: list[LeaderboardRow], reference_rows: dict[str, dict[str, float]]
) -> LevelComparison | None:
    from scorer.describe import dlevel

    candidates = [*reference_rows.items(), *((row.label, row.described) for row in rows)]
    described = [(label, v) for label, v in candidates if v.get("D-level sentences")]
    if not described:
        return None
    counts = [dlevel.counts_from(values) for _, values in described]
    return LevelComparison(
        labels=[label for label, _ in described],
        shares=[[values[f"D-level {lvl} %"] for lvl in dlevel.LEVELS] for _, values in described],
        tests=[[dlevel.ks_test(a, b) for b in counts] for a in counts],
    )


@dataclass(frozen=True)
class LeaderboardOutputs:
    """The outputs behind each leaderboard row, keyed by system id (as text: the scorer names
    systems by strings), with their labels and the test set's references: what
    system-similarity needs."""

    systems: dict[str, list[str]]
    labels: dict[str, str]
    references: ReferenceSet
    profile: Profile


def leaderboard_outputs(
    session: Session,
    track: Track,
    language: str | None = None,
    include_secondary: bool = False,
    viewer: Viewer = PUBLIC,
) -> LeaderboardOutputs:
    """Each leaderboard row's outputs in test order."""
    language = language or default_language(track)
    test_set = track.test_set_for(language)
    if test_set is None:
        raise DomainError(f"track {track.slug!r} has no {language!r} test set")
    _, rows = leaderboard(
        session, track, viewer=viewer, language=language, include_secondary=include_secondary
    )
    item_ids, references = load_references(session, test_set.id)
    position = {item_id: k for k, item_id in enumerate(item_ids)}
    systems = {}
    for row in rows:
        texts = [""] * len(item_ids)
        for item_id, text in outputs_by_item(session, row.submission_id).items():
            texts[position[item_id]] = text
        systems[str(row.system_id)] = texts
    labels = {str(row.system_id): row.label for row in rows}
    return LeaderboardOutputs(systems, labels, references, track.scoring_profile)


def outputs_by_item(session: Session, submission_id: int) -> dict[int, str]:
    """A submission's normalised outputs: item id -> text."""
    return dict(
        session.execute(
            select(Output.item_id, Output.text).where(Output.submission_id == submission_id)
        ).all()
    )
