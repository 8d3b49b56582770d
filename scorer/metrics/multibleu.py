"""BLEU-4 exactly as Moses' ``multi-bleu.perl`` computes it (WebNLG 2017: ``-lc``), 0-100.

    BLEU = BP * exp( (1/4) * sum_{n=1..4} mylog(p_n) ),   BP = exp(1 - r / c) if c < r else 1

p_n = clipped n-gram matches / hypothesis n-grams summed over the corpus (0 when there are
none), mylog(0) = -9999999999 (so one order without a match gives 0: no smoothing); r = summed
closest reference lengths (ties: the shorter), c = hypothesis length. Tokens are what Perl's
``split`` gives on ASCII whitespace; ``-lc`` lowercases ASCII letters only (Perl's ``lc`` on
bytes). The script's quirks, kept:

* references come from parallel files, so an item with fewer references than there are files
  has *empty* references (``references=N``: every item gets exactly N, padded with empty ones):
  an empty reference adds no n-gram but its length 0 can be the closest, which shortens r for
  short or empty outputs;
* c = 0 with r > 0 makes the script die (a division by zero); here BLEU is then 0, its limit;
  r = 0 prints ``BLEU = 0``;
* the script ``chop``s every line: a last line without a line break loses its last character.
  Items are scored as given (the WebNLG script writes every line with its line break).

Citation: Papineni, Roukos, Ward & Zhu (2002), BLEU: a method for automatic evaluation of
machine translation, ACL; Koehn et al. (2007), Moses, ACL (``scripts/generic/multi-bleu.perl``).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

from scorer import __version__
from scorer.metrics import FLAG, REFERENCES, register
from scorer.metrics.base import WORD_OVERLAP, Metric, Traits
from scorer.references import PreparedCache, ReferenceSet

ORDER = 4
MATCHES = slice(0, ORDER)
TOTALS = slice(ORDER, 2 * ORDER)
HYP_LENGTH = 2 * ORDER
REF_LENGTH = 2 * ORDER + 1
COLUMNS = 2 * ORDER + 2
"""A statistics row: matches per order, hypothesis n-grams per order, c, closest r."""

NO_REFERENCE_LENGTH = 9999
"""The closest length the script starts from (what an item without references keeps)."""

_PERL_SPACE = re.compile("[ \t\n\x0b\x0c\r]+")
"""Perl's ``\\s`` on a byte string: ASCII whitespace only."""
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

Ngrams = Counter[tuple[str, ...]]


def perl_split(text: str) -> list[str]:
    """Perl's ``split`` (awk mode): runs of ASCII whitespace separate, none at the ends."""
    return [token for token in _PERL_SPACE.split(text) if token]


def perl_lc(text: str) -> str:
    """Perl's ``lc`` on bytes: ASCII letters only."""
    return text.translate(_ASCII_LOWER)


def ngrams(tokens: Sequence[str]) -> Ngrams:
    return Counter(
        tuple(tokens[start : start + n])
        for n in range(1, ORDER + 1)
        for start in range(len(tokens) - n + 1)
    )


PreparedReferences = list[tuple[Ngrams, list[int]]]
"""Per item: the most each n-gram occurs in one reference, and the references' lengths."""


def prepare(references: Sequence[Sequence[list[str]]]) -> PreparedReferences:
    prepared = []
    for item in references:
        most: Ngrams = Counter()
        for tokens in item:
            most |= ngrams(tokens)  # Counter union keeps the larger count
        prepared.append((most, [len(tokens) for tokens in item]))
    return prepared


def closest_length(hyp_length: int, lengths: Sequence[int]) -> int:
    """The reference length closest to the output's, the shorter of equally close ones."""
    closest_diff, closest = NO_REFERENCE_LENGTH, NO_REFERENCE_LENGTH
    for length in lengths:
        diff = abs(hyp_length - length)
        if diff < closest_diff:
            closest_diff, closest = diff, length
        elif diff == closest_diff and length < closest:
            closest = length
    return closest


