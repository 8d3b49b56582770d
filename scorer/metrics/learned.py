"""Learned metrics WebNLG+ 2020 reported, computed by their own packages from weights installed
on this machine, never downloaded at run time: BERTScore (``bert-score``, roberta-large, layer
17, no IDF, no rescaling: ``score(hyps, refs, lang="en")`` as eval.py calls it; P, R and F1 are
each the maximum over an item's references, the corpus figure their mean) and BLEURT (the
``bleurt`` package and a checkpoint, bleurt-base-128 in eval.py: each output against each of its
first N references, the item's maximum, the mean). Without the package or the weights a metric
is *absent*: pages and ``nlg-score`` say so and what to install; nothing is guessed.

Weights: ``NLGBOARD_BERTSCORE_MODEL`` (a local copy of roberta-large in the Hugging Face layout)
and ``NLGBOARD_BLEURT_CHECKPOINT`` (a BLEURT checkpoint folder).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from scorer import __version__
from scorer.metrics import Bound, register
from scorer.metrics.base import LEARNED, Metric, Traits
from scorer.references import LastResult, ReferenceSet

BERTSCORE_LAYERS = 17
"""bert-score's layer for roberta-large (its ``model2layers``), what ``lang="en"`` picks."""


def _installed(package: str, variable: str) -> Path | None:
    folder = os.environ.get(variable)
    if importlib.util.find_spec(package) is None or not folder or not Path(folder).is_dir():
        return None
    return Path(folder)


_bertscores = LastResult()


def _bertscore_rows(hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
    model = _installed("bert_score", "NLGBOARD_BERTSCORE_MODEL")
    assert model is not None, "BERTScore is absent here"

    def compute(outputs: tuple[str, ...]) -> np.ndarray:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        refs = [[r for r in refs if r.strip()] for refs in references]
        p, r, f = _bertscorer(str(model)).score(list(outputs), refs)
        return np.column_stack([p.numpy(), r.numpy(), f.numpy()]).astype(float)

    return _bertscores.get(hypotheses, references, compute)


class BERTScore(Metric):
    """One of BERTScore's P, R, F1 (item rows: the value and 1)."""

    absent_reason = (
        "needs the bert-score package and roberta-large's weights in NLGBOARD_BERTSCORE_MODEL"
    )

    def __init__(self, part: str) -> None:
        self.part = part
        self.name = f"BERTScore-{part}"
        what = {"P": "precision", "R": "recall", "F1": "F1"}[part]
        self.traits = Traits(
            group=LEARNED,
            glossary=f"BERTScore's {what} of greedily matched roberta-large token embeddings of "
            "output and reference (layer 17, no idf, no rescaling), best over the references.",
        )
        self.signature = (
            f"{self.name}|roberta-large_L{BERTSCORE_LAYERS}_no-idf_no-rescale|refs:max"
            f"|nlgboard:{__version__}"
        )

    @classmethod
    def available(cls) -> bool:
        return _installed("bert_score", "NLGBOARD_BERTSCORE_MODEL") is not None

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        column = ("P", "R", "F1").index(self.part)
        values = _bertscore_rows(hypotheses, references)[:, column]
        return np.column_stack([values, np.ones(len(values))])

    def score_from_totals(self, totals: np.ndarray) -> float:
        return float(totals[0] / totals[1]) if totals[1] else 0.0


class BLEURT(Metric):
    """BLEURT as eval.py runs it: the best of an item's first ``references`` references."""

    name = "BLEURT"
    traits = Traits(
        group=LEARNED,
        glossary=(
            "A learned rating of the output against a reference (BLEURT, as WebNLG 2020's "
            "eval.py runs it: the best over the item's first references)."
        ),
        scale="unbounded",
    )
    absent_reason = "needs the bleurt package and a checkpoint in NLGBOARD_BLEURT_CHECKPOINT"

    def __init__(self, references: int) -> None:
        self.references = references
        checkpoint = os.environ.get("NLGBOARD_BLEURT_CHECKPOINT", "")
        self.signature = (
            f"BLEURT|checkpoint:{Path(checkpoint).name or 'none'}|refs:max-of-{references}"
            f"|nlgboard:{__version__}"
        )

    @classmethod
    def available(cls) -> bool:
        return _installed("bleurt", "NLGBOARD_BLEURT_CHECKPOINT") is not None

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        checkpoint = _installed("bleurt", "NLGBOARD_BLEURT_CHECKPOINT")
        assert checkpoint is not None, "BLEURT is absent here"
        pairs = [(hyp, ref) for hyp, refs in zip(hypotheses, references, strict=True)
                 for ref in refs[: self.references]]  # fmt: skip
        scores: Any = _bleurt_scorer(str(checkpoint)).score(
            references=[ref for _, ref in pairs], candidates=[hyp for hyp, _ in pairs]
        )
        best, at = [], 0
        for refs in references:
            count = len(refs[: self.references])
            best.append(max(scores[at : at + count]))
            at += count
        return np.column_stack([np.asarray(best, dtype=float), np.ones(len(best))])

    def score_from_totals(self, totals: np.ndarray) -> float:
        return float(totals[0] / totals[1]) if totals[1] else 0.0


@lru_cache(maxsize=1)
def _bertscorer(model: str) -> Any:
    """Loaded once per process (``bert_score.score`` builds one per call): the same model,
    layer and options as that function's."""
    from bert_score import BERTScorer

    return BERTScorer(model_type=model, num_layers=BERTSCORE_LAYERS)


@lru_cache(maxsize=1)
def _bleurt_scorer(checkpoint: str) -> Any:
    """Loaded once per process: a worker scores many submissions with the same checkpoint."""
    from bleurt import score

    return score.BleurtScorer(checkpoint)


@register("BERTScore-P")
def make_bertscore_p() -> BERTScore:
    return BERTScore("P")


@register("BERTScore-R")
def make_bertscore_r() -> BERTScore:
    return BERTScore("R")


@register("BERTScore-F1")
def make_bertscore_f1() -> BERTScore:
    return BERTScore("F1")


@register("BLEURT", references=Bound(int, 1, 100))
def make_bleurt(*, references: int = 4) -> BLEURT:
    return BLEURT(references)
