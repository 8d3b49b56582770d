"""Likert ratings: each judge picks a point of a criterion's scale for an output.

A criterion has a scale, whole numbers ``LOW-HIGH`` (1-3, 1-5, 1-7) or named points given in
order (``bad,fair,good``, valued 1, 2, 3, which a file may also write), and a direction: higher
points are better unless the campaign says lower. A judgement off the scale is refused with its
line; without a scale, the lowest to the highest point the criterion's judgements give.

* an output's score is the mean of its judges' points, or their median where the campaign says
  so (``aggregate``);
* a system's score is the mean of its outputs' scores: each output weighs the same however many
  judges it had (WebNLG 2017's human evaluation rated semantics, grammar and fluency on 1-3, about
  three judges an output); ``n`` counts outputs, ``judgements`` the points behind them;
* where judgements carry a subset (seen / unseen categories, a challenge set), the same mean over
  the outputs of each subset; and where the items carry attributes (WebNLG 2017's ``type``,
  ``category`` and ``triplesize``: an item's ``{attribute: value}``), the same mean over the
  outputs of each value of each attribute (``by``), several breakdowns from one reading;
* systems best first; each pair compared by the one-sided Wilcoxon rank-sum test over output
  scores (p[a, b]: a's outputs better than b's, the table a heatmap draws), and grouped into
  significance clusters by the procedure the campaign names over the output scores
  (``scorer.human.clusters``: ``wmt`` or ``webnlg2020``). Where lower is better the tests see
  each score mirrored on the scale (LOW + HIGH - score), so "better" stays "higher" and an
  output a system lacks, which ``webnlg2020`` counts as 0 (below every point of a scale from
  1), means the same whichever the direction.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from scorer.errors import InputError
from scorer.human import clusters as cluster_procedures
from scorer.human.judgements import Judgement

AGGREGATES: dict[str, Callable[[Sequence[float]], float]] = {
    "mean": statistics.fmean,
    "median": statistics.median,
}
"""How an output's judges are combined into its score."""
DIRECTIONS = ("higher", "lower")
ItemAttributes = Mapping[str, Mapping[str, str]]
"""item -> {attribute: value}; an empty value leaves the item out of that attribute's means."""
_RANGE = re.compile(r"^\s*(-?\d+)\s*-\s*(-?\d+)\s*$")


@dataclass(frozen=True)
class Scale:
    """The points a judge picks from: whole numbers ``low``..``high``, or ``names`` valued
    1..k in the order given."""

    low: int
    high: int
    names: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Scale:
        """``1-5`` (any LOW-HIGH, LOW < HIGH) or named points, comma-separated, lowest first."""
        if match := _RANGE.match(text):
            low, high = int(match[1]), int(match[2])
            if low < high:
                return cls(low, high)
        names = tuple(name.strip() for name in text.split(","))
        distinct = len(set(names)) == len(names) >= 2
        if distinct and all(name and _number(name) is None for name in names):
            return cls(1, len(names), names)
        raise ValueError(
            f"scale {text!r}: give LOW-HIGH (e.g. 1-5) or two or more distinct named points, "
            "comma-separated, lowest first (e.g. bad,fair,good)"
        )

    @classmethod
    def of(cls, judgements: Iterable[Judgement]) -> Scale:
        """The lowest to the highest point the judgements give (a scale read from the data)."""
        values = [j.score for j in judgements]
        return cls(int(min(values)), int(max(values)))

    def read(self, text: str) -> float:
        """A score cell: one of the names, or a number (checked against the scale later, per
        criterion: a file may hold several criteria on several scales)."""
        if text.strip() in self.names:
            return float(self.names.index(text.strip()) + 1)
        return read_number(text)

    def holds(self, value: float) -> bool:
        return value.is_integer() and self.low <= value <= self.high

    def mirrored(self, value: float) -> float:
        return self.low + self.high - value

    def __str__(self) -> str:
        return ",".join(self.names) if self.names else f"{self.low}-{self.high}"


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def read_number(text: str) -> float:
    """A score cell of a scale given by numbers; a name is refused, saying how to give names."""
    value = _number(text)
    if value is None:
        raise ValueError(
            f"score {text!r} is not a number; name the scale's points in order with --scale "
            "(e.g. --scale bad,fair,good)"
        )
    return value


@dataclass(frozen=True)
class SubsetScore:
    mean: float
    n: int


@dataclass(frozen=True)
class SystemScore:
    system: str
    mean: float
    n: int
    judgements: int
    subsets: dict[str, SubsetScore]
    by: dict[str, dict[str, SubsetScore]] | None = None
    """attribute -> value -> the mean over the outputs of items with that value; None where
    the analysis was given no attributes (its dictionary then has no ``by``, as before them)."""

    def to_dict(self) -> dict:
        row = {
            "system": self.system,
            "mean": self.mean,
            "n": self.n,
            "judgements": self.judgements,
            "subsets": {name: score.__dict__ for name, score in self.subsets.items()},
        }
        if self.by is not None:
            row["by"] = {
                attribute: {value: score.__dict__ for value, score in values.items()}
                for attribute, values in self.by.items()
            }
        return row