def segment_row(tokens: Sequence[str], most: Ngrams, lengths: Sequence[int]) -> list[float]:
    row = [0.0] * COLUMNS
    for gram, count in ngrams(tokens).items():
        n = len(gram) - 1
        row[ORDER + n] += count
        row[n] += min(count, most.get(gram, 0))
    row[HYP_LENGTH] = len(tokens)
    row[REF_LENGTH] = closest_length(len(tokens), lengths)
    return row


def bleu_from_totals(totals: Sequence[float] | np.ndarray) -> float:
    """The script's figure (x 100) from summed rows."""
    precisions = [totals[n] / totals[ORDER + n] if totals[ORDER + n] else 0.0 for n in range(ORDER)]
    hyp_length, ref_length = totals[HYP_LENGTH], totals[REF_LENGTH]
    if ref_length == 0 or hyp_length == 0:
        return 0.0
    brevity = math.exp(1 - ref_length / hyp_length) if hyp_length < ref_length else 1.0
    logs = [math.log(p) if p else -9999999999 for p in precisions]
    return 100 * (brevity * math.exp((logs[0] + logs[1] + logs[2] + logs[3]) / 4))


def files_view(references: Sequence[str], count: int | None) -> list[str]:
    """An item's references as ``count`` parallel files give them: the first ``count``, then
    empty lines (None: as they are)."""
    if count is None:
        return list(references)
    return [*references[:count], *[""] * (count - len(references))]


class MultiBLEU(Metric):
    """``multi-bleu.perl [-lc] reference0 ... < hypothesis``."""

    name = "BLEU"
    traits = Traits(
        group=WORD_OVERLAP,
        glossary="Word n-gram overlap (1 to 4) with the references: the geometric mean of the n-gram "
        "precisions times a penalty for outputs shorter than the references.",
        scale="0-100",
    )
    tool = "multi-bleu.perl"
    token_rule = "whitespace"

    def __init__(self, *, lowercase: bool = False, references: int | None = None) -> None:
        if references is not None and (not isinstance(references, int) or references < 1):
            raise ValueError(f"references must be a positive number of files, not {references!r}")
        self.lowercase = lowercase
        self.references = references
        self.signature = (
            f"BLEU|{self.tool}|n:4|case:{'lc-ascii' if lowercase else 'mixed'}"
            f"|tok:{self.token_rule}|refs:{f'{references}-files' if references else 'var'}"
            "|smooth:none|scale:0-100"
            f"|nlgboard:{__version__}"
        )
        self._cache = _cache(self.tool, lowercase, references)

    def hypothesis_tokens(self, text: str) -> list[str]:
        return perl_split(perl_lc(text) if self.lowercase else text)

    def reference_tokens(self, text: str) -> list[str]:
        return perl_split(perl_lc(text) if self.lowercase else text)

    def _prepare(self, references: ReferenceSet) -> PreparedReferences:
        return prepare(
            [
                [self.reference_tokens(text) for text in files_view(item, self.references)]
                for item in references
            ]
        )

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        prepared = self._cache.get(references, self._prepare)
        rows = [
            segment_row(self.hypothesis_tokens(text), most, lengths)
            for text, (most, lengths) in zip(hypotheses, prepared, strict=True)
        ]
        return np.asarray(rows, dtype=float).reshape(len(rows), COLUMNS)

    def score_from_totals(self, totals: np.ndarray) -> float:
        return bleu_from_totals(totals)


_CACHES: dict[tuple[object, ...], PreparedCache] = {}


def _cache(*options: object) -> PreparedCache:
    """One cache of prepared references per variant (tool and options)."""
    return _CACHES.setdefault(options, PreparedCache())


@register("BLEU-multibleu", lowercase=FLAG, references=REFERENCES)
def make_multibleu(*, lowercase: bool = False, references: int | None = None) -> MultiBLEU:
    return MultiBLEU(lowercase=lowercase, references=references)
