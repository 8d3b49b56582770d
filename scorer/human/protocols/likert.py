"""Likert ratings (WebNLG 2017's human evaluation, GEM): a judge picks a point of each
criterion's scale for one output; means over judges then outputs, per system and subset, and
clusters by the campaign's procedure over output scores (``scorer.human.likert``).

A campaign asks every criterion on one page; its own criterion is the one its table is ranked
by, the others printed beside. A criterion of ``criteria`` is analysed on its declared scale,
one an imported file brings on the scale its judgements span."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import ClassVar

from scorer.errors import InputError
from scorer.human import clusters as procedures
from scorer.human import judgements as files
from scorer.human import likert
from scorer.human.protocols.base import Answers, Criterion, Protocol, Settings, Table

CRITERIA = ("semantics", "grammar", "fluency")
"""WebNLG 2017's criteria, each on 1-3 (3 best)."""


class Likert(Protocol):
    name = "likert"
    title = "Likert"
    caption = (
        "Mean of the judges' points per output, averaged over a system's outputs (n); the "
        "other criteria and the subsets beside. Clusters are separated by a dotted line."
    )
    criteria: ClassVar[dict[str, Criterion]] = {
        name: Criterion(name, True, False, "1-3") for name in CRITERIA
    }
    asks_all_criteria = True
    import_note = "score: a point of the criterion's scale (a whole number)"
    clusters = tuple(procedures.OVER_OUTPUTS)

    def scale(self, criterion: str) -> likert.Scale | None:
        known = self.criteria.get(criterion)
        return likert.Scale.parse(known.scale) if known else None

    def points(self, criterion: str) -> list[str]:
        """What a page offers for ``criterion``: its named points, or its numbers, lowest first."""
        scale = likert.Scale.parse(self.criteria[criterion].scale)
        return list(scale.names) or [str(k) for k in range(scale.low, scale.high + 1)]

    def read(
        self, data: bytes, filename: str, criterion: str
    ) -> tuple[list[files.Judgement], dict]:
        rows = files.read_judgements(data, filename, likert.read_number)
        if not any(row.criterion == criterion for row in rows):
            raise InputError(f"holds no judgements for {criterion!r}", filename=filename)
        return rows, {"criteria": sorted({row.criterion for row in rows})}

    def analyse(self, judgements: Sequence[files.Judgement], settings: Settings) -> dict:
        """Every criterion the judgements hold; the table's rows in the campaign criterion's
        order, each with its mean, n, cluster and subsets, and the other criteria beside."""
        names = sorted(
            {j.criterion for j in judgements}, key=lambda c: (c != settings.criterion, c)
        )
        by_criterion = {
            name: likert.analyse(
                judgements, name, self.scale(name), clusters=settings.clusters
            ).to_dict()
            for name in names
        }
        head = by_criterion[settings.criterion]
        systems = []
        for row in head["systems"]:
            beside = {
                name: {key: found[key] for key in ("mean", "n", "cluster")}
                for name, result in by_criterion.items()
                for found in result["systems"]
                if found["system"] == row["system"]
            }
            systems.append({**row, "criteria": beside})
        return {
            "criterion": settings.criterion,
            "clusters": settings.clusters,
            "scale": head["scale"],
            "systems": systems,
            "wilcoxon": head["wilcoxon"],
            "criteria": {
                name: {k: v for k, v in result.items() if k not in ("systems", "wilcoxon")}
                for name, result in by_criterion.items()
            },
        }

    def headline(self, criterion: str) -> tuple[str, str]:
        return f"Likert {criterion}", "mean"

    def values(self, results: Mapping) -> dict[str, float]:
        return {row["system"]: row["mean"] for row in results.get("systems", [])}

    def table(self, results: Mapping) -> Table:
        """Cluster, the campaign criterion's mean and n, the other criteria's means, then the
        campaign criterion's mean per subset (seen / unseen, categories) where items have one."""
        head = results.get("criterion", "")
        others = [name for name in results.get("criteria", {}) if name != head]
        rows = results.get("systems", [])
        subsets = sorted({name for row in rows for name in row.get("subsets", {})})
        columns = ["#", head, "n", *others, *(f"{head} ({subset})" for subset in subsets)]
        return Table(
            columns,
            [
                (
                    row["system"],
                    [
                        row["cluster"],
                        f"{row['mean']:.2f}",
                        row["n"],
                        *(_mean(row["criteria"].get(name)) for name in others),
                        *(_mean(row.get("subsets", {}).get(subset)) for subset in subsets),
                    ],
                    row["cluster"],
                )
                for row in rows
            ],
        )

    def answers(self, slots: Sequence[int], criterion: str, form: Mapping[str, str]) -> Answers:
        """``likert-<criterion>``: a point of each criterion's scale."""
        answers: Answers = {}
        for name, asked in self.criteria.items():
            scale = likert.Scale.parse(asked.scale)
            raw = (form.get(f"likert-{name}") or "").strip()
            try:
                value = scale.read(raw)
            except ValueError:
                value = math.nan
            if not (math.isfinite(value) and scale.holds(value)):
                raise ValueError(f"choose a point from {scale} for {name}")
            answers[(0, name)] = value
        return answers

    def score_error(self, score: float, imported: bool) -> str | None:
        return None if score.is_integer() else " is not a point of a Likert scale (a whole number)"


def _mean(found: Mapping | None) -> str:
    return f"{found['mean']:.2f}" if found else "–"
