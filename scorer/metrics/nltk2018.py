"""The n-gram pass shared by the two metrics of the official SR'18 script (NLTK as of 2018).

BLEU-sr18 and NIST-sr18 look at the same n-grams (n = 1..4, lowercased, split on whitespace) of
the same output/reference pairs, so one pass serves both. Per item it yields

* BLEU's row: clipped matches per order (clipped by the largest count in any reference), n-gram
  counts per order (at least 1 per item, as NLTK), the output length and the closest reference
  length (ties: the shorter);
* NIST's row: information-weighted matches and n-gram counts per order, from the reference
  NLTK picks per order (best precision, then the longer reference), the summed lengths of those
  references, and ``ORDER`` x the output length.

A test set of SR'18 size has about a million reference n-grams, so the pass is vectorised:
n-grams become integer ids (a dict lookup each, at C speed), counts per (item, n-gram) come from
``numpy.unique`` and the sums from ``numpy.bincount``. The reference side -- ids, counts and the
NIST information weights log2(count(w1..wn-1) / count(w1..wn)) -- is prepared once per test set.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from itertools import chain, count, repeat

import numpy as np

from scorer.references import LastResult, PreparedCache, ReferenceSet

ORDER = 4
ROW = 2 * ORDER + 2


def _ngrams(words: list[str], n: int) -> Iterator[tuple[str, ...]]:
    return zip(*(words[i:] for i in range(n)), strict=False)


class PreparedReferences:
    """A test set's references as n-gram ids with counts per (reference, n-gram)."""

    def __init__(self, references: ReferenceSet):
        tokens = [[ref.lower().split() for ref in refs] for refs in references]
        flat = [ref for refs in tokens for ref in refs]
        self.items = len(tokens)
        self.pair_item = np.repeat(np.arange(len(tokens)), [len(refs) for refs in tokens])
        self.pair_length = np.array([len(ref) for ref in flat], dtype=np.int64)
        # n-gram -> id; a missing key gets the next id, all at C speed through map()
        self.vocabulary: dict[tuple[str, ...], int] = defaultdict(count().__next__)
        ids, contexts, pairs = [], [], []
        previous: np.ndarray | None = None
        previous_counts = np.zeros(len(flat), dtype=np.int64)
        for n in range(1, ORDER + 1):
            counts = np.array([max(0, len(ref) - n + 1) for ref in flat], dtype=np.int64)
            grams = chain.from_iterable(_ngrams(ref, n) for ref in flat)
            order_ids = np.fromiter(
                map(self.vocabulary.__getitem__, grams), dtype=np.int64, count=counts.sum()
            )
            ids.append(order_ids)
            pairs.append(np.repeat(np.arange(len(flat)), counts))
            if previous is None:
                contexts.append(np.full(len(order_ids), -1))
            else:  # the context of the n-gram at position i is the (n-1)-gram at position i
                starts = np.concatenate(([0], np.cumsum(previous_counts)[:-1]))
                contexts.append(previous[_positions(starts, counts)])
            previous, previous_counts = order_ids, counts
        all_ids, all_contexts = np.concatenate(ids), np.concatenate(contexts)
        frequency = np.bincount(all_ids, minlength=len(self.vocabulary)).astype(float)
        context_frequency = np.full(len(self.vocabulary), float(self.pair_length.sum()))
        has_context = all_contexts >= 0
        context_frequency[all_ids[has_context]] = frequency[all_contexts[has_context]]
        with np.errstate(divide="ignore"):
            self.info = np.log2(context_frequency / frequency)
        self.order = np.zeros(len(self.vocabulary), dtype=np.int64)
        for n, order_ids in enumerate(ids):
            self.order[order_ids] = n
        keys, self.counts = np.unique(
            np.concatenate(pairs) * len(self.vocabulary) + all_ids, return_counts=True
        )
        self.key_pair, self.key_id = np.divmod(keys, len(self.vocabulary))


