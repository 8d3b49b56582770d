"""Likert ratings (WebNLG 2017's human evaluation, GEM): a judge picks a point of each
criterion's scale for one output; means over judges then outputs, per system and subset, and
clusters by the campaign's procedure over output scores (``scorer.human.likert``).

A campaign asks every criterion on one page; its own criterion is the one its table is ranked
by, the others printed beside. Its options say which criteria it asks, each with its scale and
direction (default: WebNLG 2017's semantics, grammar and fluency on 1-3, 3 best), and how an
output's judges are combined (mean, or median). A criterion the options declare is analysed
on its scale; one an imported file brings beyond them, on the scale its judgements span."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from scorer.errors import InputError
from scorer.human import clusters as procedures
from scorer.human import judgements as files
from scorer.human import likert
from scorer.human.agreement import Agreement, of_judgements
from scorer.human.protocols.base import Answers, Criterion, Protocol, Settings, Table

CRITERIA = ("semantics", "grammar", "fluency")
"""WebNLG 2017's criteria, each on 1-3 (3 best)."""
DEFAULT_SCALE = "1-3"
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}\Z")


def _read_one(given: object) -> dict[str, str]:
    """One criterion from ``NAME SCALE [higher|lower]`` text or a stored mapping."""
    if isinstance(given, Mapping):
        name = str(given.get("name", "")).strip()
        scale_text = str(given.get("scale") or DEFAULT_SCALE).strip()
        direction = str(given.get("direction") or "higher").strip()
    else:
        words = str(given).split()
        if len(words) < 2:
            raise ValueError(
                f"criterion {str(given).strip()!r}: give NAME SCALE [higher|lower], e.g. "
                "'fluency 1-5' or 'adequacy 1-7 lower'"
            )
        direction = words.pop() if words[-1] in likert.DIRECTIONS else "higher"
        name, scale_text = words[0], " ".join(words[1:])
    if not _NAME.match(name):
        raise ValueError(
            f"criterion name {name!r}: a letter, then letters, digits, _ or - (at most 64)"
        )
    if direction not in likert.DIRECTIONS:
        raise ValueError(f"criterion {name}: direction {direction!r} is not higher or lower")
    scale = likert.Scale.parse(scale_text)
    return {"name": name, "scale": str(scale), "direction": direction}


def read_criteria(given: object) -> list[dict[str, str]]:
    """Criteria from text (``;`` or new lines between them) or a stored list; names unique."""
    if isinstance(given, str):
        parts: Sequence[object] = [p for p in re.split(r"[;\n]", given) if p.strip()]
    elif isinstance(given, Sequence):
        parts = given
    else:
        raise ValueError("criteria: give them as text or a list")
    found = [_read_one(part) for part in parts]
    names = [row["name"] for row in found]
    if not found:
        raise ValueError("criteria: give at least one")
    if len(set(names)) != len(names):
        raise ValueError(f"criteria: a name is given twice ({', '.join(names)})")
    return found


