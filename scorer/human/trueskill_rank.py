"""TrueSkill rankings with bootstrap rank ranges and significance clusters (E2E Sect. 7.2).

Each RankME judgement (one MR, five system outputs, a 0-100 score each) becomes its ten pairwise
outcomes, a tie where two scores are equal (Sakaguchi et al., 2014; E2E: 2,979 rankings ->
29,790 comparisons). TrueSkill (Herbrich et al., 2006) is run ``runs`` times (E2E: 200), each run on
a bootstrap resample of the comparisons in random order. A system's rank range is the central 95%
of the ranks it takes over the runs; systems are then cut into clusters wherever a system's best
rank is below the worst rank of every system above it (E2E Table 11; Bojar et al., 2013).

The update is TrueSkill's exact two-player rule, the one ``trueskill.rate_1vs1`` computes: the
environment (mu, sigma, beta, tau, draw margin) comes from the ``trueskill`` package and the tests
check each step against ``rate_1vs1``. It is written over numpy arrays so that all bootstrap runs
advance together, one comparison per run per step: 200 runs over 30,000 comparisons take seconds,
where 6 million ``rate_1vs1`` calls would take some twenty minutes.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import trueskill
from scipy.special import ndtr

#: Scale of Sakaguchi et al.'s WMT TrueSkill, whose values E2E Table 11 prints (mu around 0, the
#: best system at 0.3): mu 0, sigma 0.5, and the trueskill package's own ratios beta = sigma / 2,
#: tau = sigma / 100.
MU = 0.0
SIGMA = 0.5
BETA = SIGMA / 2
TAU = SIGMA / 100
RUNS = 200
#: Share of a system's bootstrap ranks its rank range must hold (E2E: "95% of the time or more").
COVERAGE = 0.95


@dataclass(frozen=True)
class Comparisons:
    """Pairwise outcomes as index arrays into ``systems``: ``first`` beat ``second`` unless tied."""

    systems: tuple[str, ...]
    first: np.ndarray
    second: np.ndarray
    tied: np.ndarray

    def __len__(self) -> int:
        return len(self.first)

    @property
    def tie_share(self) -> float:
        return float(self.tied.mean()) if len(self) else 0.0

    def per_system(self) -> dict[str, int]:
        counts = np.bincount(self.first, minlength=len(self.systems)) + np.bincount(
            self.second, minlength=len(self.systems)
        )
        return dict(zip(self.systems, counts.tolist(), strict=True))


@dataclass(frozen=True)
class SystemRank:
    system: str
    mu: float
    sigma: float
    best_rank: int
    worst_rank: int
    cluster: int
    comparisons: int


@dataclass(frozen=True)
class TrueSkillResult:
    rows: tuple[SystemRank, ...]
    runs: int
    comparisons: int
    draw_probability: float
    seed: int

    def to_dict(self) -> dict:
        return {
            "runs": self.runs,
            "comparisons": self.comparisons,
            "draw_probability": round(self.draw_probability, 6),
            "seed": self.seed,
            "environment": {"mu": MU, "sigma": SIGMA, "beta": BETA, "tau": TAU},
            "systems": [
                {
                    "cluster": row.cluster,
                    "system": row.system,
                    "mu": round(row.mu, 6),
                    "sigma": round(row.sigma, 6),
                    "rank": [row.best_rank, row.worst_rank],
                    "comparisons": row.comparisons,
                }
                for row in self.rows
            ],
        }


def pairwise(rankings: Iterable[dict[str, float]]) -> Comparisons:
    """Every pair of outputs judged together, the better-scored one first; equal scores tie."""
    names: dict[str, int] = {}
    first: list[int] = []
    second: list[int] = []
    tied: list[bool] = []
    for scores in rankings:
        for (a, score_a), (b, score_b) in itertools.combinations(scores.items(), 2):
            if a == b:
                continue
            if score_b > score_a:
                a, b = b, a
            first.append(names.setdefault(a, len(names)))
            second.append(names.setdefault(b, len(names)))
            tied.append(score_a == score_b)
    return Comparisons(
        tuple(names),
        np.asarray(first, dtype=np.intp),
        np.asarray(second, dtype=np.intp),
        np.asarray(tied, dtype=bool),
    )


def environment(draw_probability: float) -> trueskill.TrueSkill:
    return trueskill.TrueSkill(
        mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, draw_probability=draw_probability
    )


def _pdf(x: np.ndarray) -> np.ndarray:
    return np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


def _win_vw(t: np.ndarray, eps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x = t - eps
    denom = ndtr(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        v = np.where(denom > 0, _pdf(x) / denom, -x)
    w = np.clip(v * (v + x), 1e-12, 1 - 1e-12)
    return v, w


def _draw_vw(t: np.ndarray, eps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    sign = np.where(t < 0, -1.0, 1.0)
    abs_t = np.abs(t)
    a, b = eps - abs_t, -eps - abs_t
    denom = ndtr(a) - ndtr(b)
    pdf_a, pdf_b = _pdf(a), _pdf(b)
    with np.errstate(divide="ignore", invalid="ignore"):
        v_abs = np.where(denom > 0, (pdf_b - pdf_a) / denom, a)
        w = np.where(denom > 0, v_abs**2 + (a * pdf_a - b * pdf_b) / denom, 1 - 1e-12)
    return v_abs * sign, np.clip(w, 1e-12, 1 - 1e-12)


def rate(
    mu: np.ndarray,
    var: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    tied: np.ndarray,
    env: trueskill.TrueSkill,
) -> None:
    """One comparison per run: row r of ``mu``/``var`` (runs x systems) plays first[r] v second[r].

    Updates in place, as ``rate_1vs1`` would return new ratings: dynamics tau^2 added to each
    variance, c^2 = 2 beta^2 + var_1 + var_2, mean moved by var/c * v, variance shrunk by
    1 - var/c^2 * w, v and w from the win or draw truncation.
    """
    rows = np.arange(mu.shape[0])
    var_1 = var[rows, first] + env.tau**2
    var_2 = var[rows, second] + env.tau**2
    c = np.sqrt(2 * env.beta**2 + var_1 + var_2)
    t = (mu[rows, first] - mu[rows, second]) / c
    eps = trueskill.calc_draw_margin(env.draw_probability, 2, env) / c
    v_win, w_win = _win_vw(t, eps)
    v_draw, w_draw = _draw_vw(t, eps)
    v = np.where(tied, v_draw, v_win)
    w = np.where(tied, w_draw, w_win)
    mu[rows, first] += var_1 / c * v
    mu[rows, second] -= var_2 / c * v
    var[rows, first] = var_1 * (1 - var_1 / c**2 * w)
    var[rows, second] = var_2 * (1 - var_2 / c**2 * w)


def play(
    comparisons: Comparisons, order: np.ndarray, env: trueskill.TrueSkill
) -> tuple[np.ndarray, np.ndarray]:
    """Run TrueSkill once per row of ``order`` (comparison indices, in the order played)."""
    runs = order.shape[0]
    shape = (runs, len(comparisons.systems))
    mu = np.full(shape, env.mu)
    var = np.full(shape, env.sigma**2)
    first = comparisons.first[order]
    second = comparisons.second[order]
    tied = comparisons.tied[order]
    for step in range(order.shape[1]):
        rate(mu, var, first[:, step], second[:, step], tied[:, step], env)
    return mu, np.sqrt(var)


def rank_range(ranks: np.ndarray, coverage: float = COVERAGE) -> tuple[int, int]:
    """The central ``coverage`` share of one system's ranks (1 = best) over the runs."""
    ordered = np.sort(ranks)
    cut = math.floor(len(ordered) * (1 - coverage) / 2)
    return int(ordered[cut]), int(ordered[len(ordered) - 1 - cut])


