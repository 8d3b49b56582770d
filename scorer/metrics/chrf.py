"""chrF (sacrebleu): character n-gram F-score, multi-reference, on sacrebleu's 0-100 scale.

    chrF_beta = (1 + beta^2) chrP chrR / (beta^2 chrP + chrR),  n = 1..6, beta = 2

sacrebleu's defaults and its per-item statistics (best reference per item), so the figure equals
``sacrebleu -m chrf`` on the same files.

Citation: Popović (2015), chrF: character n-gram F-score for automatic MT evaluation, WMT;
Post (2018), A call for clarity in reporting BLEU scores, WMT.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import sacrebleu
from sacrebleu.metrics import CHRF

from scorer import __version__
from scorer.metrics import register
from scorer.metrics.base import WORD_OVERLAP, Metric, Traits, reference_streams
from scorer.references import ReferenceSet


class ChrF(Metric):
    name = "chrF"
    traits = Traits(
        group=WORD_OVERLAP,
        glossary="Character n-gram F-score (up to 6-grams, recall weighted, beta 2), sacreBLEU's.",
        scale="0-100",
    )

    def __init__(self) -> None:
        self._chrf = CHRF()
        self.signature = (
            f"chrF|c:{self._chrf.char_order}|w:{self._chrf.word_order}|b:{self._chrf.beta}"
            f"|case:mixed|eff:yes|nrefs:var|sacrebleu:{sacrebleu.__version__}|scale:0-100"
            f"|nlgboard:{__version__}"
        )

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        stats = self._chrf._extract_corpus_statistics(
            list(hypotheses), reference_streams(references.items)
        )
        return np.asarray(stats, dtype=float)

    def score_from_totals(self, totals: np.ndarray) -> float:
        return float(self._chrf._compute_score_from_stats(list(totals)).score)


@register("chrF")
def make_chrf() -> ChrF:
    return ChrF()
