"""NIST (n <= 5) exactly as NIST mteval-v13a computes it, as the E2E challenge reported it.

    NIST = sum_{n=1..5} ( sum_matched info(ngram) / test n-grams ) * LP
    LP   = exp(-beta * log(ratio)^2) if ratio < 1 else 1,  beta = -log(0.5) / log(1.5)^2
    ratio = test words / (reference words / (references / segments))

info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn)) over all references. "references" counts
the non-empty references of each segment (the ``-sig`` script's ``nrefs``), so e2e-metrics' empty
padding slots do not shorten the average reference length.

NLTK's NIST and the E2E script's Python fallback differ here (8.5923 vs mteval's 8.6094 for TGen
on the E2E test set); this follows mteval.

Citation: Doddington (2002), Automatic evaluation of machine translation quality using n-gram
co-occurrence statistics, HLT; NIST mteval-v13a.pl.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from scorer import __version__
from scorer.metrics import register
from scorer.metrics.base import WORD_OVERLAP, Metric, Traits
from scorer.metrics.mteval import INFO, REF_WORDS, REFERENCES, SEGMENTS, TEST_COUNTS, corpus_stats
from scorer.references import ReferenceSet

BETA = -math.log(0.5) / math.log(1.5) ** 2


def length_penalty(ratio: float) -> float:
    if ratio >= 1:
        return 1.0
    if ratio <= 0:
        return 0.0
    return math.exp(-BETA * math.log(ratio) ** 2)


class NIST(Metric):
    name = "NIST"
    traits = Traits(
        group=WORD_OVERLAP,
        glossary=(
            "BLEU-like n-gram overlap in which rarer, more informative n-grams count more "
            "(no upper bound; about 8-9 on E2E)."
        ),
        scale="unbounded",
    )
    signature = f"NIST|mteval-v13a|n:5|case:lc-ascii|tok:13a|refs:nonempty|nlgboard:{__version__}"

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        return corpus_stats(hypotheses, references)

    def score_from_totals(self, totals: np.ndarray) -> float:
        info, counts = totals[INFO], totals[TEST_COUNTS]
        score = sum(info[n] / max(counts[n], 1) for n in range(len(counts)))
        if not totals[REF_WORDS] or not totals[REFERENCES]:
            return 0.0
        average_reference = totals[REF_WORDS] / (totals[REFERENCES] / totals[SEGMENTS])
        return score * length_penalty(counts[0] / average_reference)


@register("NIST")
def make_nist() -> NIST:
    return NIST()
