"""Paired bootstrap resampling between two systems on the same test set (Koehn 2004).

Each of ``samples`` resamples draws n items with replacement -- the *same* items for both
systems -- and recomputes every metric from the summed per-item statistics (no re-tokenising,
no JVM). Reported per metric: the observed difference A - B, the 95% percentile interval of the
resampled differences and a two-sided p-value for "no difference", computed by shifting the
resampled differences to mean zero: p = (1 + #{|d_s - mean(d)| >= |d_obs|}) / (samples + 1).

Citation: Koehn (2004), Statistical significance tests for machine translation evaluation,
EMNLP; Riezler & Maxwell (2005), On some pitfalls in automatic evaluation and significance
testing for MT.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from scorer.kinds import Profile
from scorer.metrics import get_metric
from scorer.metrics import normalised_average as norm_avg

SAMPLES = 1000
SEED = 12345


@dataclass(frozen=True)
class Comparison:
    metric: str
    score_a: float
    score_b: float
    difference: float
    low: float
    high: float
    p_value: float

    @property
    def significant(self) -> bool:
        return self.p_value < 0.05


@lru_cache(maxsize=16)
def resample_weights(items: int, samples: int = SAMPLES, seed: int = SEED) -> np.ndarray:
    """How often each item is drawn in each resample (samples x items); kept (read-only) for
    the next system on a test set of the same size: every system is drawn the same items."""
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, items, size=(samples, items))
    weights = np.zeros((samples, items))
    np.add.at(weights, (np.repeat(np.arange(samples), items), draws.ravel()), 1.0)
    weights.flags.writeable = False
    return weights


def resampled_scores(
    profile: Profile, statistics: dict[str, np.ndarray], weights: np.ndarray
) -> dict[str, np.ndarray]:
    """Every column's value on each resample (a row of ``weights``): each metric's totals for
    all resamples in one product, then its score per resample."""
    values: dict[str, np.ndarray] = {}
    for metric_id, rows in statistics.items():
        metric = get_metric(metric_id)
        totals = weights @ np.asarray(rows, dtype=float)
        values[metric.name] = np.array([float(metric.score_from_totals(t)) for t in totals])
    if norm_avg.NAME in profile.derived and set(norm_avg.SCALES) <= set(values):
        values[norm_avg.NAME] = sum(
            (values[name] / scale for name, scale in norm_avg.SCALES.items()),
            np.zeros(len(weights)),
        ) / len(norm_avg.SCALES)
    return values


def p_resolution(samples: int = SAMPLES) -> float:
    """The smallest p-value ``samples`` resamples give: 1 / (samples + 1), when none of them is
    as far from zero as the observed difference. A p-value there says only "at most this"."""
    return 1.0 / (samples + 1)


def printed_p(p_value: float, samples: int = SAMPLES) -> str:
    """A p-value for people: 4 decimals, or ``<`` the next power of ten above the resolution
    (``p<0.001`` for 1,000 resamples: 1/1001) where the resampling cannot tell it any smaller
    (``p<=`` the resolution when that is itself a power of ten)."""
    floor = p_resolution(samples)
    if p_value > floor * (1 + 1e-9):
        return f"p={p_value:.4f}"
    bound = 10.0 ** -int(np.floor(-np.log10(floor)))
    return f"p<{bound:g}" if bound > floor * (1 + 1e-9) else f"p<={floor:g}"


def interval(samples: np.ndarray) -> tuple[float, float]:
    """The 95% percentile interval of resampled values."""
    return float(np.percentile(samples, 2.5)), float(np.percentile(samples, 97.5))


def paired_bootstrap(
    profile: Profile,
    statistics_a: dict[str, np.ndarray],
    statistics_b: dict[str, np.ndarray],
    samples: int = SAMPLES,
    seed: int = SEED,
) -> list[Comparison]:
    """Compare two systems' per-item statistics (from ``Profile.statistics``) on every metric."""
    items = len(next(iter(statistics_a.values())))
    observed_a = profile.scores_from_statistics(statistics_a)
    observed_b = profile.scores_from_statistics(statistics_b)
    weights = resample_weights(items, samples, seed)
    resampled_a = resampled_scores(profile, statistics_a, weights)
    resampled_b = resampled_scores(profile, statistics_b, weights)
    comparisons = []
    for name in observed_a:
        if name not in observed_b:
            continue
        deltas = resampled_a[name] - resampled_b[name]
        observed = observed_a[name] - observed_b[name]
        extreme = np.abs(deltas - deltas.mean()) >= abs(observed)
        low, high = interval(deltas)
        comparisons.append(
            Comparison(
                metric=name,
                score_a=observed_a[name],
                score_b=observed_b[name],
                difference=observed,
                low=low,
                high=high,
                p_value=float((1 + extreme.sum()) / (samples + 1)),
            )
        )
    return comparisons
