"""CIDEr (the COCO caption code's CIDEr-D) as the E2E challenge reported it.

For n = 1..4, each sentence is a TF-IDF vector g_n over its n-grams, with document frequencies
taken over the *references of the evaluated set* and IDF = log(N) - log(max(1, df)), N = number of
items. Per item with references r_j:

    CIDEr_n = 1/m sum_j  <min(g_n(c), g_n(r_j)), g_n(r_j)> / (|g_n(c)| |g_n(r_j)|)
                          * exp(-(l_c - l_rj)^2 / (2 sigma^2)),  sigma = 6
    CIDEr   = 10 * mean_n CIDEr_n,   corpus score = mean over items

Faithful to cider_scorer.py, including its quirk that the "length" l in the Gaussian penalty is
the sentence's number of *bigrams*. Inputs are PTB-tokenised as in COCO. Reference vectors depend
only on the references, so they are built once per test set and reused.

Citation: Vedantam, Zitnick & Parikh (2015), CIDEr: Consensus-based image description
evaluation, CVPR; Chen et al. (2015), Microsoft COCO Captions.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from scorer import __version__
from scorer.cache import kept
from scorer.java import implementation
from scorer.metrics import register
from scorer.metrics.base import WORD_OVERLAP, MeanOfSegments, Traits
from scorer.metrics.mteval import ngram_counts
from scorer.references import PreparedCache, ReferenceSet
from scorer.tokenizers.ptb import ptb_tokenize, ptb_tokenize_references

ORDER = 4
SIGMA = 6.0

Vector = tuple[list[dict[tuple[str, ...], float]], list[float], int]


@dataclass(frozen=True)
class PreparedCider:
    document_frequency: Counter
    log_items: float
    reference_vectors: list[list[Vector]]


def _vector(counts: Counter, prepared_df: Counter, log_items: float) -> Vector:
    vec: list[dict[tuple[str, ...], float]] = [{} for _ in range(ORDER)]
    norm = [0.0] * ORDER
    length = 0
    for ngram, term_freq in counts.items():
        n = len(ngram) - 1
        df = math.log(max(1.0, prepared_df[ngram]))
        value = term_freq * (log_items - df)
        vec[n][ngram] = value
        norm[n] += value * value
        if n == 1:
            length += term_freq
    return vec, [math.sqrt(x) for x in norm], length


def _similarity(hyp: Vector, ref: Vector) -> list[float]:
    vec_hyp, norm_hyp, length_hyp = hyp
    vec_ref, norm_ref, length_ref = ref
    delta = float(length_hyp - length_ref)
    penalty = math.e ** (-(delta**2) / (2 * SIGMA**2))
    values = []
    for n in range(ORDER):
        ref_n = vec_ref[n]
        value = 0.0
        for ngram, weight in vec_hyp[n].items():
            ref_weight = ref_n.get(ngram, 0.0)
            value += min(weight, ref_weight) * ref_weight
        if norm_hyp[n] != 0 and norm_ref[n] != 0:
            value /= norm_hyp[n] * norm_ref[n]
        values.append(value * penalty)
    return values


def prepare(references: ReferenceSet) -> PreparedCider:
    counts = [
        [ngram_counts(text.split(), ORDER) for text in item]
        for item in ptb_tokenize_references(references)
    ]
    df: Counter = Counter()
    for item_counts in counts:
        df.update({ngram for ref in item_counts for ngram in ref})
    log_items = math.log(float(len(references)))
    vectors = [[_vector(ref, df, log_items) for ref in item] for item in counts]
    return PreparedCider(df, log_items, vectors)


def _kept(references: ReferenceSet) -> PreparedCider:
    """``prepare``, kept between processes (a cold ``nlg-score`` on a test set seen before)."""
    return kept(
        "cider",
        f"{references.digest}|{implementation.current()}",
        lambda: prepare(references),
        lambda cider: (dict(cider.document_frequency), cider.log_items, cider.reference_vectors),
        lambda fields: PreparedCider(Counter(fields[0]), fields[1], fields[2]),
    )


_CACHE = PreparedCache()


class CIDEr(MeanOfSegments):
    name = "CIDEr"
    traits = Traits(
        group=WORD_OVERLAP,
        glossary=(
            "TF-IDF weighted n-gram similarity (1 to 4) with the references (COCO's CIDEr-D, 0 "
            "to 10): n-grams common to all references count less."
        ),
        scale="0-10",
        tokens="ptb",
    )

    def __init__(self) -> None:
        self.signature = (
            "CIDEr|coco-cider-d|n:4|sigma:6|df:refs|tok:ptb-corenlp-3.4.1-lc-nopunct"
            f"|{implementation.signature_part()}|nlgboard:{__version__}"
        )

    def segment_scores(self, hypotheses: Sequence[str], references: ReferenceSet) -> list[float]:
        prepared = _CACHE.get(references, _kept)
        scores = []
        for text, ref_vectors in zip(
            ptb_tokenize(hypotheses), prepared.reference_vectors, strict=True
        ):
            counts = ngram_counts(text.split(), ORDER)
            hyp = _vector(counts, prepared.document_frequency, prepared.log_items)
            total = [0.0] * ORDER
            for ref in ref_vectors:
                for n, value in enumerate(_similarity(hyp, ref)):
                    total[n] += value
            scores.append(sum(total) / ORDER / len(ref_vectors) * 10.0)
        return scores


@register("CIDEr")
def make_cider() -> CIDEr:
    return CIDEr()
