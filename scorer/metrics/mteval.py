"""Sufficient statistics of NIST ``mteval-v13a.pl``, shared by its BLEU and NIST scores.

A port of the parts of the Perl script that the E2E challenge's metric script ran:

* ``NormalizeText``: ASCII-only lowercasing (``tr/[A-Z]/[a-z]/``; the E2E script does not pass
  ``-c``), then the v13a punctuation tokenisation (sacrebleu's ``13a`` tokeniser implements the
  same regular expressions);
* multi-reference layout as e2e-metrics writes it: every item gets as many reference slots as the
  item with the most references, the missing ones being *empty* references. Empty slots are real
  to mteval: they can be the "closest" reference length for BLEU and they lower NIST's average
  reference length (nsys = number of slots);
* ``compute_ngram_info``: information weight of an n-gram over *all* reference segments,
  ``info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn))`` (unigrams: total words / count);
* ``score_segment``: clipped n-gram matches (BLEU, n <= 4), their summed info (NIST, n <= 5),
  test n-gram counts and the closest reference length (ties: the shorter, as sacrebleu does).

Citation: NIST mteval-v13a.pl (2009); Doddington (2002), Automatic evaluation of machine
translation quality using n-gram co-occurrence statistics, HLT.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from scorer.references import PreparedCache, ReferenceSet

MAX_ORDER = 5
"""NIST uses n-grams up to 5, BLEU up to 4; one pass collects both."""

MATCHES = slice(0, 5)
TEST_COUNTS = slice(5, 10)
INFO = slice(10, 15)
CLOSEST_REF_LENGTH = 15
REF_WORDS_PER_SLOT = 16
"""Columns of a statistics row (see ``segment_row``)."""

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_tokenize_13a = Tokenizer13a()


def tokenize(segment: str) -> tuple[str, ...]:
    """mteval-v13a ``NormalizeText`` without ``-c``: ASCII lowercase, then v13a tokens."""
    return tuple(_tokenize_13a(segment.strip().translate(_ASCII_LOWER)).split())


def ngram_counts(words: Sequence[str], max_order: int = MAX_ORDER) -> Counter:
    counts: Counter = Counter()
    length = len(words)
    for n in range(1, max_order + 1):
        for start in range(length - n + 1):
            counts[tuple(words[start : start + n])] += 1
    return counts


@dataclass(frozen=True)
class PreparedReferences:
    """Reference-side statistics: computed once per test set."""

    max_counts: list[dict[tuple[str, ...], int]]
    lengths: list[tuple[int, ...]]
    ref_words: list[int]
    info: dict[tuple[str, ...], float]
    slots: int


def prepare(references: ReferenceSet) -> PreparedReferences:
    slots = references.max_references
    all_counts: Counter = Counter()
    max_counts, lengths, ref_words = [], [], []
    for refs in references:
        item_max: dict[tuple[str, ...], int] = {}
        item_lengths = []
        for ref in refs:
            words = tokenize(ref)
            counts = ngram_counts(words)
            all_counts.update(counts)
            item_lengths.append(len(words))
            for ngram, count in counts.items():
                if count > item_max.get(ngram, 0):
                    item_max[ngram] = count
        ref_words.append(sum(item_lengths))
        item_lengths.extend([0] * (slots - len(refs)))  # e2e-metrics' empty padding slots
        max_counts.append(item_max)
        lengths.append(tuple(item_lengths))
    total_words = sum(ref_words)
    info = {}
    for ngram, count in all_counts.items():
        context = all_counts[ngram[:-1]] if len(ngram) > 1 else total_words
        info[ngram] = -math.log(count / context) / math.log(2)
    return PreparedReferences(max_counts, lengths, ref_words, info, slots)


_CACHE = PreparedCache()
_LAST: dict[tuple[str, int], np.ndarray] = {}


def segment_row(hypothesis: str, item: int, refs: PreparedReferences) -> list[float]:
    words = tokenize(hypothesis)
    counts = ngram_counts(words)
    item_max = refs.max_counts[item]
    matches = [0] * MAX_ORDER
    info = [0.0] * MAX_ORDER
    for ngram, count in counts.items():
        ref_count = item_max.get(ngram)
        if ref_count:
            clipped = min(count, ref_count)
            matches[len(ngram) - 1] += clipped
            info[len(ngram) - 1] += refs.info[ngram] * clipped
    length = len(words)
    test_counts = [max(0, length - n + 1) for n in range(1, MAX_ORDER + 1)]
    closest = min(refs.lengths[item], key=lambda ref_len: (abs(ref_len - length), ref_len))
    return [*matches, *test_counts, *info, closest, refs.ref_words[item] / refs.slots]


def corpus_stats(hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
    """Rows of [matches 1-5, test n-grams 1-5, info 1-5, closest ref length, ref words/slot].

    BLEU and NIST both ask for the same outputs in a row; the last result is kept for that.
    """
    key = (references.digest, hash(tuple(hypotheses)))
    if key not in _LAST:
        refs = _CACHE.get(references, prepare)
        rows = [segment_row(hyp, index, refs) for index, hyp in enumerate(hypotheses)]
        _LAST.clear()
        _LAST[key] = np.asarray(rows, dtype=float).reshape(len(rows), 17)
    return _LAST[key]
