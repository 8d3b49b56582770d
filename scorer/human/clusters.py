"""Significance clusters: how a campaign groups its ranked systems, a named procedure.

Systems are listed best first; a cluster number says which systems the campaign's tests cannot
tell apart (1 = the top). Campaigns have formed them differently, and the organisers' procedure
is the specification of their table, so each is a named procedure and a campaign names its own:

* ``wmt`` (the default): WMT's rule over Wilcoxon rank-sum tests of systems' per-output scores.
  p[a, b] is the one-sided test that a's outputs score higher than b's, each system on the
  outputs it has. A cluster ends after position i when every system at or above i scores
  significantly higher (p < 0.05) than every system below it: a system in a higher cluster beats
  every one in a lower cluster, and systems that do not separate stay together.
* ``webnlg2020``: the WebNLG+ 2020 organisers' notebook. Every system is tested on every item any
  system has, an item it was not rated on counting as 0 (on the notebook's z scale, an
  annotator's mean); p[a, b] is the two-sided rank-sum test. All systems start in cluster 1;
  then, for each system a in order and each system b below a in order: if p[a, b] < 0.05, b's
  cluster becomes a's + 1; otherwise, if b's cluster is below that of the system just above b,
  b takes that system's cluster. One significant difference moves b down where ``wmt`` needs
  every system above to beat every one below, so the two can disagree on the same tests.
* ``trueskill``: TrueSkill's rank ranges over RankME rankings (``trueskill_rank``): a cluster
  ends after a system whose worst rank is better than the best rank of every system below it.
* ``rank-ranges``: the same rule over the ranks of Bradley-Terry scores fitted to bootstrap
  resamples of pairwise preferences (``pairwise``).

The first two work on per-output scores (Direct Assessment's z, a Likert mean), the others on
rank ranges: ``over_outputs`` names the procedures an analysis of per-output scores may use.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from scorer.extras import require
from scorer.human import trueskill_rank

ALPHA = 0.05
Item = TypeVar("Item", bound=Hashable)


def rank_sum_p_values(
    samples: Sequence[Sequence[float]], alternative: str = "greater"
) -> np.ndarray:
    """p[i, j]: the Wilcoxon rank-sum test of sample i against sample j (scipy's ``ranksums``);
    ``greater``: that i is higher than j; ``two-sided``: that they differ. NaN on the diagonal
    and where a sample is empty."""
    stats = require("scipy.stats", "human", "significance clusters")

    size = len(samples)
    p = np.full((size, size), np.nan)
    for i in range(size):
        for j in range(size):
            if i != j and len(samples[i]) and len(samples[j]):
                p[i, j] = stats.ranksums(samples[i], samples[j], alternative=alternative).pvalue
    return p


def rank_sum_clusters(p_values: np.ndarray, alpha: float = ALPHA) -> list[int]:
    """``wmt``'s rule (module docstring) over systems in table order (best first)."""
    size = len(p_values)
    clusters, current = [], 1
    for position in range(size):
        clusters.append(current)
        above, below = range(position + 1), range(position + 1, size)
        if below and all(p_values[a, b] < alpha for a in above for b in below):
            current += 1
    return clusters


def sequential_clusters(p_values: np.ndarray, alpha: float = ALPHA) -> list[int]:
    """``webnlg2020``'s rule (module docstring) over systems in table order (best first)."""
    clusters = [1] * len(p_values)
    for a in range(len(p_values)):
        for b in range(a + 1, len(p_values)):
            if p_values[a, b] < alpha:
                clusters[b] = clusters[a] + 1
            elif clusters[b] < clusters[b - 1]:
                clusters[b] = clusters[b - 1]
    return clusters


@dataclass(frozen=True)
class RankSumProcedure:
    """Clusters from rank-sum tests between systems' per-output scores."""

    name: str
    summary: str
    alternative: str
    """scipy's ``alternative``: ``greater`` (row beats column) or ``two-sided``."""
    unrated: float | None
    """None: each system on its own outputs; a number: on every item, this where it has none."""
    rule: Callable[[np.ndarray, float], list[int]]

    def samples(self, outputs: Sequence[Mapping[Item, float]]) -> list[list[float]]:
        """What is tested per system: ``outputs`` holds each system's item -> score."""
        if self.unrated is None:
            return [list(scores.values()) for scores in outputs]
        items = list(dict.fromkeys(item for scores in outputs for item in scores))
        return [[scores.get(item, self.unrated) for item in items] for scores in outputs]

    def p_values(self, outputs: Sequence[Mapping[Item, float]]) -> np.ndarray:
        return rank_sum_p_values(self.samples(outputs), self.alternative)

    def clusters(self, outputs: Sequence[Mapping[Item, float]], alpha: float = ALPHA) -> list[int]:
        """Cluster numbers of systems listed best first with their per-output scores."""
        return self.rule(self.p_values(outputs), alpha)


@dataclass(frozen=True)
class RankRangeProcedure:
    """Clusters from each system's range of ranks over repeated runs (TrueSkill's)."""

    name: str
    summary: str

    def clusters(self, ranges: Sequence[tuple[int, int]]) -> list[int]:
        """Cluster numbers of systems listed best first with their (best, worst) ranks."""
        return trueskill_rank.clusters(ranges)


WMT = RankSumProcedure(
    "wmt",
    "one-sided Wilcoxon rank-sum tests; a cluster ends where every system above beats every "
    "system below (p < 0.05)",
    "greater",
    None,
    rank_sum_clusters,
)
WEBNLG2020 = RankSumProcedure(
    "webnlg2020",
    "two-sided Wilcoxon rank-sum tests down the ranking, an unrated item counting as 0; a "
    "system one place below any system it differs from (p < 0.05), as the WebNLG+ 2020 "
    "organisers' notebook",
    "two-sided",
    0.0,
    sequential_clusters,
)
TRUESKILL = RankRangeProcedure(
    trueskill_rank.CLUSTERS,
    "TrueSkill rank ranges; a cluster ends after a system whose worst rank beats the best "
    "rank of every system below",
)
RANK_RANGES = RankRangeProcedure(
    "rank-ranges",
    "bootstrap rank ranges of Bradley-Terry scores (central 95%); a cluster ends after a "
    "system whose worst rank beats the best rank of every system below",
)
"""Pairwise preference's clusters (``scorer.human.pairwise``): the rule of ``trueskill`` over
ranks from resampled judgements instead of TrueSkill runs."""
OVER_OUTPUTS: dict[str, RankSumProcedure] = {WMT.name: WMT, WEBNLG2020.name: WEBNLG2020}
"""The procedures an analysis of per-output scores (Direct Assessment, Likert) may name."""
PROCEDURES: dict[str, RankSumProcedure | RankRangeProcedure] = {
    **OVER_OUTPUTS,
    TRUESKILL.name: TRUESKILL,
    RANK_RANGES.name: RANK_RANGES,
}
DEFAULT = WMT.name


def over_outputs(name: str) -> RankSumProcedure:
    """The per-output procedure called ``name``; any other name is refused, saying which exist."""
    if name in OVER_OUTPUTS:
        return OVER_OUTPUTS[name]
    choices = ", ".join(OVER_OUTPUTS)
    if name in PROCEDURES:
        raise ValueError(
            f"cluster procedure {name!r} groups systems by their rank ranges, "
            f"not per-output scores; choose one of {choices}"
        )
    raise ValueError(f"unknown cluster procedure {name!r}; choose one of {choices}")
