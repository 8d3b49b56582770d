"""NIST (n <= 4) as the official SR'18 script computed it (NLTK ``corpus_nist``, 2018).

    NIST = sum_{n=1..4} (sum_i info-weighted overlap_n,i / sum_i |h_i|_n) * LP(r, c)
    info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn)) over all references (unigrams: total
    reference words / count);  LP = exp(beta log^2(c/r)) for 0 < c/r < 1, beta = log 0.5/log^2 1.5,
    min(c/r, 1) otherwise

Per item and order the reference with the best (precision, numerator, denominator, length) is
used, as NLTK does; text is lowercased and split on whitespace. Unlike mteval (``NIST`` of the E2E
profile) this is NLTK's reading, which is what the SR'18 tables report.

Citation: Doddington (2002); Mille et al. (2018), SR'18 overview, Sect. 3.1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from scorer import __version__
from scorer.metrics import nltk2018, register
from scorer.metrics.base import WORD_OVERLAP, Metric, Traits
from scorer.references import ReferenceSet, as_reference_set

ORDER = nltk2018.ORDER
BETA = math.log(0.5) / math.log(1.5) ** 2


def length_penalty(ref_length: float, hyp_length: float) -> float:
    ratio = hyp_length / ref_length if ref_length else 0.0
    if 0 < ratio < 1:
        return math.exp(BETA * math.log(ratio) ** 2)
    return max(min(ratio, 1.0), 0.0)


class SR18NIST(Metric):
    name = "NIST"
    traits = Traits(
        group=WORD_OVERLAP,
        glossary="NIST n-gram overlap as SR'18's script computed it (NLTK's corpus NIST).",
        scale="unbounded",
    )
    signature = (
        f"NIST|sr18-eval_Py3|nltk-corpus_nist-2018|n:4|case:lc|tok:whitespace"
        f"|nlgboard:{__version__}"
    )

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        return nltk2018.statistics(hypotheses, as_reference_set(references))[1]

    def score_from_totals(self, totals: np.ndarray) -> float:
        numerators, denominators = totals[:ORDER], totals[ORDER : 2 * ORDER]
        precision = sum(num / den for num, den in zip(numerators, denominators, strict=True) if den)
        return precision * length_penalty(totals[2 * ORDER], totals[2 * ORDER + 1])


@register("NIST-sr18")
def make_sr18_nist() -> SR18NIST:
    return SR18NIST()
