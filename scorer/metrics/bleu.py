"""BLEU-4 exactly as NIST mteval-v13a computes it (what the E2E challenge reported), 0-1 scale.

    BLEU = BP * exp( (1/4) * sum_{n=1..4} log p_n ),   BP = exp(min(0, 1 - r / c))

p_n = clipped n-gram matches / test n-grams, summed over the corpus; r = sum of closest reference
lengths; c = test length. mteval's smoothing: when an order has no match, p_n = 1 / (2^k * t_n)
where k counts the orders without matches so far. Tokenisation and reference layout: see
``scorer.metrics.mteval``.

Citation: Papineni, Roukos, Ward & Zhu (2002), BLEU: a method for automatic evaluation of
machine translation, ACL; NIST mteval-v13a.pl.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from scorer import __version__
from scorer.metrics import register
from scorer.metrics.base import WORD_OVERLAP, Metric, Traits
from scorer.metrics.mteval import CLOSEST_REF_LENGTH, MATCHES, TEST_COUNTS, corpus_stats
from scorer.references import ReferenceSet

ORDER = 4


def bleu_from_totals(
    matches: Sequence[float] | np.ndarray, totals: Sequence[float] | np.ndarray, ref_length: float
) -> float:
    if totals[0] == 0:
        return 0.0
    log_bp = min(0.0, 1.0 - ref_length / totals[0])
    smooth = 1.0
    log_sum = 0.0
    for n in range(ORDER):
        if totals[n] == 0:
            continue
        if matches[n] == 0:
            smooth *= 2
            log_sum += math.log(1.0 / (smooth * totals[n]))
        else:
            log_sum += math.log(matches[n] / totals[n])
    return math.exp(log_sum / ORDER) * math.exp(log_bp)


class BLEU(Metric):
    name = "BLEU"
    traits = Traits(
        group=WORD_OVERLAP,
        glossary="Word n-gram overlap (1 to 4) with the references: the geometric mean of the n-gram "
        "precisions times a penalty for outputs shorter than the references.",
    )
    signature = f"BLEU|mteval-v13a|n:4|case:lc-ascii|tok:13a|refs:nonempty|smooth:mteval|nlgboard:{__version__}"

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        return corpus_stats(hypotheses, references)

    def score_from_totals(self, totals: np.ndarray) -> float:
        return bleu_from_totals(totals[MATCHES], totals[TEST_COUNTS], totals[CLOSEST_REF_LENGTH])


@register("BLEU")
def make_bleu() -> BLEU:
    return BLEU()
