"""DIST for SR'18, in the two readings that disagree; both single-reference (the first one).

``DIST`` -- what the official SR'18 script (eval_Py3.py, Bohnet & Mille) computed, and so what the
published SR'18 tables show: lowercased, split on whitespace, token-level edit distance summed
over the corpus:

    DIST = 100 * (1 - sum_i lev_tokens(h_i, r_i) / sum_i max(|h_i|, |r_i|))

``DIST_char`` -- what the SR'18 overview paper (Sect. 3.1) describes: character-level edit
distance (inserts, deletes, substitutions at cost 1; spaces and punctuation count), divided by
the reference's length in characters, subtracted from 1, and averaged over sentences, on text
lowercased with whitespace collapsed (the paper's normalisation):

    DIST_char = 100 * mean_i ( 1 - lev_chars(h_i, r_i) / |r_i| )

(it can be negative for an output much longer than its reference). On one English dev output the
two give 0.769 vs 0.899, so the name says which one a number is. Both are x 100, as the SR'18
tables print them.

Citation: Mille, Belz, Bohnet, Graham, Pitler & Wanner (2018), The First Multilingual Surface
Realisation Shared Task (SR'18): Overview and Evaluation Results, MSR workshop.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from rapidfuzz.distance import Levenshtein

from scorer import __version__
from scorer.metrics import register
from scorer.metrics.base import COVERAGE, EDIT_DISTANCE, MeanOfSegments, Metric, Traits
from scorer.references import ReferenceSet


class Dist(Metric):
    name = "DIST"
    traits = Traits(
        group=EDIT_DISTANCE,
        glossary=(
            "Token-level edit-distance similarity with the reference, x 100 (SR'18's official "
            "script: lowercased, summed over the corpus)."
        ),
        scale="0-100",
    )
    signature = (
        f"DIST|sr18-eval_Py3|token-level|corpus|lc|ref:first|scale:0-100|nlgboard:{__version__}"
    )

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        rows = []
        for hypothesis, refs in zip(hypotheses, references, strict=True):
            hyp_tokens = hypothesis.lower().split()
            ref_tokens = refs[0].lower().split()
            rows.append(
                (
                    Levenshtein.distance(hyp_tokens, ref_tokens),
                    max(len(hyp_tokens), len(ref_tokens)),
                )
            )
        return np.asarray(rows, dtype=float).reshape(len(rows), 2)

    def score_from_totals(self, totals: np.ndarray) -> float:
        return 100.0 * (1.0 - totals[0] / totals[1]) if totals[1] else 0.0


class DistChar(MeanOfSegments):
    name = "DIST_char"
    traits = Traits(
        group=EDIT_DISTANCE,
        glossary=(
            "Character-level edit-distance similarity with the reference, averaged over "
            "sentences, x 100 (as the SR'18 overview paper describes it)."
        ),
        scale="0-100",
    )
    signature = (
        "DIST_char|sr18-paper|char-level|sentence-mean|lc|ws|ref:first|scale:0-100"
        f"|nlgboard:{__version__}"
    )

    def segment_scores(self, hypotheses: Sequence[str], references: ReferenceSet) -> list[float]:
        scores = []
        for hypothesis, refs in zip(hypotheses, references, strict=True):
            hyp, reference = _normalise(hypothesis), _normalise(refs[0])
            distance = Levenshtein.distance(hyp, reference)
            score = 1.0 - distance / len(reference) if reference else float(not hyp)
            scores.append(100.0 * score)
        return scores


class Coverage(MeanOfSegments):
    """Share of items with a non-empty output (SR'18: missing outputs score 0), x 100."""

    name = "coverage"
    traits = Traits(
        group=COVERAGE,
        glossary="Share of inputs with a non-empty output, in % (a missing output scores 0).",
        scale="%",
    )
    signature = f"coverage|non-empty outputs|scale:0-100|nlgboard:{__version__}"

    def segment_scores(self, hypotheses: Sequence[str], references: ReferenceSet) -> list[float]:
        return [100.0 if hypothesis.strip() else 0.0 for hypothesis in hypotheses]


def _normalise(text: str) -> str:
    return " ".join(text.split()).lower()


@register("DIST")
def make_dist() -> Dist:
    return Dist()


@register("DIST_char")
def make_dist_char() -> DistChar:
    return DistChar()


@register("coverage")
def make_coverage() -> Coverage:
    return Coverage()