DEFAULT_CRITERIA = [
    {"name": name, "scale": DEFAULT_SCALE, "direction": "higher"} for name in CRITERIA
]


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

    option_fields = ("criteria", "aggregate")

    def read_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """``criteria`` (text ``NAME SCALE [higher|lower]; ...`` or a stored list) and
        ``aggregate`` (``mean`` or ``median`` of an output's judges); the defaults are left out."""
        unknown = sorted(set(given) - set(self.option_fields))
        if unknown:
            raise ValueError(
                f"{self.title} takes criteria and aggregate (given: {', '.join(unknown)})"
            )
        options: dict[str, Any] = {}
        if given.get("criteria"):
            criteria = read_criteria(given["criteria"])
            if criteria != DEFAULT_CRITERIA:
                options["criteria"] = criteria
        aggregate = str(given.get("aggregate") or "mean").strip()
        if aggregate not in likert.AGGREGATES:
            raise ValueError(f"aggregate {aggregate!r}: one of {', '.join(likert.AGGREGATES)}")
        if aggregate != "mean":
            options["aggregate"] = aggregate
        return options

    def declared(self, options: Mapping[str, Any]) -> dict[str, dict[str, str]]:
        """Name -> {scale, direction} of each criterion the campaign asks."""
        return {row["name"]: row for row in options.get("criteria") or DEFAULT_CRITERIA}

    def questions(self, options: Mapping[str, Any]) -> list[Criterion]:
        declared = self.declared(options)
        return [
            Criterion(name, True, False, row["scale"], row["direction"])
            for name, row in declared.items()
        ]

    def describe_options(self, options: Mapping[str, Any]) -> str:
        criteria = ", ".join(
            f"{name} {row['scale']}" + (" (lower is better)" if row["direction"] == "lower" else "")
            for name, row in self.declared(options).items()
        )
        return (
            f"{criteria}; an output's score: the {options.get('aggregate', 'mean')} of its judges"
        )

    def scale(
        self, criterion: str, options: Mapping[str, Any] | None = None
    ) -> likert.Scale | None:
        known = self.declared(options or {}).get(criterion)
        return likert.Scale.parse(known["scale"]) if known else None

    def points(self, criterion: Criterion) -> list[str]:
        """What a page offers for ``criterion``: its named points, or its numbers, lowest first."""
        scale = likert.Scale.parse(criterion.scale)
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
        options = self.read_options(settings.options)
        declared = self.declared(options)
        by_criterion = {
            name: likert.analyse(
                judgements,
                name,
                self.scale(name, options),
                higher_is_better=declared.get(name, {}).get("direction", "higher") == "higher",
                aggregate=options.get("aggregate", "mean"),
                clusters=settings.clusters,
                attributes=settings.attributes or None,
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

    def agreement(self, judgements: Sequence[files.Judgement], settings: Settings) -> Agreement:
        """Over the campaign's own criterion, as ``nlg-human likert`` gives it: one interval
        alpha over criteria on different scales (1-3 beside 1-5) would mix their units."""
        return of_judgements(
            judgements, self.agreement_level, settings.criterion, judges=settings.judges
        )

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
        splits = _table_splits(rows)
        columns = [
            "#", head, "n", *others, *(f"{head} ({subset})" for subset in subsets),
            *(f"{head} ({attribute}: {value})" for attribute, value in splits),
        ]  # fmt: skip
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
                        *(_mean(row.get("by", {}).get(a, {}).get(v)) for a, v in splits),
                    ],
                    row["cluster"],
                )
                for row in rows
            ],
        )

    def answers(self, slots: Sequence[int], settings: Settings, form: Mapping[str, str]) -> Answers:
        """``likert-<criterion>``: a point of each asked criterion's scale."""
        answers: Answers = {}
        for asked in self.questions(settings.options):
            scale = likert.Scale.parse(asked.scale)
            raw = (form.get(f"likert-{asked.name}") or "").strip()
            try:
                value = scale.read(raw)
            except ValueError:
                value = math.nan
            if not (math.isfinite(value) and scale.holds(value)):
                raise ValueError(f"choose a point from {scale} for {asked.name}")
            answers[(0, asked.name)] = value
        return answers

    def score_error(self, score: float, imported: bool) -> str | None:
        return None if score.is_integer() else " is not a point of a Likert scale (a whole number)"

    def judge_score_error(self, score: float) -> str | None:
        """None: a judge's score may fall between the points (a mean over samples), as the
        judge's import reads any number (``likert.read_number``)."""
        return None


TABLE_VALUES = 4
"""An item attribute gets columns in the printed table when it has at most this many values
(seen / unseen, a size); the results keep every attribute's means (``by``)."""


def _table_splits(rows: Sequence[Mapping]) -> list[tuple[str, str]]:
    """(attribute, value) of the attributes few-valued enough to print, in their order."""
    values: dict[str, set[str]] = {}
    for row in rows:
        for attribute, by_value in row.get("by", {}).items():
            values.setdefault(attribute, set()).update(by_value)
    return [
        (attribute, value)
        for attribute, found in values.items()
        if len(found) <= TABLE_VALUES
        for value in sorted(found)
    ]


def _mean(found: Mapping | None) -> str:
    return f"{found['mean']:.2f}" if found else "–"
