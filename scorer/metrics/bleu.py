"""BLEU-4 as the E2E challenge's script reports it (mteval-v13a tokenisation, 0-1 scale).

    BLEU = BP * exp(sum_{n=1..4} 1/4 * log p_n),   BP = min(1, exp(1 - r/c))

p_n: modified n-gram precision with counts clipped by the maximum count in any reference;
r: closest reference length per segment summed over the corpus; c: hypothesis length.
The E2E metric script lowercases before mteval; so do we (this reproduces its dev figures).

Citation: Papineni et al. (2002), BLEU: a method for automatic evaluation of machine translation,
ACL; Post (2018), A call for clarity in reporting BLEU scores, WMT (sacrebleu).
"""

from __future__ import annotations

from collections.abc import Sequence

import sacrebleu

from scorer import __version__
from scorer.metrics import register
from scorer.metrics.base import MetricScore, reference_streams


class BLEU:
    """Corpus BLEU-4 via sacrebleu with the ``13a`` (mteval-v13a) tokeniser, lowercased."""

    name = "BLEU"

    def __init__(self) -> None:
        self._bleu = sacrebleu.BLEU(lowercase=True, tokenize="13a")

    def corpus_score(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
    ) -> MetricScore:
        result = self._bleu.corpus_score(list(hypotheses), reference_streams(references))
        signature = f"{self._bleu.get_signature()}|scale:0-1|nlgboard-scorer:{__version__}"
        return MetricScore(self.name, result.score / 100.0, signature)


@register("BLEU")
def make_bleu() -> BLEU:
    return BLEU()
