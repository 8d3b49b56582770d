"""chrF++ as Maja Popović's ``chrF.py`` computes it (WebNLG+ 2020's ``metrics/chrF.py``), 0-1.

Per order n (characters 1..6 without spaces, words 1..2 with a leading or trailing ASCII
punctuation mark split off), over the corpus:

    P_n = matches_n / hyp_n,  R_n = matches_n / ref_n  (1e-16 when the count is 0)
    F_n = (1 + b^2) P_n R_n / (b^2 P_n + R_n)          (1e-16 when the denominator is 0)
    chrF++ = (sum of character F_n + sum of word F_n) / (6 + 2),   b = 2

Per item the counts are those of the reference with the highest sentence-level score (the first
of equal ones), the sentence score being the same average over the orders with at least one
match. A port, not sacrebleu's ``CHRF(word_order=2)``: that differs in the last digits (it sums
the orders in another order and scores zero-match orders 1e-16 when choosing the reference), and
the port keeps the script's own quirks: an output's n-grams of an order its chosen reference is
too short for are not counted; ``strip``/``split`` are Python's (Unicode whitespace), and only
spaces are removed between characters.

WebNLG+ 2020's ``eval.py`` skips empty references and takes the first N others (the track's
reference selection does that here). Two artefacts of its temporary files are not reproduced:
a last output that is empty is left out of its chrF++ (the file loses its last empty line), and
an output holding a character that Python's ``splitlines`` breaks on (U+2028, U+0085, \\x0b ...)
shifts every later line.

Where ``_chrf.c`` is built (``setup.py``) and the orders are at most 6, each item's row is
computed compiled (``_chrf.best``: its n-grams as sorted tables, the references' kept with the
test set); ``ChrFPlusPlus._best`` is the same in Python, the fallback, held equal to it by
tests/scorer/metrics/test_compiled_chrf.py.

Citation: Popović (2017), chrF++: words helping character n-grams, WMT.
"""

from __future__ import annotations

import string
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from scorer import __version__
from scorer.metrics import Bound, register
from scorer.metrics.base import WORD_OVERLAP, Metric, Traits
from scorer.references import PreparedCache, ReferenceSet

COMPILED: ModuleType | None
"""``_chrf.c`` built, or None: the rows are computed in Python (``ChrFPlusPlus._best``)."""
try:
    from scorer.metrics import _chrf as COMPILED
except ImportError:  # not built (no C compiler at install)
    COMPILED = None

EPSILON = 1e-16
_PUNCTUATION = frozenset(string.punctuation)
COMPILED_ORDERS = 6
"""The compiled tables hold n-grams of at most 6 units (each code point in 21 bits)."""
UNKNOWN_WORD = chr(0x10FFFF)
"""An output's word that no reference has, in the compiled tables: the references' words are
numbered below it, so it matches nothing (and only its counts matter)."""


def separate_characters(text: str) -> str:
    """chrF.py's list of characters, kept as a string: its n-grams are then substrings, which
    count as the script's tuples of characters do, without building a tuple each."""
    return text.strip().replace(" ", "")


def separate_punctuation(text: str) -> list[str]:
    tokens: list[str] = []
    for word in text.strip().split():
        if len(word) == 1:
            tokens.append(word)
        elif word[-1] in _PUNCTUATION:
            tokens += [word[:-1], word[-1]]
        elif word[0] in _PUNCTUATION:
            tokens += [word[0], word[1:]]
        else:
            tokens.append(word)
    return tokens


Counts = list[Counter[Hashable]]
"""Per order (index n-1), how often each n-gram occurs."""


def ngram_counts(units: Sequence[str], order: int) -> Counts:
    """Per order, the n-grams of ``units``: words (tuples of them), or the characters of a
    string (substrings)."""
    counts: Counts = [Counter() for _ in range(order)]
    text = isinstance(units, str)
    for n in range(1, order + 1):
        ends = range(n, len(units) + 1)
        if text:
            counts[n - 1].update([units[end - n : end] for end in ends])
        else:
            counts[n - 1].update([tuple(units[end - n : end]) for end in ends])
    return counts


def precision_recall_f(matching: float, ref: float, hyp: float, factor: float) -> float:
    """``ngram_precrecf`` for one order: its F."""
    precision = matching / hyp if hyp > 0 else EPSILON
    recall = matching / ref if ref > 0 else EPSILON
    denominator = factor * precision + recall
    return (1 + factor) * precision * recall / denominator if denominator > 0 else EPSILON


