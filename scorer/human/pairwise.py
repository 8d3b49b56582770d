"""Pairwise preference: judgements of two outputs side by side, win rates and Bradley-Terry ranks.

File: a long CSV, one judgement per row, ``item,system_a,system_b,winner,annotator`` (other
columns ignored), read as every judgement file is (``scorer.io.table``: UTF-8 with or without a
BOM, CRLF, quoted fields). ``winner`` is ``a`` (system_a's output preferred), ``b`` or ``tie``.
Refused, naming the line: an empty field, another winner, a system paired with itself, and an
annotator judging the same pair on the same item twice (in either order).

Analysis, per campaign (``analyse``):

* ties: ``half`` (the default) counts a tie as half a win for each side, ``drop`` leaves ties out
  of win rates and scores (a campaign whose annotators were told "tie only if identical" may
  prefer it); agreement always counts a tie as a value of its own;
* win rate of a system: its wins (ties as said) over the judgements it was in; the win-rate
  matrix gives it per opponent (row system against column system, None where never compared);
* scores: Bradley-Terry by maximum likelihood (``scorer.human.bradley_terry``: log odds, mean 0
  over systems, a wide Gaussian prior that keeps the scores finite where a system never lost);
* intervals and rank ranges: the fit on ``runs`` bootstrap resamples of the judgements (seeded):
  a score's interval is the 2.5th to 97.5th percentile of its resampled scores, its rank range
  the central 95% of its resampled ranks, and clusters are read from the rank ranges as for
  TrueSkill (``trueskill_rank.clusters``: a cluster ends after a system whose worst rank is
  better than the best rank of every system below it);
* systems never compared, directly or through others, with the rest have no common scale: such
  a campaign is refused, naming the groups. Where the groups are compared but one never loses
  to another, the maximum likelihood does not exist and a note says the scores between the
  groups rest on the prior;
* agreement: Krippendorff's alpha, nominal, a unit being one pair of systems on one item
  (``scorer.human.agreement``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from scorer.errors import InputError
from scorer.extras import require
from scorer.human import bradley_terry
from scorer.human.agreement import Agreement, agreement
from scorer.human.trueskill_rank import check_runs, clusters, rank_range, ranks_per_run
from scorer.io.table import read_table, require_columns

COLUMNS = ("item", "system_a", "system_b", "winner", "annotator")
WINNERS = ("a", "b", "tie")
TIES = ("half", "drop")
RUNS = 1000
SEED = 2018
SCALE = "Bradley-Terry log odds, mean 0 over systems"


@dataclass(frozen=True)
class PairwiseJudgement:
    """One annotator's preference between two systems' outputs for one item."""

    item: str
    system_a: str
    system_b: str
    winner: str
    """``a``, ``b`` or ``tie``."""
    annotator: str
    line: int = field(default=0, compare=False)

    @property
    def share_a(self) -> float:
        """system_a's share of the win: 1, 0.5 for a tie, 0."""
        return {"a": 1.0, "tie": 0.5, "b": 0.0}[self.winner]


def read_pairwise(data: bytes, filename: str) -> list[PairwiseJudgement]:
    """Judgements of the pairwise layout; each refusal names the line and the rule."""
    header, records = read_table(data, filename)
    require_columns(header, COLUMNS, filename)
    judgements = []
    seen: dict[tuple[str, str, frozenset[str]], int] = {}
    for record in records:
        values = {name: record.values[name].strip() for name in COLUMNS}
        for name in COLUMNS:
            if not values[name]:
                raise InputError(f"empty {name}", filename=filename, line=record.line)
        winner = values["winner"].lower()
        if winner not in WINNERS:
            raise InputError(
                f"winner {values['winner']!r} is not one of {', '.join(WINNERS)}",
                filename=filename,
                line=record.line,
            )
        a, b = values["system_a"], values["system_b"]
        if a == b:
            raise InputError(
                f"system_a and system_b are both {a!r}: a system is not compared with itself",
                filename=filename,
                line=record.line,
            )
        key = (values["annotator"], values["item"], frozenset((a, b)))
        if key in seen:
            raise InputError(
                f"annotator {values['annotator']} judges {a} v {b} on item {values['item']} "
                f"again (first on line {seen[key]})",
                filename=filename,
                line=record.line,
            )
        seen[key] = record.line
        judgements.append(
            PairwiseJudgement(values["item"], a, b, winner, values["annotator"], record.line)
        )
    return judgements


@dataclass(frozen=True)
class SystemScore:
    system: str
    score: float
    interval: tuple[float, float]
    rank_range: tuple[int, int]
    cluster: int
    win_rate: float
    comparisons: int


@dataclass(frozen=True)
class PairwiseResult:
    rows: tuple[SystemScore, ...]
    win_rates: list[list[float | None]]
    """Row system's win rate against column system, systems in ``rows`` order."""
    agreement: Agreement
    ties: str
    runs: int
    seed: int
    judgements: int
    counted: int
    """Judgements in the scores: all, or all but the ties with ``ties="drop"``."""
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {
            "ties": self.ties,
            "runs": self.runs,
            "seed": self.seed,
            "judgements": self.judgements,
            "counted": self.counted,
            "scale": SCALE,
            "regularisation": bradley_terry.REGULARISATION,
            "systems": [
                {
                    "cluster": row.cluster,
                    "system": row.system,
                    "score": round(row.score, 6),
                    "interval": [round(row.interval[0], 6), round(row.interval[1], 6)],
                    "rank_range": list(row.rank_range),
                    "win_rate": round(row.win_rate, 6),
                    "comparisons": row.comparisons,
                }
                for row in self.rows
            ],
            "win_rate_matrix": {
                "systems": [row.system for row in self.rows],
                "rows": [
                    [None if rate is None else round(rate, 6) for rate in line]
                    for line in self.win_rates
                ],
            },
            "agreement": self.agreement.to_dict(),
            "notes": list(self.notes),
        }


