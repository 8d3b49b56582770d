"""A track's leaderboard broken down by an item attribute (WebNLG category, E2E MR size, SR'18
sentence length...): every ranking metric per bucket with its item count and a 95% bootstrap
interval, from the stored per-item statistics (no re-scoring), for the rows and with the
figures the leaderboard gives the same viewer.

Visibility on top of the leaderboard's, by the one disclosure rule (``app.data.disclosure``):
no bucket at all before a test phase's publication but to the organisers; after, a bucket of
fewer than ``MIN_SUBSET_ITEMS`` items is a per-item figure; an attribute computed from the
hidden references is a reference statistic; intervals only where the scores are shown exactly.
Each figure is sealed where it is computed and opened by ``Viewer.disclose``.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.disclosure import Figure, Hidden, computing_from, seal
from app.data.models import Output, SubmissionStatistics, TestSet, Track
from app.data.statistics import unpack_statistics
from app.data.testsets import load_attributes
from app.web.errors import DomainError
from app.web.services.access import MIN_SUBSET_ITEMS, Viewer
from app.web.services.csv_cells import csv_cell
from app.web.services.file_cache import FileCache
from app.web.services.leaderboard import (
    LeaderboardRow,
    default_language,
    leaderboard,
)
from scorer.compare.breakdown import Bucket, breakdown, buckets
from scorer.compare.significance import SAMPLES, SEED
from scorer.kinds import Profile


@dataclass(frozen=True)
class Cell:
    value: float
    low: float | None = None
    high: float | None = None


@dataclass
class BreakdownRow:
    row: LeaderboardRow
    buckets: dict[str, dict[str, Cell]] = field(default_factory=dict)
    """Bucket -> column -> figure; a row without stored statistics has none."""


@dataclass
class TrackBreakdown:
    attribute: str
    metrics: list[str]
    buckets: list[tuple[str, int]]
    """(value, items) of the buckets shown, in natural order."""
    hidden: list[str]
    """Buckets this viewer may not see (too few items before publication)."""
    rows: list[BreakdownRow]
    intervals: bool


def breakdown_choices(track: Track, viewer: Viewer) -> list[str]:
    """The attributes ``viewer`` may break the track's leaderboard down by: none before a
    test phase's publication, but for the organisers (no bucket of any size is disclosed)."""
    if not viewer.sees_subset_scores_of(track, MIN_SUBSET_ITEMS):
        return []
    profile = track.scoring_profile
    hidden = set() if viewer.sees_reference_statistics(track) else profile.reference_attributes
    return [name for name in profile.breakdown_attributes if name not in hidden]


def track_breakdown(
    session: Session,
    track: Track,
    attribute: str,
    viewer: Viewer,
    *,
    language: str | None = None,
    include_secondary: bool = False,
    cache: FileCache | None = None,
) -> TrackBreakdown:
    """The leaderboard's rows for ``viewer`` with their figures on each value of ``attribute``."""
    choices = breakdown_choices(track, viewer)
    if attribute not in choices:
        raise DomainError(
            f"track {track.slug!r} breaks down by {', '.join(choices) or 'nothing'}, "
            f"not {attribute!r}"
        )
    language = language or default_language(track)
    test_set = _test_set(track, language)
    metrics, rows = leaderboard(
        session, track, viewer=viewer, language=language, include_secondary=include_secondary
    )
    groups = buckets(load_attributes(session, test_set), attribute)
    shown = {v: p for v, p in groups.items() if viewer.sees_subset_scores_of(track, len(p))}
    intervals = viewer.sees_exact_scores_of(track)
    profile = track.scoring_profile
    stored = stored_statistics(session, [row.submission_id for row in rows])
    result = []
    for row in rows:
        found = BreakdownRow(row)
        if row.submission_id in stored and shown:
            figures = cached_breakdown(profile, stored[row.submission_id], shown, cache)
            found.buckets = {
                value: _cells(viewer, track, bucket, metrics, row.team_id)
                for value, bucket in figures.items()
            }
        result.append(found)
    return TrackBreakdown(
        attribute,
        [m for m in metrics if any(m in cells for r in result for cells in r.buckets.values())],
        [(value, len(positions)) for value, positions in shown.items()],
        [value for value in groups if value not in shown],
        result,
        intervals,
    )


def _test_set(track: Track, language: str | None) -> TestSet:
    test_set = track.test_set_for(language) if language else None
    if test_set is None:
        raise DomainError(f"track {track.slug!r} has no {language!r} test set")
    return test_set


