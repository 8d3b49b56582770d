"""ROSE (Wang et al., 2021, Sect. 4.2): semantics x grammaticality x phenomenon.

Each output gets three binary judgements: semantics (the meaning reflects the DRS), grammaticality
(grammatical and spelled right, possibly gibberish) and phenomenon (the challenge phenomenon --
tense, polarity, number, name, quantity -- is generated at all). ROSE is their product: 1 only for
an output perfect on all three. With several annotators per output each dimension is first
averaged over them, ROSE taken per annotator and averaged the same way. Results are percentages
per system and per subset, as Wang et al. Table 4 prints them (Orig and Chal columns).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from scorer.errors import InputError
from scorer.human.judgements import Judgement

DIMENSIONS = ("semantics", "grammaticality", "phenomenon")
ANSWERS = (0.0, 1.0, 100.0)
"""A yes/no answer's values: 0 or 1, or 0 and 100 on the web form's scale."""


@dataclass(frozen=True)
class RoseRow:
    system: str
    subset: str
    outputs: int
    semantics: float
    grammaticality: float
    phenomenon: float
    rose: float


def output_rose(answers: dict[str, float]) -> float:
    """ROSE of one annotator's three answers for one output."""
    return answers["semantics"] * answers["grammaticality"] * answers["phenomenon"]


def analyse(judgements: Sequence[Judgement]) -> list[RoseRow]:
    """Per (system, subset): percentages of outputs judged 1 on each dimension and on ROSE.

    Scores are read as yes/no: 0 or 1, or 0 and 100 on the web form's scale.
    """
    answers: dict[tuple[str, str, str, str], dict[str, float]] = defaultdict(dict)
    for judgement in judgements:
        if judgement.criterion not in DIMENSIONS:
            continue
        if judgement.score not in ANSWERS:
            raise InputError(
                f"ROSE answer {judgement.score:g} for {judgement.system}/{judgement.item} "
                "is not yes/no (0 or 1)"
            )
        key = (judgement.system, judgement.subset, judgement.item, judgement.annotator)
        answers[key][judgement.criterion] = 1.0 if judgement.score else 0.0
    per_output: dict[tuple[str, str, str], list[dict[str, float]]] = defaultdict(list)
    for (system, subset, item, annotator), given in answers.items():
        missing = [d for d in DIMENSIONS if d not in given]
        if missing:
            raise InputError(
                f"annotator {annotator} judged {system}/{item} without {', '.join(missing)}"
            )
        per_output[(system, subset, item)].append({**given, "rose": output_rose(given)})
    groups: dict[tuple[str, str], list[dict[str, float]]] = defaultdict(list)
    for (system, subset, _), judged in per_output.items():
        groups[(system, subset)].append(
            {name: statistics.fmean(j[name] for j in judged) for name in (*DIMENSIONS, "rose")}
        )
    return [
        RoseRow(
            system=system,
            subset=subset,
            outputs=len(outputs),
            **{
                name: 100 * statistics.fmean(o[name] for o in outputs)
                for name in (*DIMENSIONS, "rose")
            },
        )
        for (system, subset), outputs in sorted(groups.items())
    ]
