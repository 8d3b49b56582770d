"""ROUGE-1, ROUGE-2, ROUGE-L and ROUGE-Lsum as Google's ``rouge-score`` package computes them
(what GEM and summarisation tasks report), F-measure, 0-1.

Per item, ``RougeScorer.score_multi``: each reference scored (its default tokeniser: lowercase,
every run of characters other than ``a-z0-9`` a separator; the Porter stemmer with
``use_stemmer``), the one with the highest F-measure kept (the first of equal ones). ROUGE-N
counts clipped n-gram matches; ROUGE-L is the longest common subsequence; ROUGE-Lsum the
summary-level LCS over sentences given one per line (an output here is one line, so it differs
from ROUGE-L only where a text holds line breaks). The corpus figure is the mean over items (the
package's bootstrap aggregator draws random resamples; its "mid" is not reproducible).

These are not COCO's ``ROUGE_L`` (beta 1.2 on PTB tokens, the E2E figure), which keeps its id.

The package is the ``rouge`` extra (the server has it): it is published only as a source
distribution, which pip builds in an environment of its own (~3 s of the participants' install).
Without it these columns are left out, saying which extra brings them, as the embedding metrics
are without ``semantic``.

Citation: Lin (2004), ROUGE: A package for automatic evaluation of summaries, ACL workshop;
google-research/rouge (``rouge-score`` 0.1.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from importlib.util import find_spec
from typing import Any

from scorer import __version__
from scorer.extras import require
from scorer.metrics import FLAG, register
from scorer.metrics.base import WORD_OVERLAP, MeanOfSegments, Traits
from scorer.references import ReferenceSet

ROUGE_TYPES = {
    "ROUGE-1": "rouge1",
    "ROUGE-2": "rouge2",
    "ROUGE-L": "rougeL",
    "ROUGE-Lsum": "rougeLsum",
}


ROUGE_MEANINGS = {
    "ROUGE-1": "F-measure of the word unigrams shared with the best reference "
    "(Google's rouge-score), averaged over outputs.",
    "ROUGE-2": "F-measure of the word bigrams shared with the best reference "
    "(Google's rouge-score), averaged over outputs.",
    "ROUGE-L": "F-measure of the longest common word subsequence with the best reference "
    "(Google's rouge-score), averaged over outputs.",
    "ROUGE-Lsum": "ROUGE-L over the texts' lines taken as sentences, summary-level "
    "(Google's rouge-score), averaged over outputs.",
}


def _package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rouge-score")
    except PackageNotFoundError:
        return "not-installed"


class GoogleRouge(MeanOfSegments):
    absent_reason = "Google's ROUGE needs the rouge extra: pip install 'nlgboard[rouge]'"

    def __init__(self, name: str, *, use_stemmer: bool = False) -> None:
        self.name = name
        self.rouge_type = ROUGE_TYPES[name]
        self.traits = Traits(group=WORD_OVERLAP, glossary=ROUGE_MEANINGS[name])
        self.use_stemmer = use_stemmer
        self.signature = (
            f"{name}|rouge-score:{_package_version()}|F|stem:{'porter' if use_stemmer else 'no'}"
            f"|tok:default|best-ref:F|mean|scale:0-1|nlgboard:{__version__}"
        )

    @classmethod
    def available(cls) -> bool:
        return find_spec("rouge_score") is not None

    @cached_property
    def _scorer(self) -> Any:
        package = require("rouge_score.rouge_scorer", "rouge", self.name)
        return package.RougeScorer([self.rouge_type], use_stemmer=self.use_stemmer)

    def segment_scores(self, hypotheses: Sequence[str], references: ReferenceSet) -> list[float]:
        scorer = self._scorer
        return [
            float(scorer.score_multi(list(refs), hyp)[self.rouge_type].fmeasure)
            for hyp, refs in zip(hypotheses, references, strict=True)
        ]


@register("ROUGE-1", use_stemmer=FLAG)
def make_rouge_1(*, use_stemmer: bool = False) -> GoogleRouge:
    return GoogleRouge("ROUGE-1", use_stemmer=use_stemmer)


@register("ROUGE-2", use_stemmer=FLAG)
def make_rouge_2(*, use_stemmer: bool = False) -> GoogleRouge:
    return GoogleRouge("ROUGE-2", use_stemmer=use_stemmer)


@register("ROUGE-L", use_stemmer=FLAG)
def make_rouge_l(*, use_stemmer: bool = False) -> GoogleRouge:
    return GoogleRouge("ROUGE-L", use_stemmer=use_stemmer)


@register("ROUGE-Lsum", use_stemmer=FLAG)
def make_rouge_lsum(*, use_stemmer: bool = False) -> GoogleRouge:
    return GoogleRouge("ROUGE-Lsum", use_stemmer=use_stemmer)
