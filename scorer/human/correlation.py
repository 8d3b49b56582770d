"""System-level agreement of automatic metrics with human scores (SR'18 Table 9).

Pearson's r between each metric and the human score over the systems; the Williams test
(Williams, 1959) for the difference between two dependent correlations that share the human
variable, as Graham & Baldwin (2014) use it for MT metrics:

    t = (r12 - r13) * sqrt((n - 1)(1 + r23))
        / sqrt(2 K (n - 1) / (n - 3) + (r12 + r13)^2 / 4 * (1 - r23)^3),
    K = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23,

with 1 = human, 2 and 3 the metrics, n systems, one-sided p from Student's t with n - 3 degrees
of freedom. A metric is "best" (bold in Table 9) when no other metric correlates significantly
better.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scorer.extras import require

ALPHA = 0.05


@dataclass(frozen=True)
class Correlations:
    systems: tuple[str, ...]
    pearson: dict[str, float]
    #: williams[a][b]: one-sided p that metric a correlates better with humans than metric b.
    williams: dict[str, dict[str, float]]

    @property
    def best(self) -> list[str]:
        return [
            metric
            for metric in self.pearson
            if not any(row.get(metric, 1.0) < ALPHA for row in self.williams.values())
        ]

    def to_dict(self) -> dict:
        return {
            "systems": list(self.systems),
            "pearson": self.pearson,
            "williams": self.williams,
            "not_significantly_worse": self.best,
        }


def williams_p(r12: float, r13: float, r23: float, n: int) -> float:
    """One-sided p that r12 > r13 given r23 and n (needs n > 3)."""
    if n <= 3:
        raise ValueError(f"the Williams test needs at least 4 systems, got {n}")
    if math.isclose(r23, 1.0, abs_tol=1e-9):
        return 0.5  # one metric is the other up to scale: equal correlations, t = 0 (not 0/0)
    k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23
    denominator = math.sqrt(2 * k * (n - 1) / (n - 3) + (r12 + r13) ** 2 / 4 * (1 - r23) ** 3)
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23)) / denominator
    stats = require("scipy.stats", "human", "the Williams test")

    return float(stats.t.sf(t, n - 3))


def correlate(
    human: Mapping[str, float], metrics: Mapping[str, Mapping[str, float]]
) -> Correlations:
    """``human``: system -> score; ``metrics``: metric -> system -> score (same systems)."""
    systems = tuple(sorted(human))
    for metric, scores in metrics.items():
        missing = [s for s in systems if s not in scores]
        if missing:
            raise ValueError(f"{metric} has no score for {', '.join(missing)}")
    if len(systems) < 3:
        raise ValueError(f"a correlation needs at least 3 systems, got {len(systems)}")
    stats = require("scipy.stats", "human", "metric correlation")

    h = [human[s] for s in systems]
    columns: dict[str, Sequence[float]] = {m: [v[s] for s in systems] for m, v in metrics.items()}
    pearson = {m: float(stats.pearsonr(h, column).statistic) for m, column in columns.items()}
    williams: dict[str, dict[str, float]] = {}
    if len(systems) > 3:
        for a, column_a in columns.items():
            williams[a] = {}
            for b, column_b in columns.items():
                if a != b:
                    r23 = float(stats.pearsonr(column_a, column_b).statistic)
                    williams[a][b] = williams_p(pearson[a], pearson[b], r23, len(systems))
    return Correlations(systems, pearson, williams)
