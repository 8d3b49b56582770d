"""METEOR 1.5 as the E2E challenge (through the COCO caption code) ran it.

Each item's alignment statistics (``-l en -norm``, exact/stem/synonym/paraphrase modules) are
those of the ``meteor-1.5.jar`` shipped in pycocoevalcap, on PTB-tokenised, lowercased,
punctuation-free text, exactly as COCO's ``meteor.py`` feeds it. By default they come from the
Python port (``scorer.meteor``, the jar's statistics number for number, no Java); with
``NLGBOARD_METEOR=jar`` (``nlg-score --meteor jar``) from the jar itself, in warm JVMs. The
corpus score is METEOR's aggregate over the summed statistics (a perfectly matched item adds no
chunk):

    P = sum_i w_i (d m_i,c^t + (1-d) m_i,f^t) / (d |t_c| + (1-d) |t_f|)      (R likewise)
    Fmean = P R / (a P + (1-a) R),  Pen = g (chunks / mean matched words)^b
    METEOR = Fmean (1 - Pen),   a=0.85 b=0.20 g=0.60 d=0.75, w = 1.0 0.6 0.8 0.6

computed here from the statistics (checked against the jar's own EVAL in the tests), so that
bootstrap resampling needs neither. The jar's warm JVMs are ``scorer.meteor.jar``.

Citation: Denkowski & Lavie (2014), Meteor Universal: Language specific translation evaluation
for any target language, WMT; Chen et al. (2015), Microsoft COCO Captions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from scorer import __version__
from scorer.java import implementation
from scorer.meteor.jar import (
    STATS_LENGTH,
    additive_row,
    meteor_from_totals,
    parse_stats,
    pool,
    score_line,
)
from scorer.metrics import register
from scorer.metrics.base import WORD_OVERLAP, Metric, Tokeniser, Traits, tokenised
from scorer.references import ReferenceSet
from scorer.tokenizers.ptb import ptb_tokenize, ptb_tokenize_references


def _score_lines(hypotheses: Sequence[str], references: ReferenceSet) -> list[str]:
    """COCO's requests: PTB-tokenised outputs against their PTB-tokenised references."""
    refs = ptb_tokenize_references(references)
    return [score_line(h, r) for h, r in zip(ptb_tokenize(hypotheses), refs, strict=True)]


def _rows(stats: Sequence[Sequence[float]]) -> np.ndarray:
    rows = [additive_row(row) for row in stats]
    return np.asarray(rows, dtype=float).reshape(len(rows), STATS_LENGTH)


class Meteor(Metric):
    name = "METEOR"
    traits = Traits(
        group=WORD_OVERLAP,
        glossary="Matches words of the output with the best reference by exact form, stem, WordNet "
        "synonym and paraphrase (METEOR 1.5): a recall-weighted F-mean with a penalty for "
        "matches in a different order.",
        cost="slow",
        tokens="ptb",
    )

    def __init__(self) -> None:
        self.signature = (
            "METEOR|meteor-1.5|l:en|norm|tok:ptb-corenlp-3.4.1-lc-nopunct"
            f"|{implementation.signature_part()}|nlgboard:{__version__}"
        )

    def warm_up(self) -> Callable[[], None] | None:
        from scorer.meteor.jar import warm_up

        return warm_up

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        return self.begin_statistics(hypotheses, references)()

    def begin_statistics(
        self,
        hypotheses: Sequence[str],
        references: ReferenceSet,
        tokenise: Tokeniser | None = None,
    ) -> Callable[[], np.ndarray]:
        """The Python port's scoring processes, or the jar's JVMs (driven from a thread, which
        also runs the jar's tokeniser), start on the segments now."""
        hypotheses = tokenised(hypotheses, tokenise)
        if implementation.uses_jar():
            background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jvm-metric")
            future = background.submit(self._jar_statistics, hypotheses, references)
            background.shutdown(wait=False)
            return future.result
        from scorer.meteor.scoring import start_scoring

        finish = start_scoring(_score_lines(hypotheses, references))
        return lambda: _rows(finish())

    @staticmethod
    def _jar_statistics(hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        lines = _score_lines(hypotheses, references)
        return _rows([parse_stats(line) for line in pool().statistics(lines)])

    def score_from_totals(self, totals: np.ndarray) -> float:
        return meteor_from_totals(totals)


@register("METEOR")
def make_meteor() -> Meteor:
    return Meteor()
