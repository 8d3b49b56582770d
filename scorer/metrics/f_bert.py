"""F_BERT: token-embedding F1 under greedy alignment, formula in
``scorer.metrics.token_alignment``. Needs the ``semantic`` extra.

Citation: Zhang, Kishore, Wu, Weinberger & Artzi (2019), BERTScore: Evaluating text
generation with BERT, ICLR.
"""

from __future__ import annotations

from scorer.metrics import register
from scorer.metrics.base import SEMANTIC, Traits
from scorer.metrics.token_alignment import AlignmentF, greedy


class FBert(AlignmentF):
    name = "F_BERT"
    traits = Traits(
        group=SEMANTIC,
        glossary=(
            "F1 of greedily aligned token embeddings (all-MiniLM-L6-v2) of output and reference, "
            "x 100."
        ),
        scale="0-100",
        embedding=True,
    )
    align = staticmethod(greedy)


@register("F_BERT")
def make_f_bert() -> FBert:
    return FBert()
