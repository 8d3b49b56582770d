"""What every metric provides: per-item sufficient statistics and a score from their sums.

As in sacrebleu, a corpus score is a function of *summed* per-item statistics. That one shape
serves the corpus score (sum over all items) and paired bootstrap resampling (sum over a
resample, no re-tokenising), and lets reference-side work be cached per test set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, cast

import numpy as np

from scorer.references import ReferenceSet, as_reference_set

Tokeniser = Callable[[str], str]
"""A per-metric tokeniser (``scorer.kinds.parts.TOKENISERS``): text in, space-joined tokens out."""


def tokenised(hypotheses: Sequence[str], tokenise: Tokeniser | None) -> Sequence[str]:
    """The outputs tokenised by ``tokenise``, or as they are without one."""
    return hypotheses if tokenise is None else [tokenise(text) for text in hypotheses]


@dataclass(frozen=True)
class MetricScore:
    """One corpus-level figure and the signature that makes it comparable with another."""

    metric: str
    value: float
    signature: str


WORD_OVERLAP = "word overlap"
"""n-gram overlap with the references, of words or characters (BLEU, METEOR, ROUGE, chrF ...)."""
EDIT_DISTANCE = "edit distance"
"""Edits that turn the output into a reference (TER, SR'18's DIST)."""
SEMANTIC = "semantic accuracy"
"""Whether the output says what the input says (slot errors, DRS-to-text's embedding F1s)."""
LEARNED = "learned"
"""Scores of trained models (BERTScore, BLEURT)."""
COVERAGE = "coverage"
"""Which inputs have an output at all."""


@dataclass(frozen=True)
class Traits:
    """What a metric is, declared on its class (sacrebleu keeps these on the metric): what
    profiles, the worker and the glossary need to know of it without computing it."""

    glossary: str = ""
    """What the figure means, in a sentence or two, for the challenge pages' glossary (the
    formula and the citation stay in the module)."""
    higher_is_better: bool = True
    scale: str = "0-1"
    """The figure's range as shown (``0-1``, ``0-100``, ``%``, ``x100`` of another metric's,
    ``unbounded``)."""
    cost: Literal["fast", "slow"] = "fast"
    """``slow``: computed in other processes (the jar's JVMs, forked Python scorers), started
    first so that the other metrics run meanwhile."""
    tokens: Literal["own", "ptb"] = "own"
    """``ptb``: reads CoreNLP's PTB tokens of the outputs, tokenised once for every such
    metric; ``own``: tokenises (or not) by itself."""
    embedding: bool = False
    """Whether it embeds texts with the model of the ``semantic`` extra (loaded at start-up)."""
    group: str = ""
    """The family a table shows it in (``WORD_OVERLAP``, ``EDIT_DISTANCE`` ...): a kind's
    columns stand in contiguous groups, derived from these unless the kind declares its own."""


class Metric:
    """Base class: subclasses set ``name``/``signature``/``traits`` and implement the two hooks."""

    name: str = ""
    signature: str = ""
    traits: Traits = Traits()
    needs_inputs: bool = False
    """Whether ``segment_statistics`` reads ``references.inputs`` (skipped when absent)."""
    reads_as_read: bool = False
    """Whether the metric reads the outputs as the file had them rather than normalised by the
    profile (``scorer.normalise.Outputs``): SER, whose official script reads the file itself."""
    absent_reason: str = ""
    """For an optional metric: what computing it needs, said where it is absent."""

    @property
    def higher_is_better(self) -> bool:
        return self.traits.higher_is_better

    @classmethod
    def available(cls) -> bool:
        """Whether this installation can compute the metric (optional extras)."""
        return True

    def warm_up(self) -> Callable[[], None] | None:
        """What loads this metric's heavy parts (a process's start-up calls each one once), or
        None."""
        return None

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        """One row of additive statistics per item (shape: items x k)."""
        raise NotImplementedError

    def score_from_totals(self, totals: np.ndarray) -> float:
        """The corpus score from column sums of ``segment_statistics`` rows."""
        raise NotImplementedError

    def begin_statistics(
        self,
        hypotheses: Sequence[str],
        references: ReferenceSet,
        tokenise: Tokeniser | None = None,
    ) -> Callable[[], np.ndarray]:
        """Start ``segment_statistics`` and return what finishes it: metrics that score in
        other processes start them here, so the caller can compute other metrics meanwhile.
        ``tokenise``: the outputs are still to be tokenised by it (the references are
        tokenised): here at once, or by the scoring processes on their own shares, in parallel
        and while the caller goes on (the metrics that send their work there)."""
        hypotheses = tokenised(hypotheses, tokenise)
        return lambda: self.segment_statistics(hypotheses, references)

    def corpus_score(
        self, hypotheses: Sequence[str], references: ReferenceSet | Sequence[Sequence[str]]
    ) -> MetricScore:
        references = as_reference_set(references)
        if len(hypotheses) != len(references):
            raise ValueError(f"{len(hypotheses)} outputs for {len(references)} items")
        stats = self.segment_statistics(hypotheses, references)
        value = float(self.score_from_totals(stats.sum(axis=0)))
        return MetricScore(self.name, value, self.signature)


class MeanOfSegments(Metric):
    """A metric whose corpus score is the mean of per-item scores (ROUGE-L, CIDEr, DIST_char)."""

    def segment_scores(self, hypotheses: Sequence[str], references: ReferenceSet) -> list[float]:
        raise NotImplementedError

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        return mean_rows(self.segment_scores(hypotheses, references))

    def score_from_totals(self, totals: np.ndarray) -> float:
        return float(totals[0] / totals[1]) if totals[1] else 0.0


def mean_rows(scores: Sequence[float]) -> np.ndarray:
    """A ``MeanOfSegments`` metric's per-item statistics: (score, 1) per item."""
    return np.column_stack([np.asarray(scores, dtype=float), np.ones(len(scores))])


def reference_streams(references: Sequence[Sequence[str]]) -> list[list[str]]:
    """sacrebleu's per-position reference streams, padded with None for missing references
    (sacrebleu's own convention, though its annotations say ``str``)."""
    depth = max((len(refs) for refs in references), default=0)
    padded = [[refs[k] if k < len(refs) else None for refs in references] for k in range(depth)]
    return cast(list[list[str]], padded)