def _positions(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Concatenated ``range(start, start + count)`` for every pair, without a Python loop."""
    offsets = np.repeat(starts - np.concatenate(([0], np.cumsum(counts)[:-1])), counts)
    return np.arange(counts.sum()) + offsets


_PREPARED = PreparedCache(size=16)
"""All 13 SR'18 test sets stay prepared (~220 MB in all; Czech, the largest, ~76 MB)."""
_LAST = LastResult()


def statistics(
    hypotheses: Sequence[str], references: ReferenceSet
) -> tuple[np.ndarray, np.ndarray]:
    """(BLEU rows, NIST rows) for every item; the last result is kept, as both metrics ask."""
    return _LAST.get(
        hypotheses,
        references,
        lambda outputs: _rows(
            [h.lower().split() for h in outputs], _PREPARED.get(references, PreparedReferences)
        ),
    )


def _rows(hyps: list[list[str]], ref: PreparedReferences) -> tuple[np.ndarray, np.ndarray]:
    items, size = len(hyps), len(ref.vocabulary)
    lengths = np.array([len(h) for h in hyps], dtype=np.int64)
    counted = np.stack([np.maximum(0, lengths - n + 1) for n in range(1, ORDER + 1)], axis=1)

    # the output's n-grams that occur in some reference, counted per (item, n-gram)
    grams = chain.from_iterable(_ngrams(h, n) for n in range(1, ORDER + 1) for h in hyps)
    ids = np.fromiter(map(ref.vocabulary.get, grams, repeat(-1)), dtype=np.int64)
    owners = np.concatenate([np.repeat(np.arange(items), counted[:, n]) for n in range(ORDER)])
    known = ids >= 0
    hyp_keys, hyp_counts = np.unique(owners[known] * size + ids[known], return_counts=True)

    # clipped matches per (reference, n-gram)
    wanted = ref.pair_item[ref.key_pair] * size + ref.key_id
    at = np.clip(np.searchsorted(hyp_keys, wanted), 0, max(len(hyp_keys) - 1, 0))
    found = hyp_keys[at] == wanted if len(hyp_keys) else np.zeros(len(wanted), dtype=bool)
    shared = np.where(found, np.minimum(ref.counts, hyp_counts[at] if len(hyp_keys) else 0), 0)
    order = ref.order[ref.key_id]

    # BLEU: per output n-gram, the best clip over the references; summed per item and order
    best = np.zeros(len(hyp_keys), dtype=np.int64)
    np.maximum.at(best, at[found], shared[found])
    best_items, best_ids = np.divmod(hyp_keys, size) if len(hyp_keys) else (hyp_keys, hyp_keys)
    matches = np.bincount(
        best_items * ORDER + ref.order[best_ids], weights=best, minlength=items * ORDER
    ).reshape(items, ORDER)

    # NIST: information-weighted matches per (reference, order); NLTK's pick per item and order
    pairs = len(ref.pair_length)
    weighted = np.bincount(
        ref.key_pair * ORDER + order, weights=shared * ref.info[ref.key_id], minlength=pairs * ORDER
    ).reshape(pairs, ORDER)
    chosen = _best_reference(weighted, ref)
    nist_numerators = weighted[chosen, np.arange(ORDER)]

    bleu = np.zeros((items, ROW))
    bleu[:, :ORDER] = matches
    bleu[:, ORDER : 2 * ORDER] = np.maximum(1, counted)
    bleu[:, 2 * ORDER] = lengths
    bleu[:, 2 * ORDER + 1] = _closest_lengths(lengths, ref)
    nist = np.zeros((items, ROW))
    nist[:, :ORDER] = nist_numerators
    nist[:, ORDER : 2 * ORDER] = counted
    nist[:, 2 * ORDER] = ref.pair_length[chosen].sum(axis=1)
    nist[:, 2 * ORDER + 1] = ORDER * lengths
    return bleu, nist


def _best_reference(weighted: np.ndarray, ref: PreparedReferences) -> np.ndarray:
    """Per (item, order), the reference with the most information matched, then the longest
    (NLTK takes the max of (precision, numerator, denominator, length); the denominator is the
    output's, the same for every reference)."""
    chosen = np.zeros((ref.items, ORDER), dtype=np.int64)
    for n in range(ORDER):
        ranking = np.lexsort((ref.pair_length, weighted[:, n], ref.pair_item))
        last = np.r_[ref.pair_item[ranking][1:] != ref.pair_item[ranking][:-1], True]
        chosen[:, n] = ranking[last]
    return chosen


def _closest_lengths(lengths: np.ndarray, ref: PreparedReferences) -> np.ndarray:
    """Per item, the reference length closest to the output's (ties: the shorter)."""
    distance = np.abs(ref.pair_length - lengths[ref.pair_item])
    ranking = np.lexsort((ref.pair_length, distance, ref.pair_item))
    first = np.r_[True, ref.pair_item[ranking][1:] != ref.pair_item[ranking][:-1]]
    return ref.pair_length[ranking[first]]
