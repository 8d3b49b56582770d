"""Synthetic human-evaluation campaigns whose true system ordering is known."""

from __future__ import annotations

import numpy as np

from scorer.human.judgements import Judgement


def rankme_campaign(
    quality: dict[str, float], rankings: int, noise: float = 15.0, seed: int = 0
) -> list[dict[str, float]]:
    """RankME rows: five random systems per row, score = quality + noise, rounded, 0-100."""
    rng = np.random.default_rng(seed)
    names = list(quality)
    rows = []
    for _ in range(rankings):
        chosen = rng.choice(len(names), size=5, replace=False)
        rows.append(
            {
                names[i]: float(np.clip(round(quality[names[i]] + rng.normal(0, noise)), 0, 100))
                for i in chosen
            }
        )
    return rows


def da_hit(
    annotator: str,
    quality: dict[str, float],
    items: int,
    *,
    careful: bool,
    seed: int,
    criterion: str = "readability",
) -> list[Judgement]:
    """One annotator's DA judgements with repeats, damaged copies and references.

    A careful annotator scores near the true quality and damaged copies 40 points lower; a
    careless one scores at random.
    """
    rng = np.random.default_rng(seed)

    def score(value: float) -> float:
        if not careful:
            return float(rng.integers(0, 101))
        return float(np.clip(round(value + rng.normal(0, 8)), 0, 100))

    judgements = []
    for number in range(items):
        item = f"i{number}"
        for system, value in quality.items():
            judgements.append(Judgement(item, system, annotator, criterion, score(value)))
    for number in range(7):
        system = list(quality)[number % len(quality)]
        value = quality[system]
        judgements.append(
            Judgement(f"i{number}", system, annotator, criterion, score(value), kind="repeat")
        )
        judgements.append(
            Judgement(f"i{number}", system, annotator, criterion, score(value - 40), "damaged")
        )
        judgements.append(
            Judgement(f"i{number}", "reference", annotator, criterion, score(95), "reference")
        )
    return judgements
