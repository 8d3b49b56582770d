"""TrueSkill rankings with rank ranges and significance clusters, as E2E Table 11 was made.

Each RankME judgement (one MR, five system outputs, a 0-100 score each) becomes its ten pairwise
outcomes: the higher raw score wins, equal scores draw (E2E: 2,979 rankings -> 29,790
comparisons). The default procedure is the WMT one of Sakaguchi, Post & Van Durme (2014) in the
form the E2E organisers ran it (``wmt``):

* environment: mu 0, sigma 0.5, tau 0, draw probability 0.25, beta = 0.5 * (N + 1) / 40 for N
  comparisons;
* one run is N + 1 updates; each update chooses its pair actively -- the system with the largest
  sigma, then an opponent drawn with weight exp(-|mu_a - mu_b|) among the systems it was compared
  with -- draws one stored comparison of that pair at random (with replacement) and rates it as
  a two-player game;
* 200 independent runs; a system's TrueSkill is its mean mu; its rank range keeps the central 95%
  of its 200 ranks (5 dropped at each end); a cluster ends after a system whose worst rank is
  better than the best rank of every system below it.

The older ``bootstrap`` procedure (each run on a bootstrap resample of the comparisons in random
order, the draw probability from the share of ties) stays available as an option.

The update is TrueSkill's exact two-player rule, the one ``trueskill.rate_1vs1`` computes (the
tests check each step against it), written over numpy arrays so that all runs advance together:
200 runs of 42,391 updates take seconds, where 8 million ``rate_1vs1`` calls take half an hour.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from scorer.extras import require

if TYPE_CHECKING:
    import trueskill

MU = 0.0
SIGMA = 0.5
"""Scale of Sakaguchi et al.'s WMT TrueSkill, whose values E2E Table 11 prints (best: 0.3)."""
WMT_DRAW_PROBABILITY = 0.25
WMT_TAU = 0.0
BETA = SIGMA / 2
TAU = SIGMA / 100
"""The ``bootstrap`` procedure's beta and tau: the trueskill package's own ratios to sigma."""
RUNS = 200
COVERAGE = 0.95
MIN_RUNS = 40
"""Fewest runs whose central 95% drops a run at each end (ceil(0.025 * 40) = 1): fewer runs
give a range wider than it says, and under 3 none at all."""
"""Share of a system's ranks its rank range must hold (E2E: "95% of the time or more")."""
PROCEDURES = ("wmt", "bootstrap")
CLUSTERS = "trueskill"
"""The cluster procedure this module's rank ranges make (``scorer.human.clusters``)."""


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
    procedure: str = "wmt"
    beta: float = BETA
    tau: float = TAU

    def to_dict(self) -> dict:
        return {
            "procedure": self.procedure,
            "clusters": CLUSTERS,
            "runs": self.runs,
            "comparisons": self.comparisons,
            "draw_probability": round(self.draw_probability, 6),
            "seed": self.seed,
            "environment": {"mu": MU, "sigma": SIGMA, "beta": self.beta, "tau": self.tau},
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


@cache
def _trueskill() -> ModuleType:
    """The trueskill package (the ``human`` extra: the participants' core install has no
    source-only package to build)."""
    return require("trueskill", "human", "TrueSkill")


def environment(
    draw_probability: float, beta: float = BETA, tau: float = TAU
) -> trueskill.TrueSkill:
    return _trueskill().TrueSkill(
        mu=MU, sigma=SIGMA, beta=beta, tau=tau, draw_probability=draw_probability
    )


def wmt_environment(comparisons: int) -> trueskill.TrueSkill:
    """The WMT/E2E environment for ``comparisons`` pairwise outcomes."""
    return environment(WMT_DRAW_PROBABILITY, beta=SIGMA * (comparisons + 1) / 40, tau=WMT_TAU)


def _pdf(x: np.ndarray) -> np.ndarray:
    return np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


@cache
def _ndtr() -> Callable[[np.ndarray], np.ndarray]:
    """SciPy's normal CDF (the ``human`` extra), looked up once."""
    function: Callable[[np.ndarray], np.ndarray] = require(
        "scipy.special", "human", "TrueSkill"
    ).ndtr
    return function


def _unit_open(x: np.ndarray) -> np.ndarray:
    """Clamped into [1e-12, 1 - 1e-12] (np.clip is slow on small arrays)."""
    return np.minimum(np.maximum(x, 1e-12), 1 - 1e-12)


def _win_vw(t: np.ndarray, eps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x = t - eps
    denom = _ndtr()(x)
    v = np.where(denom > 0, _pdf(x) / denom, -x)
    return v, _unit_open(v * (v + x))


def _draw_vw(t: np.ndarray, eps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    sign = np.where(t < 0, -1.0, 1.0)
    abs_t = np.abs(t)
    a, b = eps - abs_t, -eps - abs_t
    ndtr = _ndtr()
    denom = ndtr(a) - ndtr(b)
    pdf_a, pdf_b = _pdf(a), _pdf(b)
    v_abs = np.where(denom > 0, (pdf_b - pdf_a) / denom, a)
    w = np.where(denom > 0, v_abs**2 + (a * pdf_a - b * pdf_b) / denom, 1 - 1e-12)
    return v_abs * sign, _unit_open(w)


def rate(
    mu: np.ndarray,
    var: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    tied: np.ndarray,
    env: trueskill.TrueSkill,
    draw_margin: float | None = None,
) -> None:
    """One comparison per run: row r of ``mu``/``var`` (runs x systems) plays first[r] v second[r].

    Updates in place, as ``rate_1vs1`` would return new ratings: dynamics tau^2 added to each
    variance, c^2 = 2 beta^2 + var_1 + var_2, mean moved by var/c * v, variance shrunk by
    1 - var/c^2 * w, v and w from the win or draw truncation. Loops pass ``draw_margin``
    (``trueskill.calc_draw_margin``) once instead of per step.
    """
    if draw_margin is None:
        draw_margin = _trueskill().calc_draw_margin(env.draw_probability, 2, env)
    rows = np.arange(mu.shape[0])
    var_1 = var[rows, first] + env.tau**2
    var_2 = var[rows, second] + env.tau**2
    c = np.sqrt(2 * env.beta**2 + var_1 + var_2)
    t = (mu[rows, first] - mu[rows, second]) / c
    eps = draw_margin / c
    with np.errstate(divide="ignore", invalid="ignore"):
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
    margin = _trueskill().calc_draw_margin(env.draw_probability, 2, env)
    for step in range(order.shape[1]):
        rate(mu, var, first[:, step], second[:, step], tied[:, step], env, margin)
    return mu, np.sqrt(var)


def rank_range(ranks: np.ndarray, coverage: float = COVERAGE) -> tuple[int, int]:
    """The central ``coverage`` share of one system's ranks (1 = best) over the runs:
    ceil((n - coverage * n) / 2) ranks dropped at each end (200 runs: 5)."""
    ordered = np.sort(ranks)
    n = len(ordered)
    cut = math.ceil(round((n - coverage * n) / 2, 9))
    return int(ordered[cut]), int(ordered[n - 1 - cut])


def check_runs(runs: int) -> None:
    """Refuse a number of runs too small for ``rank_range``'s central 95%."""
    if runs < MIN_RUNS:
        raise ValueError(f"runs {runs}: a 95% range needs {MIN_RUNS} runs or more")


def clusters(ranges: Sequence[tuple[int, int]]) -> list[int]:
    """Cluster numbers for systems listed best first: a cluster ends after a system whose worst
    rank is better (lower) than the best rank of every system below it."""
    best_below = [math.inf] * len(ranges)  # the best rank of everything below each system
    for index in range(len(ranges) - 2, -1, -1):
        best_below[index] = min(best_below[index + 1], ranges[index + 1][0])
    numbers: list[int] = []
    cluster = 1
    for (_, worst), bound in zip(ranges, best_below, strict=True):
        numbers.append(cluster)
        cluster += worst < bound < math.inf
    return numbers


def ranks_per_run(mu: np.ndarray) -> np.ndarray:
    """Rank (1 = best) of each system in each run, by mu."""
    order = np.argsort(-mu, axis=1, kind="stable")
    ranks = np.empty_like(order)
    rows = np.arange(mu.shape[0])[:, None]
    ranks[rows, order] = np.arange(1, mu.shape[1] + 1)
    return ranks


@dataclass(frozen=True)
class PairOutcomes:
    """Per ordered pair (a, b): how often a beat b, how often they drew, how often compared."""

    wins: np.ndarray
    draws: np.ndarray
    total: np.ndarray

    @classmethod
    def of(cls, comparisons: Comparisons) -> PairOutcomes:
        size = len(comparisons.systems)
        wins = np.zeros((size, size))
        draws = np.zeros((size, size))
        won = ~comparisons.tied
        np.add.at(wins, (comparisons.first[won], comparisons.second[won]), 1)
        tied = comparisons.tied
        np.add.at(draws, (comparisons.first[tied], comparisons.second[tied]), 1)
        draws = draws + draws.T
        return cls(wins, draws, wins + wins.T + draws)


def wmt_runs(
    comparisons: Comparisons, runs: int, rng: np.random.Generator, env: trueskill.TrueSkill
) -> tuple[np.ndarray, np.ndarray]:
    """``runs`` independent runs of N + 1 actively chosen updates; final mu and sigma per run."""
    pairs = PairOutcomes.of(comparisons)
    size = len(comparisons.systems)
    compared = pairs.total > 0
    mu = np.full((runs, size), env.mu)
    var = np.full((runs, size), env.sigma**2)
    rows = np.arange(runs)
    margin = _trueskill().calc_draw_margin(env.draw_probability, 2, env)
    for _ in range(len(comparisons) + 1):
        player = np.argmax(var, axis=1)
        weights = np.exp(-np.abs(mu - mu[rows, player][:, None]))
        weights *= compared[player]
        cumulative = np.cumsum(weights, axis=1)
        pick = rng.random(runs) * cumulative[:, -1]
        opponent = np.minimum((cumulative <= pick[:, None]).sum(axis=1), size - 1)
        draw = rng.random(runs) * pairs.total[player, opponent]
        wins = pairs.wins[player, opponent]
        not_lost = wins + pairs.draws[player, opponent]
        tied = (draw >= wins) & (draw < not_lost)
        lost = draw >= not_lost
        first = np.where(lost, opponent, player)
        second = np.where(lost, player, opponent)
        rate(mu, var, first, second, tied, env, margin)
    return mu, np.sqrt(var)


def rank(
    comparisons: Comparisons,
    *,
    procedure: str = "wmt",
    runs: int = RUNS,
    seed: int = 2018,
    draw_probability: float | None = None,
) -> TrueSkillResult:
    """Rank systems by ``procedure`` (``wmt``: E2E Table 11's; ``bootstrap``: the older one)."""
    if procedure == "bootstrap":
        return bootstrap(comparisons, runs=runs, seed=seed, draw_probability=draw_probability)
    check_runs(runs)
    if procedure != "wmt":
        raise ValueError(f"unknown TrueSkill procedure {procedure!r}; known: {PROCEDURES}")
    if draw_probability is not None:
        raise ValueError("the WMT procedure fixes the draw probability at 0.25")
    if len(comparisons) == 0:
        raise ValueError("no pairwise comparisons: every judgement scores fewer than two systems")
    env = wmt_environment(len(comparisons))
    mu, sigma = wmt_runs(comparisons, runs, np.random.default_rng(seed), env)
    return _result(comparisons, mu, sigma, runs, seed, env, "wmt")


def _result(
    comparisons: Comparisons,
    mu: np.ndarray,
    sigma: np.ndarray,
    runs: int,
    seed: int,
    env: trueskill.TrueSkill,
    procedure: str,
) -> TrueSkillResult:
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
    return TrueSkillResult(
        rows, runs, len(comparisons), env.draw_probability, seed, procedure, env.beta, env.tau
    )


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
    check_runs(runs)
    if len(comparisons) == 0:
        raise ValueError("no pairwise comparisons: every judgement scores fewer than two systems")
    share = comparisons.tie_share if draw_probability is None else draw_probability
    env = environment(min(max(share, 1e-6), 1 - 1e-6))
    rng = np.random.default_rng(seed)
    order = rng.integers(0, len(comparisons), size=(runs, len(comparisons)))
    mu, sigma = play(comparisons, order, env)
    return _result(comparisons, mu, sigma, runs, seed, env, "bootstrap")
