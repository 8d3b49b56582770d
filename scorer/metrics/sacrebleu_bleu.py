"""BLEU-4 as sacreBLEU computes it (13a tokenisation, mixed case, exponential smoothing), on the
0-100 scale the DRS-to-text papers print (Wang et al. 2021 Table 3; Zhang et al. 2024 Table 5).

    BLEU = BP * exp( (1/4) * sum_{n=1..4} log p_n ),   BP = exp(min(0, 1 - r / c))

p_n = clipped n-gram matches / hypothesis n-grams summed over the corpus, r = summed closest
reference lengths, c = hypothesis length. Per-item statistics are sacreBLEU's own, so the figure
equals ``sacrebleu -m bleu`` on the same files.

Citation: Papineni, Roukos, Ward & Zhu (2002), BLEU: a method for automatic evaluation of
machine translation, ACL; Post (2018), A call for clarity in reporting BLEU scores, WMT.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import sacrebleu
from sacrebleu.metrics import BLEU

from scorer import __version__
from scorer.metrics import register
from scorer.metrics.base import WORD_OVERLAP, Metric, Traits, reference_streams
from scorer.references import ReferenceSet


class SacreBLEU(Metric):
    name = "BLEU"
    traits = Traits(
        group=WORD_OVERLAP,
        glossary="Word n-gram overlap (1 to 4) with the reference, x 100 (sacreBLEU's BLEU).",
        scale="0-100",
    )

    def __init__(self) -> None:
        self._bleu = BLEU()
        self.signature = (
            f"BLEU|sacrebleu:{sacrebleu.__version__}|nrefs:var|case:mixed|eff:no|tok:13a"
            f"|smooth:exp|scale:0-100|nlgboard:{__version__}"
        )

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        stats = self._bleu._extract_corpus_statistics(
            list(hypotheses), reference_streams(references.items)
        )
        return np.asarray(stats, dtype=float)

    def score_from_totals(self, totals: np.ndarray) -> float:
        return float(self._bleu._compute_score_from_stats(list(totals)).score)


@register("BLEU-sacre")
def make_sacrebleu_bleu() -> SacreBLEU:
    return SacreBLEU()
