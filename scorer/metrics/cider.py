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

import numpy as np

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


@dataclass(frozen=True)
class ItemMatrix:
    """One item's reference vectors as a matrix over the n-grams its references have (a
    hypothesis n-gram no reference has adds nothing to the similarity, only to its own norm):
    the clipped products of every reference are then one array operation per item."""

    columns: dict[tuple[str, ...], int]
    weights: np.ndarray  # (references, n-grams)
    orders: np.ndarray  # (n-grams, ORDER): 1 where the n-gram is of that order
    norms: np.ndarray  # (references, ORDER)
    lengths: np.ndarray  # (references,)


def _matrix(vectors: list[Vector]) -> ItemMatrix:
    columns: dict[tuple[str, ...], int] = {}
    for vec, _norm, _length in vectors:
        for by_order in vec:
            for ngram in by_order:
                columns.setdefault(ngram, len(columns))
    weights = np.zeros((len(vectors), len(columns)))
    for row, (vec, _norm, _length) in enumerate(vectors):
        for by_order in vec:
            for ngram, value in by_order.items():
                weights[row, columns[ngram]] = value
    orders = np.zeros((len(columns), ORDER))
    for ngram, column in columns.items():
        orders[column, len(ngram) - 1] = 1.0
    norms = np.array([norm for _vec, norm, _length in vectors], dtype=float).reshape(-1, ORDER)
    lengths = np.array([length for _vec, _norm, length in vectors], dtype=float)
    return ItemMatrix(columns, weights, orders, norms, lengths)


def _item_score(counts: Counter, item: ItemMatrix, idf: dict[tuple[str, ...], float],
                log_items: float) -> float:  # fmt: skip
    """The item's CIDEr-D (x10) of one hypothesis' n-gram counts; ``idf``: log N - log df of
    every n-gram the references have (one they lack has df 0, so log N)."""
    hyp = np.zeros(item.weights.shape[1])
    norm = [0.0] * ORDER
    length = 0
    find, column_of = idf.get, item.columns.get
    for ngram, term_freq in counts.items():
        n = len(ngram) - 1
        value = term_freq * find(ngram, log_items)
        norm[n] += value * value
        if n == 1:
            length += term_freq
        column = column_of(ngram)
        if column is not None:
            hyp[column] = value
    clipped = np.minimum(hyp, item.weights) * item.weights
    values = clipped @ item.orders
    denominator = np.sqrt(norm) * item.norms
    values = np.divide(values, denominator, out=values, where=denominator != 0)
    penalty = np.power(math.e, -((length - item.lengths) ** 2) / (2 * SIGMA**2))
    return float((values * penalty[:, None]).sum() / ORDER / len(item.lengths) * 10.0)


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


def _matrices(
    references: ReferenceSet,
) -> tuple[dict[tuple[str, ...], float], float, list[ItemMatrix]]:
    """What scoring a hypothesis needs of the prepared references: the IDF of each n-gram they
    have, log N, and each item's matrix."""
    prepared = _kept(references)
    log_items = prepared.log_items
    idf = {
        ngram: log_items - math.log(max(1.0, df))
        for ngram, df in prepared.document_frequency.items()
    }
    return idf, log_items, [_matrix(vectors) for vectors in prepared.reference_vectors]


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
        idf, log_items, matrices = _CACHE.get(references, _matrices)
        return [
            _item_score(ngram_counts(text.split(), ORDER), item, idf, log_items)
            for text, item in zip(ptb_tokenize(hypotheses), matrices, strict=True)
        ]


@register("CIDEr")
def make_cider() -> CIDEr:
    return CIDEr()
