"""F_DISC: token-embedding F1 under one-to-one assignment, formula in
``scorer.metrics.token_alignment``. Needs the ``semantic`` extra.

Citation: Jin & Gildea (2022), Rewarding semantic similarity under optimized alignments
for AMR-to-text generation, ACL, Eq. 1-2.
"""

from __future__ import annotations

from scorer.metrics import register
from scorer.metrics.base import SEMANTIC, Traits
from scorer.metrics.token_alignment import AlignmentF, discrete


class FDisc(AlignmentF):
    name = "F_DISC"
    traits = Traits(
        group=SEMANTIC,
        glossary=("F1 of token embeddings aligned one to one (optimal assignment), x 100."),
        scale="0-100",
        embedding=True,
    )
    align = staticmethod(discrete)
    needs = ("scipy",)


@register("F_DISC")
def make_f_disc() -> FDisc:
    return FDisc()
