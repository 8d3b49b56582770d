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

import numpy as np

from scorer.kinds import Profile

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


def resample_weights(items: int, samples: int = SAMPLES, seed: int = SEED) -> np.ndarray:
    """How often each item is drawn in each resample (samples x items)."""
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, items, size=(samples, items))
    weights = np.zeros((samples, items))
    np.add.at(weights, (np.repeat(np.arange(samples), items), draws.ravel()), 1.0)
    return weights


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
    differences: dict[str, list[float]] = {name: [] for name in observed_a}
    for row in weights:
        sample_a = profile.scores_from_statistics(statistics_a, row)
        sample_b = profile.scores_from_statistics(statistics_b, row)
        for name, values in differences.items():
            values.append(sample_a[name] - sample_b[name])
    comparisons = []
    for name, values in differences.items():
        deltas = np.asarray(values)
        observed = observed_a[name] - observed_b[name]
        extreme = np.abs(deltas - deltas.mean()) >= abs(observed)
        comparisons.append(
            Comparison(
                metric=name,
                score_a=observed_a[name],
                score_b=observed_b[name],
                difference=observed,
                low=float(np.percentile(deltas, 2.5)),
                high=float(np.percentile(deltas, 97.5)),
                p_value=float((1 + extreme.sum()) / (samples + 1)),
            )
        )
    return comparisons
