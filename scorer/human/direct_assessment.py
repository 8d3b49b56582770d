"""Direct Assessment (SR'18 Sect. 3.2, after WMT'17): quality control, z-scores, system table.

Judgements come in HITs of 100 outputs of which 20 are quality control (``kind``): ``repeat``
(an output shown again), ``damaged`` (a degraded copy of an output) and ``reference`` (the human
text in place of an output). A repeat or damaged copy names the item and system it copies.

Rules, per annotator over all their judgements of one criterion (alpha = 0.05):

* damaged lower: the Wilcoxon signed-rank test finds the damaged copies scored lower than their
  originals (one-sided p < alpha) -- WMT'17's filter;
* repeats consistent: the same test finds no difference between outputs and their repeats
  (two-sided p >= alpha, or no difference at all);
* references high: references score at least the annotator's mean over genuine outputs.

Annotators failing a required rule are left out of the results. Required by default: damaged
lower and references high. Repeat consistency is reported (per annotator, and as the share of kept
annotators, SR'18's "97%") but not required: SR'18 kept annotators whose repeats differed
significantly, and a 5%-level test would drop about one careful annotator in twenty by chance.
``required`` changes this: a campaign requires only the rules of the controls it had
(``required_for``), so judgements collected without damaged copies (``none``) keep every
annotator, and each annotator a rule drops is counted by rule (``dropped``). Each kept annotator's raw scores
(all kinds) are standardised with their own mean and standard deviation (z-scores). An output's
raw and z score are the means over its genuine judgements; a system's are the means over its
outputs ("the mean of sentence-level scores"); ``n`` counts distinct outputs, ``assessments``
judgements (SR'18 Tables 6-8). Pairs of systems are compared with the one-sided Wilcoxon rank-sum
test over output z-scores (Figures 4-6), and grouped into significance clusters by the procedure
the campaign names (``scorer.human.clusters``): WMT's by default, where a cluster ends where every
system above significantly beats every system below; or the WebNLG+ 2020 organisers', whose
z-scores are these (per annotator and criterion, over all that annotator rated, with no quality
control: ``required=()``).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from scorer.extras import require
from scorer.human import clusters as cluster_procedures
from scorer.human.judgements import Judgement

ALPHA = 0.05
RULES = ("damaged", "repeat", "reference")
REQUIRED = ("damaged", "reference")
NONE = "none"
"""The quality control of judgements collected without damaged copies, repeats or references."""


def parse_controls(text: str) -> tuple[str, ...]:
    """``damaged,repeat,reference`` (any of them, any order) or ``none`` -> the controls in
    ``RULES`` order; an unknown name is refused, saying which ones exist."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if names == [NONE]:
        return ()
    unknown = [name for name in names if name not in RULES]
    if unknown or not names:
        raise ValueError(
            f"quality control {text!r}: give {NONE!r} or some of {', '.join(RULES)}, comma-separated"
        )
    return tuple(rule for rule in RULES if rule in names)


def format_controls(controls: Sequence[str]) -> str:
    """The inverse of ``parse_controls``: ``damaged,reference`` or ``none``."""
    return ",".join(rule for rule in RULES if rule in controls) or NONE


def required_for(controls: Sequence[str]) -> tuple[str, ...]:
    """The rules an annotator must pass when the campaign had ``controls``: damaged copies and
    references are required where they were shown; repeats are reported, never required."""
    return tuple(rule for rule in REQUIRED if rule in controls)


@dataclass(frozen=True)
class AnnotatorCheck:
    annotator: str
    judgements: int
    damaged_pairs: int
    damaged_p: float | None
    repeat_pairs: int
    repeat_p: float | None
    reference_mean: float | None
    genuine_mean: float | None
    passed: dict[str, bool]
    required: tuple[str, ...]

    @property
    def kept(self) -> bool:
        return all(self.passed[rule] for rule in self.required)

    @property
    def failed(self) -> tuple[str, ...]:
        """The required rules this annotator failed (why they are left out)."""
        return tuple(rule for rule in self.required if not self.passed[rule])


@dataclass(frozen=True)
class SystemScore:
    system: str
    raw: float
    z: float
    n: int
    assessments: int


OutputScores = dict[str, dict[str, tuple[float, float, int]]]
"""system -> item -> (mean raw, mean z, judgements) of one criterion."""


@dataclass(frozen=True)
class DirectAssessment:
    criterion: str
    systems: tuple[SystemScore, ...]
    annotators: tuple[AnnotatorCheck, ...]
    #: p-value of "row system scores higher than column system", systems in table order.
    p_values: np.ndarray
    clusters: tuple[int, ...]
    """Each system's significance cluster (1 = the top), in table order."""
    cluster_procedure: str
    """The procedure that formed ``clusters`` (``scorer.human.clusters``)."""
    outputs: OutputScores
    required: tuple[str, ...] = REQUIRED

    def dropped(self) -> dict[str, int]:
        """Annotators left out per failed rule (one may fail several), and those of them who
        had no damaged copy at all (the damaged rule cannot pass without one)."""
        counts = {
            rule: sum(rule in check.failed for check in self.annotators) for rule in self.required
        }
        counts["without_damaged_copies"] = sum(
            "damaged" in check.failed and check.damaged_pairs == 0 for check in self.annotators
        )
        return counts

    def to_dict(self) -> dict:
        names = [row.system for row in self.systems]
        return {
            "criterion": self.criterion,
            "clusters": self.cluster_procedure,
            "systems": [
                {**row.__dict__, "cluster": cluster}
                for row, cluster in zip(self.systems, self.clusters, strict=True)
            ],
            "annotators": {
                "required": list(self.required),
                "total": len(self.annotators),
                "kept": sum(check.kept for check in self.annotators),
                "dropped": self.dropped(),
                "kept_with_consistent_repeats": sum(
                    check.kept and check.passed["repeat"] for check in self.annotators
                ),
                "checks": [
                    {**check.__dict__, "kept": check.kept, "failed": list(check.failed)}
                    for check in self.annotators
                ],
            },
            "wilcoxon": {
                row: {
                    column: float(self.p_values[i, j]) for j, column in enumerate(names) if i != j
                }
                for i, row in enumerate(names)
            },
        }


