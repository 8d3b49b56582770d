"""CIDEr's per-item scores (one matrix operation per item) against cider_scorer.py's loops
written out plainly, on generated items: repeated words, empty outputs, n-grams no reference
has, single and many references."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from scorer.metrics import get_metric
from scorer.metrics.cider import ORDER, SIGMA
from scorer.metrics.mteval import ngram_counts
from scorer.references import ReferenceSet
from scorer.tokenizers.ptb import ptb_tokenize, ptb_tokenize_references

WORDS = [
    "the",
    "a",
    "golden",
    "palace",
    "is",
    "serves",
    "cheap",
    "food",
    "near",
    "river",
    "family",
    "friendly",
    "not",
]


def plain_cider(hypotheses: list[str], references: ReferenceSet) -> list[float]:
    """cider_scorer.py's compute_doc_freq, counts2vec, sim and compute_cider, loop by loop."""
    refs = [
        [ngram_counts(t.split(), ORDER) for t in item]
        for item in ptb_tokenize_references(references)
    ]
    df: Counter = Counter()
    for item in refs:
        df.update({ngram for counts in item for ngram in counts})
    log_items = math.log(float(len(refs)))

    def vector(counts: Counter) -> tuple[list[dict], list[float], int]:
        vec: list[dict] = [{} for _ in range(ORDER)]
        norm, length = [0.0] * ORDER, 0
        for ngram, tf in counts.items():
            n = len(ngram) - 1
            vec[n][ngram] = tf * (log_items - math.log(max(1.0, df[ngram])))
            norm[n] += vec[n][ngram] ** 2
            length += tf if n == 1 else 0
        return vec, [math.sqrt(x) for x in norm], length

    scores = []
    for text, item in zip(ptb_tokenize(hypotheses), refs, strict=True):
        hyp = vector(ngram_counts(text.split(), ORDER))
        total = 0.0
        for ref in map(vector, item):
            penalty = math.e ** (-((hyp[2] - ref[2]) ** 2) / (2 * SIGMA**2))
            for n in range(ORDER):
                value = sum(min(w, ref[0][n].get(g, 0.0)) * ref[0][n].get(g, 0.0)
                            for g, w in hyp[0][n].items())  # fmt: skip
                if hyp[1][n] and ref[1][n]:
                    value /= hyp[1][n] * ref[1][n]
                total += value * penalty
        scores.append(total / ORDER / len(item) * 10.0)
    return scores


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 14)))


@pytest.mark.parametrize("seed", range(20))
def test_per_item_scores_equal_the_plain_loops(seed):
    rng = random.Random(seed)
    items = [[sentence(rng) or "palace" for _ in range(rng.randint(1, 8))] for _ in range(40)]
    hypotheses = [
        rng.choice([sentence(rng), rng.choice(item), "unseen words only"]) for item in items
    ]
    references = ReferenceSet(items)
    ours = get_metric("CIDEr").segment_scores(hypotheses, references)
    assert ours == pytest.approx(plain_cider(hypotheses, references), rel=1e-12, abs=1e-12)
