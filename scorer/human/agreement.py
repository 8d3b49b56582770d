"""Agreement between annotators: Krippendorff's alpha at a named level of measurement.

Data: *units* (what was judged: one system's output for one item under one criterion; one pair
of outputs for a pairwise preference), each with the values the annotators (the *coders*) gave
it; any annotator may have left any unit out. Only *pairable* units, those with two values or
more, carry information about agreement.

Alpha compares the disagreement observed within units with the disagreement expected if the
same values had been paired at random across units:

    alpha = 1 - D_o / D_e = 1 - (n - 1) * sum_ck o_ck d_ck / sum_ck n_c n_k d_ck

* o_ck (the coincidence matrix) counts, over units, the ordered pairs of values (c, k) drawn
  from two different judgements of one unit, each pair weighted 1 / (m_u - 1) for a unit with
  m_u values, so that every pairable value counts once; n_c = sum_k o_ck is how often value c
  was given in pairable units, n = sum_c n_c;
* d_ck, the squared difference of the level of measurement: ``nominal`` 0 for equal values,
  1 otherwise (for pairwise preferences: a preferred, b preferred or a tie); ``ordinal`` the
  values' ranks as counted in the data, (n_c + ... + n_k - (n_c + n_k) / 2)^2 over the values
  from c to k in order; ``interval`` (c - k)^2 (Direct Assessment and Likert scores).

For the interval level the sums need no matrix: the ordered pairs within a unit add up to
2 m_u SS_u (SS_u the sum of squared deviations from the unit's mean), and those of all pairable
values to 2 n SS, so D_o and D_e are computed from sums of squares, for any number of distinct
scores. Alpha is 1 for perfect agreement and 0 for agreement at chance level; it is undefined
(``None``, with the reason in ``note``) without a pairable unit, or when every pairable value is
the same (D_e = 0: nothing to disagree about).

Several values from one annotator in one unit count as several values, as the coincidence
matrix is defined on values: the convenience functions below keep quality-control judgements
(repeats, damaged copies, references) out, so that the values of a unit are the annotators'.

*Complete* is a unit judged by the campaign's number of annotators (``judges``: given by the
campaign, or when not given, the most distinct annotators any unit had); ``complete_share`` is
the share of units that are. Units judged by fewer count in alpha as long as they are pairable.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from scorer.human.judgements import Judgement

LEVELS = ("nominal", "ordinal", "interval")
Unit = TypeVar("Unit", bound=Hashable)
Annotator = TypeVar("Annotator", bound=Hashable)


@dataclass(frozen=True)
class Agreement:
    """Krippendorff's alpha with its level, what it was computed on, and why it is missing."""

    krippendorff_alpha: float | None
    level: str
    units: int
    """Units with at least one value."""
    pairable_units: int
    """Units with two values or more: the ones alpha is computed from."""
    complete_share: float
    """Share of units judged by ``judges`` distinct annotators."""
    judges: int
    note: str | None = None
    """Why alpha is undefined, when it is."""

    def to_dict(self) -> dict[str, object]:
        value = self.krippendorff_alpha
        return {
            "krippendorff_alpha": None if value is None else round(value, 6),
            "level": self.level,
            "units": self.units,
            "pairable_units": self.pairable_units,
            "complete_share": round(self.complete_share, 6),
            "judges": self.judges,
            "note": self.note,
        }


def alpha(units: Sequence[Sequence[float]], level: str) -> tuple[float | None, str | None]:
    """Krippendorff's alpha of the values per unit at ``level``, or None and the reason."""
    if level not in LEVELS:
        raise ValueError(f"level of measurement {level!r}: one of {', '.join(LEVELS)}")
    pairable = [np.asarray(values, dtype=float) for values in units if len(values) >= 2]
    if not pairable:
        return None, "no unit was judged by two annotators or more: nothing to compare"
    if level == "interval":
        observed, expected, n = _interval_sums(pairable)
    else:
        observed, expected, n = _coincidence_sums(pairable, level)
    if expected == 0:
        return None, (
            "every judgement of the units judged twice or more has the same value: "
            "agreement is undefined without variation"
        )
    return 1 - (n - 1) * observed / expected, None


