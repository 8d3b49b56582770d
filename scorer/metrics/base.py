"""What every metric provides: a corpus score over multi-reference items, and a signature."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class MetricScore:
    """One corpus-level figure and the signature that makes it comparable with another."""

    metric: str
    value: float
    signature: str


class Metric(Protocol):
    """A corpus-level metric. ``references[i]`` holds every reference of item ``i``."""

    name: str

    def corpus_score(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
    ) -> MetricScore: ...


def reference_streams(references: Sequence[Sequence[str]]) -> list[list[str | None]]:
    """Turn per-item reference lists into sacrebleu's per-position streams, padded with None.

    Items keep all their references (E2E: 2 to 43 per MR); None marks "no k-th reference".
    """
    depth = max((len(refs) for refs in references), default=0)
    return [[refs[k] if k < len(refs) else None for refs in references] for k in range(depth)]
