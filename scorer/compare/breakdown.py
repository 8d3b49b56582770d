"""Breakdowns: every metric on each bucket of an item attribute (WebNLG 2017's per-category and
per-size tables; E2E by MR size), with the bucket's item count and a 95% bootstrap interval,
from per-item statistics alone (no re-scoring). A bucket's figure is the corpus figure of its
items' summed statistics, the same code path as the headline: WebNLG 2017's per-category BLEU
is multi-bleu.perl run on that category's entries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from scorer.compare.significance import SAMPLES, SEED, interval, resample_weights, resampled_scores
from scorer.io.e2e import ReferenceItem
from scorer.io.items import groups_by
from scorer.kinds import Profile


@dataclass(frozen=True)
class Bucket:
    """One value of an attribute: how many items have it, and every column on them."""

    items: int
    values: dict[str, float]
    intervals: dict[str, tuple[float, float]]


def item_attributes(profile: Profile, items: Sequence[ReferenceItem]) -> list[dict[str, str]]:
    """Each item's attributes: its reader's, then those its kind computes."""
    return [
        profile.item_attributes(item.input, item.references, getattr(item, "attributes", {}))
        for item in items
    ]


def buckets(attributes: Sequence[Mapping[str, str]], attribute: str) -> dict[str, list[int]]:
    """Item positions by value of ``attribute``, values in natural order."""
    return groups_by(attributes, attribute)


def breakdown(
    profile: Profile,
    statistics: dict[str, np.ndarray],
    groups: Mapping[str, Sequence[int]],
    samples: int = SAMPLES,
    seed: int = SEED,
) -> dict[str, Bucket]:
    """Every column on each group of item positions; ``samples`` 0 leaves intervals out."""
    found = {}
    for value, positions in groups.items():
        index = np.asarray(positions, dtype=int)
        chosen = {metric: rows[index] for metric, rows in statistics.items()}
        intervals = {}
        if samples and len(index):
            weights = resample_weights(len(index), samples, seed)
            intervals = {
                name: interval(values)
                for name, values in resampled_scores(profile, chosen, weights).items()
            }
        found[value] = Bucket(len(index), profile.scores_from_statistics(chosen), intervals)
    return found
