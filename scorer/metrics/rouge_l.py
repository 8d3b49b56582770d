"""ROUGE-L as the COCO caption code computes it (what the E2E challenge reported).

Per item, over its references r_j (PTB-tokenised, see ``scorer.tokenizers.ptb``):

    P = max_j LCS(c, r_j) / |c|,   R = max_j LCS(c, r_j) / |r_j|
    ROUGE-L = (1 + b^2) P R / (R + b^2 P),  b = 1.2   (0 when P or R is 0)

and the corpus score is the mean over items. Tokens are split on single spaces as COCO does,
so an empty output is one empty token.

Citation: Lin (2004), ROUGE: A package for automatic evaluation of summaries, ACL workshop;
Chen et al. (2015), Microsoft COCO Captions: data collection and evaluation server.
"""

from __future__ import annotations

from collections.abc import Sequence

from rapidfuzz.distance import LCSseq

from scorer import __version__
from scorer.java import implementation
from scorer.metrics import register
from scorer.metrics.base import WORD_OVERLAP, MeanOfSegments, Traits
from scorer.references import PreparedCache, ReferenceSet
from scorer.tokenizers.ptb import ptb_tokenize, ptb_tokenize_references

BETA = 1.2


def rouge_l_segment(candidate: list[str], references: Sequence[list[str]]) -> float:
    precision = recall = 0.0
    for reference in references:
        lcs = LCSseq.similarity(candidate, reference)
        precision = max(precision, lcs / len(candidate))
        recall = max(recall, lcs / len(reference))
    if precision == 0 or recall == 0:
        return 0.0
    return (1 + BETA**2) * precision * recall / (recall + BETA**2 * precision)


def _split_references(references: ReferenceSet) -> list[list[list[str]]]:
    return [[text.split(" ") for text in item] for item in ptb_tokenize_references(references)]


_CACHE = PreparedCache()


class RougeL(MeanOfSegments):
    name = "ROUGE_L"
    traits = Traits(
        group=WORD_OVERLAP,
        glossary=(
            "F-measure (recall weighted, beta 1.2) of the longest common word subsequence with "
            "the references."
        ),
        tokens="ptb",
    )

    def __init__(self) -> None:
        self.signature = (
            "ROUGE_L|coco|beta:1.2|tok:ptb-corenlp-3.4.1-lc-nopunct"
            f"|{implementation.signature_part()}|nlgboard:{__version__}"
        )

    def segment_scores(self, hypotheses: Sequence[str], references: ReferenceSet) -> list[float]:
        refs = _CACHE.get(references, _split_references)
        candidates = [text.split(" ") for text in ptb_tokenize(hypotheses)]
        return [rouge_l_segment(c, r) for c, r in zip(candidates, refs, strict=True)]


@register("ROUGE_L")
def make_rouge_l() -> RougeL:
    return RougeL()
