"""Track profiles: how a track's outputs are read, normalised and which metrics score them.

A registry keyed by the task kind (``e2e``; SR'18 and DRS kinds register here as they land), so
the web app, the worker and ``nlg-score`` all resolve the same behaviour from one name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scorer.errors import InputError
from scorer.io import e2e
from scorer.metrics import get_metric
from scorer.metrics.base import MetricScore


@dataclass(frozen=True)
class Profile:
    """Everything that decides a track's numbers; its id goes into every score's signature."""

    name: str
    metrics: tuple[str, ...]
    normalisation: str
    read_outputs: Callable[[bytes, Sequence[str], str], list[str]]

    def score(
        self, outputs: Sequence[str], references: Sequence[Sequence[str]]
    ) -> list[MetricScore]:
        """Score normalised outputs against per-item references with every profile metric."""
        if len(outputs) != len(references):
            raise ValueError(f"{len(outputs)} outputs for {len(references)} items")
        scores = []
        for name in self.metrics:
            score = get_metric(name).corpus_score(outputs, references)
            signature = f"{score.signature}|profile:{self.name}|norm:{self.normalisation}"
            scores.append(MetricScore(score.metric, score.value, signature))
        return scores


def read_e2e_outputs(data: bytes, inputs: Sequence[str], filename: str) -> list[str]:
    """Read E2E outputs and check them against the test MRs: one output per MR, in order."""
    outputs, mrs = e2e.read_outputs(data, filename)
    header_lines = 1 if mrs is not None else 0
    if len(outputs) != len(inputs):
        raise InputError(
            f"expected {len(inputs)} outputs (one per test MR, in test order), "
            f"found {len(outputs)}" + (" after the 'MR<TAB>output' header" if header_lines else ""),
            filename=filename,
        )
    if mrs is not None:
        for index, (found, expected) in enumerate(zip(mrs, inputs)):
            if _mr_key(found) != _mr_key(expected):
                raise InputError(
                    f"MR {found[:80]!r} does not match test MR {index + 1} {expected[:80]!r}; "
                    "outputs must follow the test-set order",
                    filename=filename,
                    line=index + 1 + header_lines,
                )
    return [_strip_output(output) for output in outputs]


def _mr_key(mr: str) -> str:
    return " ".join(mr.strip().strip("'\"").split())


def _strip_output(output: str) -> str:
    return " ".join(output.split())


PROFILES: dict[str, Profile] = {
    "e2e": Profile(
        name="e2e",
        metrics=("BLEU",),
        normalisation="ws",
        read_outputs=read_e2e_outputs,
    ),
}


def get_profile(name: str) -> Profile:
    """Look a profile up by name, with the list of known names in the error."""
    try:
        return PROFILES[name]
    except KeyError:
        raise KeyError(f"unknown profile {name!r}; known: {', '.join(sorted(PROFILES))}") from None
