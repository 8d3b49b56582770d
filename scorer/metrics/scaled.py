"""A metric shown on another scale: the DRS-to-text papers print METEOR and ROUGE-L x100
(Wang et al. 2021 Table 3: 51.8, 84.9) where the E2E scripts print 0-1 (0.4703, 0.7257).
Same statistics, same computation; only the figure and its signature change."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from scorer.metrics import get_metric, register
from scorer.metrics.base import Metric, Tokeniser
from scorer.references import ReferenceSet
from scorer.signature import Signature


class Scaled(Metric):
    def __init__(self, base: Metric, factor: float) -> None:
        self._base = base
        self._factor = factor
        self.name = base.name
        self.needs_inputs = base.needs_inputs
        self.reads_as_read = base.reads_as_read
        self.signature = str(Signature.parse(base.signature).scaled(factor))
        self.traits = replace(
            base.traits, scale=f"x{factor:g}", glossary=f"{base.traits.glossary} x {factor:g}."
        )

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        return self._base.segment_statistics(hypotheses, references)

    def warm_up(self) -> Callable[[], None] | None:
        return self._base.warm_up()

    def begin_statistics(
        self,
        hypotheses: Sequence[str],
        references: ReferenceSet,
        tokenise: Tokeniser | None = None,
    ) -> Callable[[], np.ndarray]:
        return self._base.begin_statistics(hypotheses, references, tokenise)

    def score_from_totals(self, totals: np.ndarray) -> float:
        return self._factor * float(self._base.score_from_totals(totals))


@register("METEOR-x100")
def make_meteor_x100() -> Scaled:
    return Scaled(get_metric("METEOR"), 100)


@register("ROUGE_L-x100")
def make_rouge_l_x100() -> Scaled:
    return Scaled(get_metric("ROUGE_L"), 100)