def _signed_rank_p(
    first: Sequence[float], second: Sequence[float], alternative: str
) -> float | None:
    stats = require("scipy.stats", "human", "Direct Assessment's significance tests")

    differences = [a - b for a, b in zip(first, second, strict=True)]
    if not differences:
        return None
    if not any(differences):
        return 1.0
    return float(stats.wilcoxon(differences, alternative=alternative).pvalue)


def check_annotator(
    annotator: str, judgements: Sequence[Judgement], required: Sequence[str] = REQUIRED
) -> AnnotatorCheck:
    """The three quality-control rules of the module docstring for one annotator."""
    genuine = {(j.item, j.system): j.score for j in judgements if j.kind == "genuine"}

    def pairs(kind: str) -> tuple[list[float], list[float]]:
        copies = [j for j in judgements if j.kind == kind and (j.item, j.system) in genuine]
        return [genuine[(j.item, j.system)] for j in copies], [j.score for j in copies]

    originals, damaged = pairs("damaged")
    damaged_p = _signed_rank_p(originals, damaged, "greater")
    shown, repeated = pairs("repeat")
    repeat_p = _signed_rank_p(shown, repeated, "two-sided")
    references = [j.score for j in judgements if j.kind == "reference"]
    reference_mean = statistics.fmean(references) if references else None
    genuine_mean = statistics.fmean(genuine.values()) if genuine else None
    outcome = {
        "damaged": damaged_p is not None and damaged_p < ALPHA,
        "repeat": repeat_p is None or repeat_p >= ALPHA,
        "reference": reference_mean is None
        or genuine_mean is None
        or reference_mean >= genuine_mean,
    }
    return AnnotatorCheck(
        annotator=annotator,
        judgements=len(judgements),
        damaged_pairs=len(damaged),
        damaged_p=damaged_p,
        repeat_pairs=len(repeated),
        repeat_p=repeat_p,
        reference_mean=reference_mean,
        genuine_mean=genuine_mean,
        passed=outcome,
        required=tuple(required),
    )


def z_scores(scores: Sequence[float]) -> list[float]:
    """Standard scores with the population standard deviation; a constant rater gets zeros."""
    stats = require("scipy.stats", "human", "Direct Assessment's significance tests")

    if len(scores) < 2 or statistics.pstdev(scores) == 0:
        return [0.0] * len(scores)
    return [float(z) for z in stats.zscore(scores)]


def output_scores(by_annotator: Mapping[str, Sequence[Judgement]]) -> OutputScores:
    """system -> item -> (mean raw, mean z, judgements) over the genuine judgements given,
    z-scores taken over each annotator's own scores."""
    collected: dict[str, dict[str, list[tuple[float, float]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for own in by_annotator.values():
        for judgement, z in zip(own, z_scores([j.score for j in own]), strict=True):
            if judgement.kind == "genuine":
                collected[judgement.system][judgement.item].append((judgement.score, z))
    return {
        system: {
            item: (
                statistics.fmean(raw for raw, _ in pairs),
                statistics.fmean(z for _, z in pairs),
                len(pairs),
            )
            for item, pairs in items.items()
        }
        for system, items in collected.items()
    }


def analyse(
    judgements: Sequence[Judgement],
    criterion: str,
    required: Sequence[str] = REQUIRED,
    clusters: str = cluster_procedures.DEFAULT,
) -> DirectAssessment:
    """SR'18 Tables 6-8 and the significance matrix of Figures 4-6 for one criterion, clustered
    by the procedure named ``clusters``."""
    procedure = cluster_procedures.over_outputs(clusters)
    chosen = [j for j in judgements if j.criterion == criterion]
    by_annotator: dict[str, list[Judgement]] = defaultdict(list)
    for judgement in chosen:
        by_annotator[judgement.annotator].append(judgement)
    checks = tuple(
        check_annotator(annotator, own, required) for annotator, own in sorted(by_annotator.items())
    )
    kept = {check.annotator for check in checks if check.kept}
    outputs = output_scores({a: own for a, own in by_annotator.items() if a in kept})
    rows = sorted(
        (
            SystemScore(
                system=system,
                raw=statistics.fmean(raw for raw, _, _ in items.values()),
                z=statistics.fmean(z for _, z, _ in items.values()),
                n=len(items),
                assessments=sum(count for _, _, count in items.values()),
            )
            for system, items in outputs.items()
        ),
        key=lambda row: (-row.z, row.system),
    )
    z_by_item = [{item: z for item, (_, z, _) in outputs[row.system].items()} for row in rows]
    return DirectAssessment(
        criterion=criterion,
        systems=tuple(rows),
        annotators=checks,
        p_values=cluster_procedures.WMT.p_values(z_by_item),
        clusters=tuple(procedure.clusters(z_by_item)),
        cluster_procedure=procedure.name,
        outputs=outputs,
        required=tuple(required),
    )
