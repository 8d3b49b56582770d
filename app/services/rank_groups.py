"""Significance groups on a leaderboard: the best system and every system not significantly
different from it (paired bootstrap, p < 0.05) share group 1; the same again on the rest.

The per-item statistics come from the stored ``SubmissionStatistics``, so no output is scored
again; results are cached by the submissions and the metric they depend on.
"""

from __future__ import annotations

import json

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import SubmissionStatistics, Track
from app.services.file_cache import FileCache
from app.services.leaderboard import LeaderboardRow
from scorer.metrics import normalised_average as norm_avg
from scorer.profiles import Profile, get_profile
from scorer.significance import SAMPLES, SEED, paired_bootstrap
from worker.statistics import unpack_statistics

ALPHA = 0.05


def metric_ids_for(profile: Profile, column: str) -> list[str]:
    """The registry ids a column's value is computed from (norm_avg: its five metrics)."""
    if column == norm_avg.NAME:
        return [profile.metric_ids[name] for name in norm_avg.SCALES]
    return [profile.metric_ids[column]] if column in profile.metric_ids else []


def assign_rank_groups(
    session: Session,
    track: Track,
    rows: list[LeaderboardRow],
    column: str,
    cache: FileCache | None = None,
) -> None:
    """Set ``rank_group`` on the rows (None where a submission has no stored statistics)."""
    profile = get_profile(track.profile)
    ids = metric_ids_for(profile, column)
    if not ids:
        return
    stored = dict(
        session.execute(
            select(SubmissionStatistics.submission_id, SubmissionStatistics.data).where(
                SubmissionStatistics.submission_id.in_([row.submission_id for row in rows])
            )
        ).all()
    )
    ranked = [row for row in rows if row.submission_id in stored and column in row.scores]
    rising = profile.higher_is_better(column)
    ranked.sort(key=lambda row: row.scores[column], reverse=rising)
    key = {"column": column, "submissions": [row.submission_id for row in ranked], "n": SAMPLES}

    def compute() -> bytes:
        statistics = {}
        for row in ranked:
            unpacked = unpack_statistics(stored[row.submission_id])
            if all(i in unpacked for i in ids):
                statistics[row.submission_id] = {i: unpacked[i] for i in ids}
        groups = rank_groups(profile, column, [row.submission_id for row in ranked], statistics)
        return json.dumps(groups).encode()

    data = cache.get_or_make("rank-groups", key, ".json", compute) if cache else compute()
    groups = {int(k): v for k, v in json.loads(data).items()}
    for row in rows:
        row.rank_group = groups.get(row.submission_id)


def rank_groups(
    profile: Profile,
    column: str,
    order: list[int],
    statistics: dict[int, dict[str, np.ndarray]],
) -> dict[int, int]:
    """``order``: submission ids best first. Returns submission id -> group number."""
    remaining = [sid for sid in order if sid in statistics]
    groups: dict[int, int] = {}
    group = 0
    while remaining:
        group += 1
        leader, rest = remaining[0], remaining[1:]
        groups[leader] = group
        tied = []
        for other in rest:
            if len(statistics[other][next(iter(statistics[other]))]) != len(
                statistics[leader][next(iter(statistics[leader]))]
            ):
                continue
            (comparison,) = [
                c
                for c in paired_bootstrap(
                    profile, statistics[leader], statistics[other], SAMPLES, SEED
                )
                if c.metric == column
            ]
            if comparison.p_value >= ALPHA:
                tied.append(other)
        for other in tied:
            groups[other] = group
        remaining = [sid for sid in rest if sid not in tied]
    return groups
