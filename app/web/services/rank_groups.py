"""Significance groups and confidence intervals on a leaderboard, from one set of bootstrap
resamples per system.

Every system is resampled with the *same* item draws (``resample_weights`` with a fixed seed),
so the difference of two systems' resampled values is exactly Koehn's paired bootstrap
(``scorer.compare.significance.paired_bootstrap`` gives the same p-values), but each system is computed
once, not once per pair; the values are cached by the submission's statistics.

Groups: the best system and every system not significantly different from it (p >= 0.05)
share group 1; the same again on the rest.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.disclosure import computing_from
from app.data.models import SubmissionStatistics, Track
from app.data.statistics import unpack_statistics
from app.data.visibility import Viewer
from app.web.services.file_cache import FileCache
from app.web.services.leaderboard import LeaderboardRow
from scorer.compare.significance import SAMPLES, SEED, resample_weights
from scorer.kinds import Profile
from scorer.metrics import normalised_average as norm_avg

ALPHA = 0.05


@dataclass(frozen=True)
class Resampled:
    """A system's value on one column, and its values on the shared bootstrap resamples."""

    observed: float
    samples: np.ndarray

    @property
    def interval(self) -> tuple[float, float]:
        return float(np.percentile(self.samples, 2.5)), float(np.percentile(self.samples, 97.5))


def metric_ids_for(profile: Profile, column: str) -> list[str]:
    """The registry ids a column's value is computed from (norm_avg: its five metrics)."""
    if column == norm_avg.NAME:
        return [profile.metric_ids[name] for name in norm_avg.SCALES]
    return [profile.metric_ids[column]] if column in profile.metric_ids else []


def resample(profile: Profile, statistics: dict[str, np.ndarray], column: str) -> Resampled:
    items = len(next(iter(statistics.values())))
    weights = resample_weights(items, SAMPLES, SEED)
    values = [profile.scores_from_statistics(statistics, row)[column] for row in weights]
    observed = profile.scores_from_statistics(statistics)[column]
    return Resampled(observed, np.asarray(values))


def p_value(a: Resampled, b: Resampled) -> float:
    """Two-sided, as ``paired_bootstrap``: resampled differences shifted to mean zero."""
    deltas = a.samples - b.samples
    observed = a.observed - b.observed
    extreme = np.abs(deltas - deltas.mean()) >= abs(observed)
    return float((1 + extreme.sum()) / (len(deltas) + 1))


def rank_groups(order: list[int], resampled: dict[int, Resampled]) -> dict[int, int]:
    """``order``: ids best first. Returns id -> group number (ids without samples left out)."""
    remaining = [key for key in order if key in resampled]
    groups: dict[int, int] = {}
    group = 0
    while remaining:
        group += 1
        leader = remaining[0]
        tied = [
            key
            for key in remaining[1:]
            if len(resampled[key].samples) == len(resampled[leader].samples)
            and p_value(resampled[leader], resampled[key]) >= ALPHA
        ]
        for key in [leader, *tied]:
            groups[key] = group
        remaining = [key for key in remaining[1:] if key not in tied]
    return groups


def resampled_rows(
    session: Session,
    profile: Profile,
    rows: list[LeaderboardRow],
    column: str,
    cache: FileCache | None = None,
) -> dict[int, Resampled]:
    """Submission id -> its resampled column, for rows whose statistics are stored."""
    ids = metric_ids_for(profile, column)
    if not ids:
        return {}
    stored = {
        submission_id: computing_from(sealed)
        for submission_id, sealed in session.execute(
            select(SubmissionStatistics.submission_id, SubmissionStatistics.data).where(
                SubmissionStatistics.submission_id.in_([row.submission_id for row in rows])
            )
        ).all()
    }
    found = {}
    for submission_id, data in stored.items():
        key = [hashlib.sha256(data).hexdigest(), profile.name, column, SAMPLES, SEED]

        def compute(data: bytes = data) -> bytes:
            statistics = unpack_statistics(data)
            if not all(i in statistics for i in ids):
                return b""
            result = resample(profile, {i: statistics[i] for i in ids}, column)
            buffer = io.BytesIO()
            np.savez(buffer, observed=result.observed, samples=result.samples)
            return buffer.getvalue()

        packed = cache.get_or_make("resamples", key, ".npz", compute) if cache else compute()
        if packed:
            with np.load(io.BytesIO(packed), allow_pickle=False) as archive:
                found[submission_id] = Resampled(float(archive["observed"]), archive["samples"])
    return found


def assign_rank_groups(
    session: Session,
    track: Track,
    rows: list[LeaderboardRow],
    column: str,
    viewer: Viewer,
    cache: FileCache | None = None,
) -> None:
    """Set ``rank_group`` on the rows (None where a submission has no stored statistics, or
    where ``viewer`` may not see significance: a team's own systems before publication)."""
    if not viewer.sees_significance_of(track):
        return
    profile = track.scoring_profile
    resampled = resampled_rows(session, profile, rows, column, cache)
    ranked = [row for row in rows if row.submission_id in resampled and column in row.scores]
    ranked.sort(key=lambda row: row.scores[column], reverse=profile.higher_is_better(column))
    groups = rank_groups([row.submission_id for row in ranked], resampled)
    for row in rows:
        row.rank_group = groups.get(row.submission_id)
