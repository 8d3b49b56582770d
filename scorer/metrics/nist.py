"""NIST (n <= 5) exactly as NIST mteval-v13a computes it, as the E2E challenge reported it.

    NIST = sum_{n=1..5} ( sum_matched info(ngram) / test n-grams ) * LP
    LP   = exp(-beta * log(ratio)^2) if ratio < 1 else 1,  beta = -log(0.5) / log(1.5)^2
    ratio = test words / (reference words / slots)

info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn)) over all references. "slots" is the number
of reference slots per item after e2e-metrics' empty padding, so the average reference length is
the total reference words divided by the largest number of references of any item.

NLTK's NIST and the E2E script's Python fallback differ here (8.5923 vs mteval's 8.6094 for TGen
on the E2E test set); this follows mteval.

Citation: Doddington (2002), Automatic evaluation of machine translation quality using n-gram
co-occurrence statistics, HLT; NIST mteval-v13a.pl.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from scorer import __version__
from scorer.metrics import register
from scorer.metrics.base import MetricScore
from scorer.metrics.mteval import MAX_ORDER, SegmentStats, corpus_stats, prepared
from scorer.references import ReferenceSet, as_reference_set

BETA = -math.log(0.5) / math.log(1.5) ** 2


def length_penalty(ratio: float) -> float:
    if ratio >= 1:
        return 1.0
    if ratio <= 0:
        return 0.0
    return math.exp(-BETA * math.log(ratio) ** 2)


def nist_from_stats(stats: Sequence[SegmentStats], average_ref_length: float) -> float:
    """Corpus NIST from per-segment statistics and the average reference length per item."""
    score = 0.0
    for n in range(MAX_ORDER):
        total = sum(s.test_counts[n] for s in stats)
        score += sum(s.info[n] for s in stats) / max(total, 1)
    test_words = sum(s.test_counts[0] for s in stats)
    reference_words = average_ref_length * len(stats)
    return score * length_penalty(test_words / reference_words if reference_words else 0.0)


class NIST:
    name = "NIST"
    signature = f"NIST|mteval-v13a|n:5|case:lc-ascii|tok:13a|refs:padded|nlgboard:{__version__}"

    def corpus_score(
        self, hypotheses: Sequence[str], references: ReferenceSet | Sequence[Sequence[str]]
    ) -> MetricScore:
        references = as_reference_set(references)
        stats = corpus_stats(hypotheses, references)
        refs = prepared(references)
        average = refs.total_ref_words / refs.slots / len(references) if len(references) else 0
        return MetricScore(self.name, nist_from_stats(stats, average), self.signature)


@register("NIST")
def make_nist() -> NIST:
    return NIST()
