"""BLEU-4 as the official SR'18 script computed it (NLTK corpus_bleu, smoothing method 2), 0-100.

eval_Py3.py (Bohnet & Mille) lowercases, splits on whitespace and calls NLTK's ``corpus_bleu``
with ``SmoothingFunction().method2``, as NLTK stood in 2018 (3.2.5-3.3):

    p_n = (sum_i clipped_n,i + 1) / (sum_i max(1, |h_i|_n) + 1)    for n = 1..4
    BLEU = BP * exp(sum_n 1/4 log p_n),  BP = 1 if c > r, 0 if c = 0, else exp(1 - r/c)

with r the summed closest reference lengths (ties: the shorter) and, as in NLTK, BLEU = 0 when
no unigram matches. NLTK quirks kept: each item's n-gram denominator is at least 1 even when the
output is shorter than n; method 2 adds 1 to every order, unigrams included (NLTK >= 3.6 no
longer smooths unigrams). SR'18's tables print BLEU x 100.

Citation: Papineni et al. (2002); Lin & Och (2004), ORANGE, COLING (smoothing 2); Mille et al.
(2018), SR'18 overview, Sect. 3.1.
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


class SR18BLEU(Metric):
    name = "BLEU"
    traits = Traits(
        group=WORD_OVERLAP,
        glossary=(
            "Word n-gram overlap (1 to 4) with the reference, x 100, as SR'18's script computed "
            "it (NLTK's corpus BLEU with smoothing 2, lowercased)."
        ),
        scale="0-100",
    )
    signature = (
        f"BLEU|sr18-eval_Py3|nltk-corpus_bleu-2018|n:4|smooth:method2|case:lc|tok:whitespace"
        f"|scale:0-100|nlgboard:{__version__}"
    )

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        return nltk2018.statistics(hypotheses, as_reference_set(references))[0]

    def score_from_totals(self, totals: np.ndarray) -> float:
        numerators, denominators = totals[:ORDER], totals[ORDER : 2 * ORDER]
        hyp_length, ref_length = totals[2 * ORDER], totals[2 * ORDER + 1]
        if numerators[0] == 0:
            return 0.0
        if hyp_length > ref_length:
            brevity = 1.0
        elif hyp_length == 0:
            brevity = 0.0
        else:
            brevity = math.exp(1 - ref_length / hyp_length)
        log_sum = math.fsum(
            0.25 * math.log((num + 1) / (den + 1))
            for num, den in zip(numerators, denominators, strict=True)
        )
        return 100.0 * brevity * math.exp(log_sum)


@register("BLEU-sr18")
def make_sr18_bleu() -> SR18BLEU:
    return SR18BLEU()