class ChrFPlusPlus(Metric):
    name = "chrF++"
    traits = Traits(
        group=WORD_OVERLAP,
        glossary=(
            "Character n-gram (up to 6) and word n-gram (up to 2) F-score, recall weighted (beta "
            "2), against the best reference of each output (Popović's chrF++.py, as WebNLG 2020 "
            "ran it)."
        ),
    )

    def __init__(self, *, char_order: int = 6, word_order: int = 2, beta: float = 2.0) -> None:
        if char_order < 1 or word_order < 0:
            raise ValueError("char_order must be at least 1 and word_order at least 0")
        self.char_order, self.word_order, self.beta = char_order, word_order, float(beta)
        self.factor = self.beta**2
        self.orders = float(char_order + word_order)
        self.signature = (
            f"chrF++|chrF.py-2017|c:{char_order}|w:{word_order}|b:{self.beta:g}|case:mixed"
            f"|best-ref:sentence-F|scale:0-1|nlgboard:{__version__}"
        )
        self._cache = _CACHES.setdefault((char_order, word_order), PreparedCache())
        self._compiled_cache = _CACHES.setdefault(
            ("compiled", char_order, word_order), PreparedCache()
        )
        self.compiled = (
            COMPILED is not None and char_order <= COMPILED_ORDERS and word_order <= COMPILED_ORDERS
        )

    def _prepare(self, references: ReferenceSet) -> list[list[tuple[Counts, Counts]]]:
        return [
            [
                (
                    ngram_counts(separate_characters(ref), self.char_order),
                    ngram_counts(separate_punctuation(ref), self.word_order),
                )
                for ref in item
            ]
            for item in references
        ]

    def _prepare_tables(self, references: ReferenceSet) -> Tables | None:
        """The references' n-gram tables for ``_chrf.best`` (None: too many distinct words
        to number below ``UNKNOWN_WORD``, so the Python rows)."""
        assert COMPILED is not None
        codes: dict[str, str] = {}
        items = []
        for item in references:
            tables = []
            for ref in item:
                words = separate_punctuation(ref)
                for word in words:
                    if word not in codes:
                        codes[word] = chr(len(codes))
                tables.append(
                    (
                        COMPILED.table(separate_characters(ref), self.char_order),
                        COMPILED.table("".join(map(codes.__getitem__, words)), self.word_order),
                    )
                )
            items.append(tables)
        if len(codes) >= ord(UNKNOWN_WORD):
            return None
        return Tables(codes, items)

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        tables = (
            self._compiled_cache.get(references, self._prepare_tables) if self.compiled else None
        )
        if tables is not None:
            rows = [
                self._compiled_best(hyp, refs, tables.codes)
                for hyp, refs in zip(hypotheses, tables.items, strict=True)
            ]
        else:
            prepared = self._cache.get(references, self._prepare)
            rows = [self._best(hyp, refs) for hyp, refs in zip(hypotheses, prepared, strict=True)]
        return np.asarray(rows, dtype=float).reshape(len(rows), 3 * int(self.orders))

    def _compiled_best(
        self, hypothesis: str, references: list[tuple[bytes, bytes]], codes: dict[str, str]
    ) -> list[float]:
        """``_best`` by ``_chrf.best``: the output's words as the references' numbers."""
        assert COMPILED is not None
        words = "".join(
            [codes.get(word, UNKNOWN_WORD) for word in separate_punctuation(hypothesis)]
        )
        return COMPILED.best(
            separate_characters(hypothesis),
            words,
            references,
            self.char_order,
            self.word_order,
            self.factor,
        )

    def _best(self, hypothesis: str, references: list[tuple[Counts, Counts]]) -> list[float]:
        """The row (matches, reference n-grams, output n-grams per order: characters, then
        words) of the best-scoring reference."""
        hyp_chars = ngram_counts(separate_characters(hypothesis), self.char_order)
        hyp_words = ngram_counts(separate_punctuation(hypothesis), self.word_order)
        best_f, best_row = -1.0, [0.0] * (3 * int(self.orders))
        for ref_chars, ref_words in references:
            row = _matches(ref_chars, hyp_chars) + _matches(ref_words, hyp_words)
            sentence_f = self._sentence_f(row)
            if sentence_f > best_f:
                best_f, best_row = sentence_f, row
        return best_row

    def _sentence_f(self, row: list[float]) -> float:
        """The script's sentence score: F summed over the orders with a match (characters
        first, then words, each in increasing order, as its dictionaries iterate)."""
        chars = _sum_f(row[: 3 * self.char_order], self.factor, only_matched=True)
        words = _sum_f(row[3 * self.char_order :], self.factor, only_matched=True)
        return (chars + words) / self.orders

    def score_from_totals(self, totals: np.ndarray) -> float:
        chars = _sum_f(list(totals[: 3 * self.char_order]), self.factor, only_matched=False)
        words = _sum_f(list(totals[3 * self.char_order :]), self.factor, only_matched=False)
        return (chars + words) / self.orders


def _matches(ref: Counts, hyp: Counts) -> list[float]:
    """``ngram_matches``: per order, clipped matches, reference n-grams and output n-grams --
    the latter only for orders the reference has n-grams of."""
    row: list[float] = []
    for ref_order, hyp_order in zip(ref, hyp, strict=True):
        if not ref_order:
            row += [0.0, 0.0, 0.0]
            continue
        # Only the n-grams both have count (the others add min(count, 0)); whole numbers, so
        # the order of the sum changes nothing. A third of the work of going over them all.
        shared = ref_order.keys() & hyp_order.keys()
        counts = map(ref_order.__getitem__, shared), map(hyp_order.__getitem__, shared)
        matching = sum(map(min, *counts))
        row += [float(matching), float(ref_order.total()), float(hyp_order.total())]
    return row


def _sum_f(row: Sequence[float], factor: float, only_matched: bool) -> float:
    total: float = 0
    for start in range(0, len(row), 3):
        matching, ref, hyp = row[start : start + 3]
        if only_matched and not matching:
            continue
        total += precision_recall_f(matching, ref, hyp, factor)
    return total


@dataclass(frozen=True)
class Tables:
    """A test set's references prepared for ``_chrf.best``: the number (as a code point) of
    each of their words, and per item its references' (characters, words) n-gram tables."""

    codes: dict[str, str]
    items: list[list[tuple[bytes, bytes]]]


_CACHES: dict[tuple, PreparedCache] = {}


@register(
    "chrF++",
    char_order=Bound(int, 1, 10),
    word_order=Bound(int, 0, 10),
    beta=Bound(float, 0, 10),
)
def make_chrf_plus_plus(
    *, char_order: int = 6, word_order: int = 2, beta: float = 2.0
) -> ChrFPlusPlus:
    return ChrFPlusPlus(char_order=char_order, word_order=word_order, beta=beta)
