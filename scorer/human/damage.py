"""Damaged copies of outputs for Direct Assessment quality control (WMT'17 "bad references",
used by SR'18): a run of words is replaced by as many words taken from another text, so a rater
who reads the text must score the copy lower than the original.

Span length grows with the text: 1 word up to 3 words, 2 up to 5, 3 up to 8, 4 up to 15, else 5.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

SPANS = ((3, 1), (5, 2), (8, 3), (15, 4))


def span_length(words: int) -> int:
    return next((span for limit, span in SPANS if words <= limit), 5)


def damage(text: str, donors: Sequence[str], rng: random.Random) -> str:
    """``text`` with one run of words replaced by a different run from a random donor text.

    Falls back to dropping the run when no donor offers different words, so the copy always
    differs from the original.
    """
    words = text.split()
    span = span_length(max(len(words), 1))
    pool = [d.split() for d in donors if len(d.split()) >= span and d != text]
    start = rng.randrange(max(len(words) - span + 1, 1))
    original = words[start : start + span]
    for _ in range(20 if pool else 0):
        donor = rng.choice(pool)
        offset = rng.randrange(len(donor) - span + 1)
        replacement = donor[offset : offset + span]
        if replacement != original:
            return " ".join(words[:start] + replacement + words[start + span :])
    kept = words[:start] + words[start + span :]
    return " ".join(kept) if kept else "…"
