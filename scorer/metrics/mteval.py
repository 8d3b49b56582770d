"""Sufficient statistics of NIST ``mteval-v13a-sig.pl``, shared by its BLEU and NIST scores.

A port of the script the E2E challenge's metric script runs (no ``-c``, closest brevity
penalty, default tokenisation), including what it does to the text before scoring:

* SGML reading: e2e-metrics writes each text raw into ``<seg>``; mteval collapses every run of
  Perl whitespace (``\\s``, which takes U+00A0, U+2028 ... but not U+001C-U+001F) to one space;
* ``tokenization``: ``<skipped>`` removed, ``&quot; &amp; &lt; &gt;`` unescaped, ASCII-only
  lowercasing (``tr/[A-Z]/[a-z]/``), then the v13a punctuation rules;
* reference layout as e2e-metrics writes it: every item gets as many reference slots as the item
  with the most references, the missing ones empty. Empty references add no n-grams, are not
  counted as references of their segment, and are never the "closest" length -- except the
  item's first reference, which mteval takes as the starting length whatever it is;
* ``compute_ngram_info``: ``info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn))`` over all
  reference n-grams, unigrams (and, by Perl's truthiness, n-grams after the lone word ``0``)
  against the total number of reference words;
* ``score_segment``: clipped matches (BLEU n <= 4, NIST n <= 5), their summed information, test
  n-gram counts, the closest reference length (ties: the shorter), reference words and the
  number of non-empty references (NIST's average reference length is words / (refs / segments)).

Citation: NIST mteval-v13a.pl (2009); Doddington (2002), Automatic evaluation of machine
translation quality using n-gram co-occurrence statistics, HLT.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from scorer.cache import kept
from scorer.references import PreparedCache, ReferenceSet

MAX_ORDER = 5
"""NIST uses n-grams up to 5, BLEU up to 4; one pass collects both."""

MATCHES = slice(0, 5)
TEST_COUNTS = slice(5, 10)
INFO = slice(10, 15)
CLOSEST_REF_LENGTH = 15
REF_WORDS = 16
REFERENCES = 17
SEGMENTS = 18
COLUMNS = 19
"""Columns of a statistics row (see ``segment_row``)."""

PERL_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
"""What Perl's ``\\s`` matches in a character string (Python's ``str.split`` also splits on
U+001C-U+001F, which mteval keeps inside words)."""

_SPACES = re.compile(f"[{PERL_SPACE}]+")
_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_V13A_RULES = (
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
)


def tokenize(segment: str) -> tuple[str, ...]:
    """The words mteval scores for one text (SGML whitespace collapse + ``tokenization``)."""
    text = _SPACES.sub(" ", segment).replace("<skipped>", "")
    for entity, char in _ENTITIES:
        text = text.replace(entity, char)
    text = f" {text} ".translate(_ASCII_LOWER)
    for pattern, replacement in _V13A_RULES:
        text = pattern.sub(replacement, text)
    return tuple(word for word in _SPACES.split(text) if word)


def ngram_counts(words: Sequence[str], max_order: int = MAX_ORDER) -> Counter:
    """Counts of every n-gram up to ``max_order`` (as tuples; counted in C by Counter)."""
    counts: Counter = Counter()
    for n in range(1, max_order + 1):
        counts.update(zip(*(words[start:] for start in range(n)), strict=False))  # shifted
    return counts


@dataclass(frozen=True)
class PreparedReferences:
    """Reference-side statistics: computed once per test set."""

    max_counts: list[dict[tuple[str, ...], int]]
    length_candidates: list[tuple[int, ...]]
    ref_words: list[int]
    non_empty: list[int]
    info: dict[tuple[str, ...], float]


def prepare(references: ReferenceSet) -> PreparedReferences:
    all_counts: Counter = Counter()
    max_counts, candidates, ref_words, non_empty = [], [], [], []
    for refs in references:
        item_max: dict[tuple[str, ...], int] = {}
        lengths = []
        for ref in refs:
            words = tokenize(ref)
            counts = ngram_counts(words)
            all_counts.update(counts)
            lengths.append(len(words))
            for ngram, count in counts.items():
                if count > item_max.get(ngram, 0):
                    item_max[ngram] = count
        max_counts.append(item_max)
        candidates.append((lengths[0], *(length for length in lengths[1:] if length)))
        ref_words.append(sum(lengths))
        non_empty.append(sum(1 for length in lengths if length))
    total_words = sum(ref_words)
    info = {}
    for ngram, count in all_counts.items():
        prefix = ngram[:-1]
        context = all_counts[prefix] if prefix and prefix != ("0",) else total_words
        info[ngram] = -math.log(count / context) / math.log(2)
    return PreparedReferences(max_counts, candidates, ref_words, non_empty, info)


def _kept(references: ReferenceSet) -> PreparedReferences:
    """``prepare``, kept between processes (a cold ``nlg-score`` on a test set seen before)."""
    return kept(
        "mteval",
        references.digest,
        lambda: prepare(references),
        lambda refs: (
            refs.max_counts,
            refs.length_candidates,
            refs.ref_words,
            refs.non_empty,
            refs.info,
        ),
        lambda fields: PreparedReferences(*fields),
    )


_CACHE = PreparedCache()
_LAST: dict[tuple[str, int], np.ndarray] = {}


def closest_length(candidates: Sequence[int], length: int) -> int:
    """mteval's ``brevity_penalty_closest`` folded over the references: nearest, ties shorter."""
    return min(candidates, key=lambda ref_len: (abs(ref_len - length), ref_len))


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
    closest = closest_length(refs.length_candidates[item], length)
    return [*matches, *test_counts, *info, closest, refs.ref_words[item], refs.non_empty[item], 1]


def corpus_stats(hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
    """Rows of [matches 1-5, test n-grams 1-5, info 1-5, closest reference length, reference
    words, non-empty references, 1 (the segment)].

    BLEU and NIST both ask for the same outputs in a row; the last result is kept for that.
    """
    key = (references.digest, hash(tuple(hypotheses)))
    if key not in _LAST:
        refs = _CACHE.get(references, _kept)
        rows = [segment_row(hyp, index, refs) for index, hyp in enumerate(hypotheses)]
        _LAST.clear()
        _LAST[key] = np.asarray(rows, dtype=float).reshape(len(rows), COLUMNS)
    return _LAST[key]
