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
from collections import Counter
from dataclasses import dataclass

import numpy as np

from scorer import __version__
from scorer.metrics import register
from scorer.metrics.base import Metric
from scorer.references import PreparedCache, ReferenceSet

ORDER = 4
BETA = math.log(0.5) / math.log(1.5) ** 2


def _ngrams(words: list[str], n: int) -> Counter:
    return Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))


@dataclass(frozen=True)
class PreparedNist:
    references: list[list[list[str]]]
    info: dict[tuple[str, ...], float]


def prepare(references: ReferenceSet) -> PreparedNist:
    tokenised = [[ref.lower().split() for ref in refs] for refs in references]
    frequency: Counter = Counter()
    total_words = 0
    for refs in tokenised:
        for ref in refs:
            for n in range(1, ORDER + 1):
                frequency.update(_ngrams(ref, n))
            total_words += len(ref)
    info = {}
    for ngram, count in frequency.items():
        context = ngram[:-1]
        numerator = frequency[context] if context and context in frequency else total_words
        info[ngram] = math.log(numerator / count, 2)  # noqa: FURB163 -- as NLTK rounds it
    return PreparedNist(tokenised, info)


_CACHE = PreparedCache()


def length_penalty(ref_length: float, hyp_length: float) -> float:
    ratio = hyp_length / ref_length if ref_length else 0.0
    if 0 < ratio < 1:
        return math.exp(BETA * math.log(ratio) ** 2)
    return max(min(ratio, 1.0), 0.0)


class SR18NIST(Metric):
    name = "NIST"
    signature = (
        f"NIST|sr18-eval_Py3|nltk-corpus_nist-2018|n:4|case:lc|tok:whitespace"
        f"|nlgboard:{__version__}"
    )

    def segment_statistics(self, hypotheses, references: ReferenceSet) -> np.ndarray:
        prepared = _CACHE.get(references, prepare)
        rows = []
        for hypothesis, refs in zip(hypotheses, prepared.references):
            hyp = hypothesis.lower().split()
            numerators, denominators, ref_lengths = [], [], 0
            for n in range(1, ORDER + 1):
                hyp_counts = _ngrams(hyp, n)
                candidates = []
                for ref in refs:
                    overlap = hyp_counts & _ngrams(ref, n)
                    numerator = sum(prepared.info[g] * c for g, c in overlap.items())
                    denominator = sum(hyp_counts.values())
                    precision = numerator / denominator if denominator else 0
                    candidates.append((precision, numerator, denominator, len(ref)))
                _, numerator, denominator, ref_length = max(candidates)
                numerators.append(numerator)
                denominators.append(denominator)
                ref_lengths += ref_length
            rows.append([*numerators, *denominators, ref_lengths, ORDER * len(hyp)])
        return np.asarray(rows, dtype=float).reshape(len(rows), 2 * ORDER + 2)

    def score_from_totals(self, totals: np.ndarray) -> float:
        numerators, denominators = totals[:ORDER], totals[ORDER : 2 * ORDER]
        precision = sum(num / den for num, den in zip(numerators, denominators) if den)
        return precision * length_penalty(totals[2 * ORDER], totals[2 * ORDER + 1])


@register("NIST-sr18")
def make_sr18_nist() -> SR18NIST:
    return SR18NIST()