@dataclass(frozen=True)
class Likert:
    criterion: str
    scale: Scale
    scale_from_data: bool
    higher_is_better: bool
    aggregate: str
    systems: tuple[SystemScore, ...]
    #: p-value of "row system's outputs are better than column system's", table order.
    p_values: np.ndarray
    clusters: tuple[int, ...]
    cluster_procedure: str

    def to_dict(self) -> dict:
        names = [row.system for row in self.systems]
        return {
            "criterion": self.criterion,
            "scale": str(self.scale),
            "scale_from": "data" if self.scale_from_data else "given",
            "direction": "higher" if self.higher_is_better else "lower",
            "aggregate": self.aggregate,
            "clusters": self.cluster_procedure,
            "systems": [
                {**row.to_dict(), "cluster": cluster}
                for row, cluster in zip(self.systems, self.clusters, strict=True)
            ],
            "wilcoxon": {
                row: {
                    column: float(self.p_values[i, j]) for j, column in enumerate(names) if i != j
                }
                for i, row in enumerate(names)
            },
        }


def analyse(
    judgements: Sequence[Judgement],
    criterion: str,
    scale: Scale | None = None,
    *,
    higher_is_better: bool = True,
    aggregate: str = "mean",
    clusters: str = cluster_procedures.DEFAULT,
    filename: str | None = None,
    attributes: ItemAttributes | None = None,
) -> Likert:
    """The module docstring's table for ``criterion``; without ``scale``, the scale is read
    from its judgements. A judgement off the scale is refused, naming ``filename`` and its line.
    With ``attributes`` (item -> {attribute: value}), each row also has its means ``by`` them,
    attributes in their first-seen order."""
    procedure = cluster_procedures.over_outputs(clusters)
    if aggregate not in AGGREGATES:
        raise ValueError(f"aggregate {aggregate!r}: choose one of {', '.join(AGGREGATES)}")
    chosen = [j for j in judgements if j.criterion == criterion]
    if not chosen:
        available = ", ".join(sorted({j.criterion for j in judgements})) or "none"
        raise InputError(
            f"no judgements for criterion {criterion!r} (criteria: {available})", filename=filename
        )
    whole = next((j for j in chosen if not j.score.is_integer()), None)
    if whole is not None:
        raise InputError(
            f"score {whole.score:g} is not a point of a Likert scale (a whole number)",
            filename=filename,
            line=whole.line or None,
        )
    used = scale or Scale.of(chosen)
    off = next((j for j in chosen if not used.holds(j.score)), None)
    if off is not None:
        raise InputError(
            f"score {off.score:g} is off the scale {used} of {criterion}",
            filename=filename,
            line=off.line or None,
        )
    points: dict[str, dict[tuple[str, str], list[float]]] = defaultdict(lambda: defaultdict(list))
    for judgement in chosen:
        points[judgement.system][(judgement.subset, judgement.item)].append(judgement.score)
    combine = AGGREGATES[aggregate]
    outputs = {
        system: {key: float(combine(values)) for key, values in items.items()}
        for system, items in points.items()
    }
    sign = 1 if higher_is_better else -1
    rows = sorted(
        (_system_score(system, outputs[system], points[system], attributes) for system in outputs),
        key=lambda row: (-sign * row.mean, row.system),
    )
    oriented = [
        {key: score if higher_is_better else used.mirrored(score) for key, score in scores.items()}
        for scores in (outputs[row.system] for row in rows)
    ]
    return Likert(
        criterion=criterion,
        scale=used,
        scale_from_data=scale is None,
        higher_is_better=higher_is_better,
        aggregate=aggregate,
        systems=tuple(rows),
        p_values=cluster_procedures.WMT.p_values(oriented),
        clusters=tuple(procedure.clusters(oriented)),
        cluster_procedure=procedure.name,
    )


def _system_score(
    system: str,
    outputs: dict[tuple[str, str], float],
    points: dict[tuple[str, str], list[float]],
    attributes: ItemAttributes | None,
) -> SystemScore:
    by_subset = ((subset, score) for (subset, _), score in outputs.items())
    return SystemScore(
        system=system,
        mean=statistics.fmean(outputs.values()),
        n=len(outputs),
        judgements=sum(len(values) for values in points.values()),
        subsets=_means_by(by_subset, key=str),
        by=None if attributes is None else _means_by_attribute(outputs, attributes),
    )


def _means_by_attribute(
    outputs: dict[tuple[str, str], float], attributes: ItemAttributes
) -> dict[str, dict[str, SubsetScore]]:
    """Each attribute's means, the attributes in the order the items first name them, the
    values in numeric order where they are numbers (triple sizes 1..7, not 1, 10, 2); only
    the attributes the judged items have."""
    judged = dict.fromkeys(item for _, item in outputs)
    names = dict.fromkeys(name for item in judged for name in attributes.get(item, {}))
    return {name: _means_by(_valued(outputs, attributes, name), key=value_order) for name in names}


def _valued(
    outputs: dict[tuple[str, str], float], attributes: ItemAttributes, name: str
) -> list[tuple[str, float]]:
    """(the item's value of attribute ``name``, the output's score) of every output."""
    return [(attributes.get(item, {}).get(name, ""), score) for (_, item), score in outputs.items()]


def _means_by(
    grouped: Iterable[tuple[str, float]], key: Callable[[str], Any]
) -> dict[str, SubsetScore]:
    """The mean over the outputs of each group, groups in ``key`` order; an empty group name
    (no subset, no value) is no group."""
    scores: dict[str, list[float]] = defaultdict(list)
    for name, score in grouped:
        if name:
            scores[name].append(score)
    return {
        name: SubsetScore(statistics.fmean(scores[name]), len(scores[name]))
        for name in sorted(scores, key=key)
    }


def value_order(name: str) -> tuple[bool, float, str]:
    """Sort key of an attribute's values: numbers first, by value, then the rest by text."""
    value = _number(name)
    return (value is None, value or 0.0, name)