def clusters(ranges: Sequence[tuple[int, int]]) -> list[int]:
    """Cluster numbers for systems listed best first: a new cluster wherever a system's best rank
    lies below the worst rank of everything above it, so overlapping ranges share a cluster."""
    numbers: list[int] = []
    worst_so_far = 0
    for best, worst in ranges:
        if not numbers:
            numbers.append(1)
        elif best > worst_so_far:
            numbers.append(numbers[-1] + 1)
        else:
            numbers.append(numbers[-1])
        worst_so_far = max(worst_so_far, worst)
    return numbers


def ranks_per_run(mu: np.ndarray) -> np.ndarray:
    """Rank (1 = best) of each system in each run, by mu."""
    order = np.argsort(-mu, axis=1, kind="stable")
    ranks = np.empty_like(order)
    rows = np.arange(mu.shape[0])[:, None]
    ranks[rows, order] = np.arange(1, mu.shape[1] + 1)
    return ranks


def bootstrap(
    comparisons: Comparisons,
    *,
    runs: int = RUNS,
    seed: int = 2018,
    draw_probability: float | None = None,
) -> TrueSkillResult:
    """TrueSkill on ``runs`` bootstrap resamples; mu and sigma are averages over the runs.

    ``draw_probability`` defaults to the share of ties among the comparisons, so the draw margin
    fits how often the judges really tie (RankME ties are common: many outputs get 100).
    """
    if len(comparisons) == 0:
        raise ValueError("no pairwise comparisons: every judgement scores fewer than two systems")
    share = comparisons.tie_share if draw_probability is None else draw_probability
    env = environment(min(max(share, 1e-6), 1 - 1e-6))
    rng = np.random.default_rng(seed)
    order = rng.integers(0, len(comparisons), size=(runs, len(comparisons)))
    mu, sigma = play(comparisons, order, env)
    ranks = ranks_per_run(mu)
    mean_mu = mu.mean(axis=0)
    by_mu = np.argsort(-mean_mu, kind="stable")
    ranges = [rank_range(ranks[:, system]) for system in by_mu]
    cluster_numbers = clusters(ranges)
    counts = comparisons.per_system()
    rows = tuple(
        SystemRank(
            system=comparisons.systems[system],
            mu=float(mean_mu[system]),
            sigma=float(sigma[:, system].mean()),
            best_rank=best,
            worst_rank=worst,
            cluster=cluster,
            comparisons=counts[comparisons.systems[system]],
        )
        for system, (best, worst), cluster in zip(by_mu, ranges, cluster_numbers, strict=True)
    )
    return TrueSkillResult(rows, runs, len(comparisons), env.draw_probability, seed)
