"""TER as tercom 7.25 computes it (WebNLG 2017's ``ter_eval.sh``), 0-1, as sacreBLEU's port of
tercom counts it (its tested re-implementation; tercom itself is a Java tool not shipped here).

    TER = sum_i min_r edits(h_i, r) / sum_i mean_r |r|

edits = word insertions, deletions, substitutions and shifts of word sequences (greedy shifts of
runs of at most 10 words moved at most 50 words, the edit distance in a beam of 25 cells each
side of the diagonal), per item against its closest reference, over the average length of the
item's references. Options are tercom's flags: ``case_sensitive`` (``-s``; tercom lowercases by
default), ``normalized`` (``-N``), ``no_punct`` (``-P``), ``asian_support``. The 2017 script
passed none of them; its reference file held each item's first three references, one per line,
with the item's id.

The text goes through sacreBLEU's tercom tokeniser; the edits are counted by
``scorer.metrics.tercom_search``, which reproduces sacreBLEU's ``lib_ter`` edit for edit about
50 times faster (``benchmarks/ter_speed.py``; sacreBLEU is its oracle in the differential tests).

Citation: Snover, Dorr, Schwartz, Micciulla & Makhoul (2006), A study of translation edit rate
with targeted human annotation, AMTA; Post (2018), sacreBLEU, WMT.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, lru_cache

import numpy as np
import sacrebleu
from sacrebleu.metrics import TER as SacreTER

from scorer import __version__, parallel
from scorer.metrics import FLAG, register
from scorer.metrics.base import EDIT_DISTANCE, Metric, Tokeniser, Traits, tokenised
from scorer.metrics.tercom_search import translation_edit_rate
from scorer.references import ReferenceSet

Options = tuple[bool, bool, bool, bool]
Work = tuple[Options, str, Sequence[str]]
"""One item to score: the metric's options, the output, its references."""


class TercomTER(Metric):
    name = "TER"
    traits = Traits(
        group=EDIT_DISTANCE,
        glossary=(
            "Translation edit rate (tercom): the fewest word insertions, deletions, substitutions "
            "and block shifts that turn the output into its closest reference, per reference "
            "word; lower is better."
        ),
        higher_is_better=False,
        cost="slow",
    )

    def __init__(
        self,
        *,
        case_sensitive: bool = False,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
    ) -> None:
        self.options = (case_sensitive, normalized, no_punct, asian_support)
        self.signature = (
            f"TER|tercom-7.25|sacrebleu:{sacrebleu.__version__}"
            f"|case:{'mixed' if case_sensitive else 'lc'}|norm:{'yes' if normalized else 'no'}"
            f"|punct:{'no' if no_punct else 'yes'}|asian:{'yes' if asian_support else 'no'}"
            f"|nrefs:var|scale:0-1|nlgboard:{__version__}"
        )

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        return self.begin_statistics(hypotheses, references)()

    def begin_statistics(
        self,
        hypotheses: Sequence[str],
        references: ReferenceSet,
        tokenise: Tokeniser | None = None,
    ) -> Callable[[], np.ndarray]:
        """About a millisecond an item (a WebNLG output and three references): large batches
        still go to the scoring processes (``scorer.parallel``)."""
        hypotheses = tokenised(hypotheses, tokenise)
        work: list[Work] = [
            (self.options, hyp, refs) for hyp, refs in zip(hypotheses, references, strict=True)
        ]
        finish = parallel.start(segment_rows, work)
        return lambda: np.asarray(finish(), dtype=float).reshape(len(work), 2)

    def score_from_totals(self, totals: np.ndarray) -> float:
        """Edits over reference words, as tercom and sacreBLEU (which then multiplies by 100)
        compute it; with no reference words, 1 if anything was edited, else 0."""
        edits, length = float(totals[0]), float(totals[1])
        if length > 0:
            return edits / length
        return 1.0 if edits > 0 else 0.0


@cache
def _sacrebleu_ter(options: Options) -> SacreTER:
    case_sensitive, normalized, no_punct, asian_support = options
    return SacreTER(
        case_sensitive=case_sensitive,
        normalized=normalized,
        no_punct=no_punct,
        asian_support=asian_support,
    )


REFERENCE_MEMO = 100_000
"""References whose words a scoring process remembers (a test set's come back every job)."""


@lru_cache(maxsize=REFERENCE_MEMO)
def _reference_words(options: Options, reference: str) -> tuple[str, ...]:
    """sacreBLEU's ``_extract_reference_info`` of one reference: its tokeniser's words. The
    items of a batch go to the same scoring process every job (``scorer.parallel``), so a
    worker tokenises a test set's references once, not in every job."""
    return tuple(_sacrebleu_ter(options)._preprocess_segment(reference).split())


def segment_rows(work: list[Work]) -> list[list[float]]:
    """(best number of edits, average reference length) of each (options, output, references),
    as sacreBLEU's ``TER._compute_segment_statistics``."""
    rows: list[list[float]] = []
    for options, hypothesis, references in work:
        ter = _sacrebleu_ter(options)
        words_hyp = ter._preprocess_segment(hypothesis).split()
        best_edits = int(1e16)
        lengths = 0
        for words_ref in [_reference_words(options, reference) for reference in references]:
            edits, length = translation_edit_rate(words_hyp, words_ref)
            lengths += length
            best_edits = min(best_edits, edits)
        rows.append([best_edits, lengths / len(references)])
    return rows


@register("TER", case_sensitive=FLAG, normalized=FLAG, no_punct=FLAG, asian_support=FLAG)
def make_tercom_ter(
    *,
    case_sensitive: bool = False,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
) -> TercomTER:
    return TercomTER(
        case_sensitive=case_sensitive,
        normalized=normalized,
        no_punct=no_punct,
        asian_support=asian_support,
    )
