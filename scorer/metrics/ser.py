"""Slot error rate and the output categories of E2E Table 12, as corpus metrics.

The per-item statistics row holds the slot count, the error counts by kind and a one-hot output
category, so SER (= errors / slots, in %) and the category shares (% of outputs) are all sums,
resampled by the bootstrap like any other metric. Needs the test inputs (the MRs) on the
reference set. See ``scorer.semantics.e2e_slots`` for the slot-error script's patterns and rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import numpy as np

from scorer import __version__
from scorer.errors import InputError
from scorer.metrics import register
from scorer.metrics.base import SEMANTIC, Metric, Traits
from scorer.references import LastResult, ReferenceSet
from scorer.semantics.e2e_slots import SlotCheck, check_output

KINDS = ("missed", "added", "wrong", "repeated")
CATEGORIES = ("OK", "A", "M", "A+M")
SIGNATURE = (
    "e2e-slot-error-script|sets per slot|repeat:rating-low|ratings:v2|text:as-read"
    f"|nlgboard:{__version__}"
)
"""``text:as-read``: the outputs as the file has them, not as the profile normalises them for
the other metrics (the script reads the file itself: "less than  £20", two spaces, is no
price for it); scores without it were computed on whitespace collapsed first (dev LOO: 11.35
where the script gives 11.47).
``ratings:v2``: the script's rating rules in full (a rating phrase running on into its number,
"well rated" never 5 out of 5, "not ... good" at most two words apart); scores without it came
from a scorer that differed from the script on 18 of its 47,280 outputs."""

SHARES = {
    "OK": "Share of outputs that realise their MR exactly: nothing missed, added or wrong.",
    "A": (
        "Share of outputs that add something (a slot or value not in the MR, a repeated low "
        "rating) and miss nothing."
    ),
    "M": "Share of outputs that miss something of their MR and add nothing.",
    "A+M": (
        "Share of outputs that both add and miss something (a wrong value is both: its value "
        "is missed, another added)."
    ),
}
"""What each Table 12 category's share means, for the glossary."""

_LAST = LastResult()
_ROWS = LastResult()


def slot_checks(hypotheses: Sequence[str], references: ReferenceSet) -> list[SlotCheck]:
    """Every output's check against its MR; the last result is kept for the sibling metrics."""
    mrs = references.inputs
    if mrs is None:
        raise InputError("the slot error rate needs the test inputs (MRs) beside the references")
    return _LAST.get(hypotheses, references, lambda outputs: _check_all(mrs, outputs))


def _check_all(mrs: Sequence[str], outputs: Sequence[str]) -> list[SlotCheck]:
    checks = []
    for index, (mr, output) in enumerate(zip(mrs, outputs, strict=True)):
        try:
            checks.append(check_output(mr, output))
        except ValueError as error:
            raise InputError(f"test item {index + 1}: {error}") from None
    return checks


class SlotErrorStatistics(Metric):
    needs_inputs = True
    reads_as_read = True

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        """The same rows for SER and the four category shares: made once for the five."""
        rows = _ROWS.get(
            hypotheses, references, lambda _: _rows(slot_checks(hypotheses, references))
        )
        return rows.copy()


def _rows(checks: Sequence[SlotCheck]) -> np.ndarray:
    rows = []
    for check in checks:
        kinds = [sum(e.kind == kind for e in check.errors) for kind in KINDS]
        category = check.category
        rows.append([check.slots, *kinds, *(category == c for c in CATEGORIES)])
    return np.asarray(rows, dtype=float).reshape(len(rows), 1 + len(KINDS) + len(CATEGORIES))


class SER(SlotErrorStatistics):
    name = "SER"
    signature = f"SER|{SIGNATURE}|scale:%"
    traits = Traits(
        group=SEMANTIC,
        glossary=(
            "Slot error rate: slot values of the input MR that the output misses, adds, gets "
            "wrong or repeats, per slot of the MRs, in % (as the E2E slot-error script counts "
            "them)."
        ),
        higher_is_better=False,
        scale="%",
    )

    def score_from_totals(self, totals: np.ndarray) -> float:
        return 100.0 * totals[1 : 1 + len(KINDS)].sum() / totals[0] if totals[0] else 0.0


class CategoryShare(SlotErrorStatistics):
    """% of outputs in one Table 12 category."""

    def __init__(self, category: str):
        self.category = category
        self.name = f"{category}%"
        self.signature = f"{self.name}|{SIGNATURE}|scale:% of outputs"
        self.traits = Traits(
            group=SEMANTIC, glossary=SHARES[category], higher_is_better=category == "OK", scale="%"
        )

    def score_from_totals(self, totals: np.ndarray) -> float:
        outputs = totals[1 + len(KINDS) :].sum()
        index = 1 + len(KINDS) + CATEGORIES.index(self.category)
        return 100.0 * totals[index] / outputs if outputs else 0.0


register("SER")(SER)
register("OK%")(partial(CategoryShare, "OK"))
register("A%")(partial(CategoryShare, "A"))
register("M%")(partial(CategoryShare, "M"))
register("A+M%")(partial(CategoryShare, "A+M"))
