"""METEOR 1.5's score from a statistics row (``MeteorScorer.computeMetrics``) with the jar's
default English parameters, in Java's double arithmetic and order of operations: for a segment
(to pick its best reference as the jar does) and for a corpus (the statistics summed, as the
jar's ``EVAL`` aggregates them)."""

from __future__ import annotations

import math
from collections.abc import Sequence

ALPHA, BETA, GAMMA, DELTA = 0.85, 0.20, 0.60, 0.75
MODULE_WEIGHTS = (1.0, 0.6, 0.8, 0.6)
CHUNKS = 20
"""Where a statistics row holds its chunk count."""


def _divide(a: float, b: float) -> float:
    """Java's double division: x/0 is infinite, 0/0 is NaN."""
    if b == 0.0:
        if a == 0.0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def score(stats: Sequence[float]) -> float:
    """``MeteorScorer.computeMetrics``'s score from one statistics row."""
    test_len, ref_len, test_fn, ref_fn = stats[0:4]
    test_weighted_len = weighted_length(test_len, test_fn)
    ref_weighted_len = weighted_length(ref_len, ref_fn)
    test_matches = 0.0
    ref_matches = 0.0
    for i, weight in enumerate(MODULE_WEIGHTS):
        test_matches += stats[4 + 4 * i] * weight * DELTA
    for i, weight in enumerate(MODULE_WEIGHTS):
        ref_matches += stats[5 + 4 * i] * weight * DELTA
    for i, weight in enumerate(MODULE_WEIGHTS):
        test_matches += stats[6 + 4 * i] * weight * (1.0 - DELTA)
    for i, weight in enumerate(MODULE_WEIGHTS):
        ref_matches += stats[7 + 4 * i] * weight * (1.0 - DELTA)
    precision = _divide(test_matches, test_weighted_len)
    recall = _divide(ref_matches, ref_weighted_len)
    f_mean = _divide(1.0, _divide(1.0 - ALPHA, precision) + _divide(ALPHA, recall))
    chunks, test_word_matches, ref_word_matches = stats[20:23]
    if is_perfect(stats):
        fragmentation = 0.0
    else:
        fragmentation = _divide(chunks, (test_word_matches + ref_word_matches) / 2.0)
    penalty = GAMMA * fragmentation**BETA if not math.isnan(fragmentation) else math.nan
    value = f_mean * (1.0 - penalty)
    return 0.0 if math.isnan(value) else max(value, 0.0)


def weighted_length(length: float, function_words: float) -> float:
    """A side's length with function words weighted ``1 - DELTA`` and content words ``DELTA``."""
    return DELTA * (length - function_words) + (1.0 - DELTA) * function_words


def is_perfect(stats: Sequence[float]) -> bool:
    """Every word of both sides matched, in one chunk: no fragmentation penalty (and, summed
    into a corpus, no chunk)."""
    test_total = sum(stats[4 + 4 * i] + stats[6 + 4 * i] for i in range(4))
    ref_total = sum(stats[5 + 4 * i] + stats[7 + 4 * i] for i in range(4))
    return test_total == stats[0] and ref_total == stats[1] and stats[CHUNKS] == 1.0
