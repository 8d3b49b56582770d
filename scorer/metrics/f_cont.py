"""F_CONT: token-embedding F1 under earth mover's alignment, formula in
``scorer.metrics.token_alignment``. Needs the ``semantic`` extra.

Citation: Jin & Gildea (2022), Rewarding semantic similarity under optimized alignments
for AMR-to-text generation, ACL, Eq. 3-5.
"""

from __future__ import annotations

from scorer.metrics import register
from scorer.metrics.base import SEMANTIC, Traits
from scorer.metrics.token_alignment import AlignmentF, continuous


class FCont(AlignmentF):
    name = "F_CONT"
    traits = Traits(
        group=SEMANTIC,
        glossary=("F1 of token embeddings aligned by earth mover's distance, x 100."),
        scale="0-100",
        embedding=True,
    )
    align = staticmethod(continuous)
    needs = ("ot",)


@register("F_CONT")
def make_f_cont() -> FCont:
    return FCont()