def _cells(
    viewer: Viewer, track: Track, bucket: Bucket, metrics: list[str], team: int | None
) -> dict[str, Cell]:
    """A bucket's figures as the disclosure rule lets ``viewer`` read them."""
    sealed = seal(
        {m: v for m, v in bucket.values.items() if m in metrics}, Figure.SUBSET, team, bucket.items
    )
    cells = {}
    for metric, value in viewer.disclosed(track, sealed).items():
        low, high = bucket.intervals.get(metric, (None, None))
        ends = [
            None if end is None else viewer.disclose(track, Hidden(end, Figure.INTERVAL, metric))
            for end in (low, high)
        ]
        cells[metric] = Cell(value, *ends)
    return cells


def stored_statistics(session: Session, submission_ids: Sequence[int]) -> dict[int, bytes]:
    """Submission id -> its packed per-item statistics, for those that have them."""
    if not submission_ids:
        return {}
    return {
        submission_id: computing_from(sealed)
        for submission_id, sealed in session.execute(
            select(SubmissionStatistics.submission_id, SubmissionStatistics.data).where(
                SubmissionStatistics.submission_id.in_(list(submission_ids))
            )
        ).all()
    }


def cached_breakdown(
    profile: Profile,
    packed: bytes,
    groups: dict[str, list[int]],
    cache: FileCache | None = None,
) -> dict[str, Bucket]:
    """``scorer.compare.breakdown.breakdown`` of one submission's stored statistics, kept in the file
    cache under the hash of everything it is computed from."""

    def compute() -> bytes:
        found = breakdown(profile, unpack_statistics(packed), groups)
        return json.dumps({v: [b.items, b.values, b.intervals] for v, b in found.items()}).encode()

    key = [
        hashlib.sha256(packed).hexdigest(),
        profile.name,
        hashlib.sha256(json.dumps(groups, sort_keys=True).encode()).hexdigest(),
        SAMPLES,
        SEED,
    ]
    data = cache.get_or_make("breakdowns", key, ".json", compute) if cache else compute()
    return {
        value: Bucket(items, values, {m: (low, high) for m, (low, high) in intervals.items()})
        for value, (items, values, intervals) in json.loads(data).items()
    }


@dataclass(frozen=True)
class SlotErrorTable:
    """E2E: which slots each system misses or invents most, counted over all its outputs."""

    kinds: tuple[str, ...]
    slots: list[str]
    rows: list[tuple[str, dict[tuple[str, str], int]]]
    """(system as shown, (kind, slot) -> outputs' errors of that kind on that slot)."""


def slot_error_table(session: Session, rows: list[LeaderboardRow]) -> SlotErrorTable | None:
    """Slot errors per slot type per leaderboard row, from the findings stored beside each
    output (counts over the whole test set: an aggregate of outputs and MRs, no reference)."""
    from scorer.kinds.attributes import E2E_SLOTS
    from scorer.semantics.e2e_slots import described_error

    if not rows:
        return None
    found: dict[int, Counter[tuple[str, str]]] = {row.submission_id: Counter() for row in rows}
    annotated = session.execute(
        select(Output.submission_id, Output.annotations).where(
            Output.submission_id.in_(list(found)), Output.annotations.is_not(None)
        )
    )
    for submission_id, findings in annotated:
        for text in findings or ():
            error = described_error(text)
            if error is not None:
                found[submission_id][error] += 1
    if not any(found.values()):
        return None
    present = {slot for counts in found.values() for _, slot in counts}
    slots = [s for s in E2E_SLOTS if s in present] + sorted(present - set(E2E_SLOTS))
    return SlotErrorTable(
        ERROR_KINDS, slots, [(row.label, dict(found[row.submission_id])) for row in rows]
    )


ERROR_KINDS = ("missed", "added", "wrong", "repeated")


def breakdown_csv(found: TrackBreakdown) -> str:
    """One row per (system, bucket, metric): value, items and the interval where shown."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["system", "team", found.attribute, "items", "metric", "value", "low", "high"])
    sizes = dict(found.buckets)
    for entry in found.rows:
        for value, cells in entry.buckets.items():
            for metric, cell in cells.items():
                writer.writerow(
                    [
                        csv_cell(entry.row.system),
                        csv_cell(entry.row.team or ""),
                        csv_cell(value),
                        sizes[value],
                        metric,
                        cell.value,
                        "" if cell.low is None else cell.low,
                        "" if cell.high is None else cell.high,
                    ]
                )
    return out.getvalue()