def analyse(
    judgements: Sequence[PairwiseJudgement],
    *,
    ties: str = "half",
    runs: int = RUNS,
    seed: int = SEED,
    judges: int | None = None,
) -> PairwiseResult:
    """Win rates, Bradley-Terry scores with bootstrap intervals, rank ranges, clusters and
    agreement (``judges``: the campaign's annotators per pair and item, for completeness)."""
    if ties not in TIES:
        raise ValueError(f"ties {ties!r}: one of {', '.join(TIES)}")
    check_runs(runs)
    counted = [j for j in judgements if ties == "half" or j.winner != "tie"]
    if not counted:
        raise ValueError(
            "no judgement to rank from: the file is empty"
            if not judgements
            else "every judgement is a tie, and --ties drop leaves them out"
        )
    systems = sorted({name for j in counted for name in (j.system_a, j.system_b)})
    index = {name: number for number, name in enumerate(systems)}
    kinds: dict[tuple[int, int, float], int] = defaultdict(int)
    for judgement in counted:
        kinds[index[judgement.system_a], index[judgement.system_b], judgement.share_a] += 1
    first, second, share = (np.array(column) for column in zip(*kinds, strict=True))
    counts = np.array(list(kinds.values()), dtype=float)
    wins = bradley_terry.win_matrix(first, second, share, counts, len(systems))
    _refuse_unconnected(wins, systems)
    scores = bradley_terry.fit(wins)
    notes = _separation_notes(wins, systems, scores)
    resampled = bradley_terry.bootstrap(
        first, second, share, counts, len(systems), runs, np.random.default_rng(seed)
    )
    order = np.argsort(-scores, kind="stable")
    ranks = ranks_per_run(resampled)
    ranges = [rank_range(ranks[:, system]) for system in order]
    low, high = np.quantile(resampled, [0.025, 0.975], axis=0)
    compared = wins + wins.T
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = wins / compared
    rows = tuple(
        SystemScore(
            system=systems[system],
            score=float(scores[system]),
            interval=(float(low[system]), float(high[system])),
            rank_range=ranges[position],
            cluster=cluster,
            win_rate=float(wins[system].sum() / compared[system].sum()),
            comparisons=int(compared[system].sum()),
        )
        for position, (system, cluster) in enumerate(zip(order, clusters(ranges), strict=True))
    )
    matrix = [[None if compared[i, j] == 0 else float(rates[i, j]) for j in order] for i in order]
    return PairwiseResult(
        rows=rows,
        win_rates=matrix,
        agreement=pairwise_agreement(judgements, judges),
        ties=ties,
        runs=runs,
        seed=seed,
        judgements=len(judgements),
        counted=len(counted),
        notes=notes,
    )


def _groups(labels: np.ndarray, systems: list[str], order: Sequence[int]) -> str:
    return "; ".join(
        ", ".join(name for name, label in zip(systems, labels, strict=True) if label == group)
        for group in order
    )


def _refuse_unconnected(wins: np.ndarray, systems: list[str]) -> None:
    """Systems never compared, directly or through others, with the rest have no common scale."""
    csgraph = require("scipy.sparse.csgraph", "human", "Bradley-Terry scores")
    count, labels = csgraph.connected_components(wins + wins.T > 0, directed=False)
    if count > 1:
        raise ValueError(
            f"the judgements fall into {count} groups of systems never compared with each other "
            f"({_groups(labels, systems, range(count))}): no common scale relates them; judge "
            "pairs across the groups"
        )


def _separation_notes(wins: np.ndarray, systems: list[str], scores: np.ndarray) -> tuple[str, ...]:
    """Where the maximum likelihood does not exist: the systems fall into groups (the strongly
    connected parts of "won against or tied with") and a group never lost to another, so the
    unregularised scores between them would go to infinity."""
    csgraph = require("scipy.sparse.csgraph", "human", "Bradley-Terry scores")
    count, labels = csgraph.connected_components(wins > 0, directed=True, connection="strong")
    if count == 1:
        return ()
    best_first = sorted(range(count), key=lambda group: -scores[labels == group].max())
    return (
        f"the maximum likelihood does not exist: the systems fall into {count} groups "
        f"({_groups(labels, systems, best_first)}) where one group never lost to (nor tied "
        f"with) another; the scores between those groups are held finite by the prior "
        f"(regularisation {bradley_terry.REGULARISATION}), not by the judgements",
    )


def pairwise_agreement(
    judgements: Sequence[PairwiseJudgement], judges: int | None = None
) -> Agreement:
    """Nominal alpha: a unit is one pair of systems on one item, its values the annotators'
    verdicts (the first system by name preferred, a tie, the other preferred)."""
    values: dict[tuple[str, str, str], list[tuple[str, float]]] = defaultdict(list)
    for judgement in judgements:
        low, high = sorted((judgement.system_a, judgement.system_b))
        share = judgement.share_a if judgement.system_a == low else 1 - judgement.share_a
        values[judgement.item, low, high].append((judgement.annotator, share))
    return agreement(values, "nominal", judges)