def _interval_sums(units: list[np.ndarray]) -> tuple[float, float, int]:
    """sum o_ck (c - k)^2 and sum n_c n_k (c - k)^2 from sums of squares, and n."""
    observed = 0.0
    for values in units:
        deviations = values - values.mean()
        observed += 2 * len(values) * float(deviations @ deviations) / (len(values) - 1)
    everything = np.concatenate(units)
    deviations = everything - everything.mean()
    return observed, 2 * len(everything) * float(deviations @ deviations), len(everything)


def _coincidence_sums(units: list[np.ndarray], level: str) -> tuple[float, float, int]:
    """sum o_ck d_ck and sum n_c n_k d_ck from the coincidence matrix of the distinct values."""
    everything = np.concatenate(units)
    distinct, codes = np.unique(everything, return_inverse=True)
    sizes = np.array([len(values) for values in units])
    unit_of = np.repeat(np.arange(len(units)), sizes)
    counts = np.zeros((len(units), len(distinct)))
    np.add.at(counts, (unit_of, codes), 1)
    weights = 1 / (sizes - 1)
    coincidences = (counts * weights[:, None]).T @ counts - np.diag(weights @ counts)
    totals = coincidences.sum(axis=1)
    if level == "nominal":
        distance = 1 - np.eye(len(distinct))
    else:
        below = np.cumsum(totals) - totals / 2  # the values' mid-ranks among pairable values
        distance = (below[:, None] - below[None, :]) ** 2
    observed = float((coincidences * distance).sum())
    expected = float(totals @ distance @ totals)
    return observed, expected, len(everything)


def agreement(
    values: Mapping[Unit, Iterable[tuple[Annotator, float]]],
    level: str,
    judges: int | None = None,
) -> Agreement:
    """Alpha and completeness of ``values``: unit -> (annotator, value) pairs."""
    per_unit = {unit: list(pairs) for unit, pairs in values.items()}
    per_unit = {unit: pairs for unit, pairs in per_unit.items() if pairs}
    annotators = [len({annotator for annotator, _ in pairs}) for pairs in per_unit.values()]
    if judges is not None and judges < 1:
        raise ValueError(f"judges {judges}: a unit is judged by one annotator or more")
    wanted = judges if judges is not None else max(annotators, default=0)
    value, note = alpha([[v for _, v in pairs] for pairs in per_unit.values()], level)
    complete = sum(count >= wanted for count in annotators)
    return Agreement(
        krippendorff_alpha=value,
        level=level,
        units=len(per_unit),
        pairable_units=sum(len(pairs) >= 2 for pairs in per_unit.values()),
        complete_share=complete / len(per_unit) if per_unit else 0.0,
        judges=wanted,
        note=note,
    )


def of_reliability_data(data: np.ndarray, level: str, judges: int | None = None) -> Agreement:
    """Alpha of a coders x units matrix, NaN where a coder left a unit out (Krippendorff's
    *reliability data* layout)."""
    matrix = np.asarray(data, dtype=float)
    values = {
        unit: [(int(coder), float(column[coder])) for coder in np.flatnonzero(~np.isnan(column))]
        for unit, column in enumerate(matrix.T)
    }
    return agreement(values, level, judges)


def of_judgements(
    judgements: Iterable[Judgement],
    level: str = "interval",
    criterion: str | None = None,
    judges: int | None = None,
) -> Agreement:
    """Alpha of scores (Direct Assessment, Likert): a unit is one system's output for one item
    under one criterion; quality-control judgements (``kind`` other than genuine) are left out."""
    values: dict[tuple[str, str, str], list[tuple[str, float]]] = defaultdict(list)
    for judgement in judgements:
        if judgement.kind != "genuine":
            continue
        if criterion is not None and judgement.criterion != criterion:
            continue
        unit = (judgement.item, judgement.label, judgement.criterion)
        values[unit].append((judgement.annotator, judgement.score))
    return agreement(values, level, judges)
