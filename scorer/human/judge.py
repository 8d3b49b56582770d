"""An automatic judge beside the humans: a model's scores of the outputs a human campaign judged,
set beside the humans' and calibrated against them, never mixed into their figures.

Shared tasks now run a large language model as one more "annotator" and report how far it can
stand in for people. What makes such a figure comparable is what was run: the model, the prompt
(its SHA-256, so the exact text is pinned without being published), the decoding settings and
the date (``JudgeSpec``). The board calls no model: the organisers import the scores it gave.

The comparison, per criterion:

* system level: each system's figure is the mean over its outputs of the mean of the scores it
  got (as for Likert ratings), for the humans and for the judge on the outputs both scored;
  Pearson's r and Spearman's rho between the two over the systems, with the Williams-free
  ``correlation.correlate`` the metrics' tables use (SR'18 Table 9's Pearson r);
* output level: Krippendorff's alpha (interval) of the humans alone, and of the humans with the
  judge as one more coder: the second falling below the first says the judge disagrees with
  people more than they disagree with each other; and Pearson's r between the judge's score
  and the humans' mean score per output.
"""

from __future__ import annotations

import re
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from scorer.errors import InputError
from scorer.extras import require
from scorer.human import agreement
from scorer.human.judgements import Judgement

SPEC_KEYS = ("model", "prompt_sha256", "decoding", "date")
_DIGEST = re.compile(r"^[0-9a-f]{64}$")
MAX_TEXT = 200


@dataclass(frozen=True)
class JudgeSpec:
    """What was run: without it a judge's scores cannot be compared with another's."""

    model: str
    prompt_sha256: str
    decoding: dict[str, str | int | float | bool]
    date: str

    @classmethod
    def parse(cls, data: Any, where: str) -> JudgeSpec:
        """A spec from a mapping (a JSON or YAML file's), every key checked, named as ``where``."""
        if not isinstance(data, Mapping):
            raise InputError(
                f"a judge's spec is a mapping of {', '.join(SPEC_KEYS)}", filename=where
            )
        unknown = sorted(set(map(str, data)) - set(SPEC_KEYS))
        missing = [key for key in SPEC_KEYS if key not in data]
        if unknown or missing:
            raise InputError(
                f"judge spec: give {', '.join(SPEC_KEYS)}"
                + (f"; unknown: {', '.join(unknown)}" if unknown else "")
                + (f"; missing: {', '.join(missing)}" if missing else ""),
                filename=where,
            )
        model, digest, decoding, when = (data[key] for key in SPEC_KEYS)
        if not isinstance(model, str) or not model.strip() or len(model) > MAX_TEXT:
            raise InputError(
                f"judge spec: model is a name of 1-{MAX_TEXT} characters", filename=where
            )
        if not isinstance(digest, str) or not _DIGEST.match(digest):
            raise InputError(
                "judge spec: prompt_sha256 is the prompt's SHA-256, 64 lowercase hex digits",
                filename=where,
            )
        if not isinstance(decoding, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str | int | float | bool) and len(k) <= MAX_TEXT
            for k, v in decoding.items()
        ):
            raise InputError(
                "judge spec: decoding maps setting names to plain values (temperature: 0, ...)",
                filename=where,
            )
        try:
            day = date.fromisoformat(str(when))
        except ValueError:
            raise InputError("judge spec: date as YYYY-MM-DD", filename=where) from None
        return cls(model.strip(), digest, dict(decoding), day.isoformat())

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "prompt_sha256": self.prompt_sha256,
            "decoding": dict(self.decoding),
            "date": self.date,
        }


@dataclass(frozen=True)
class JudgeComparison:
    """The judge beside the humans on one criterion."""

    spec: JudgeSpec
    criterion: str
    systems: list[dict[str, Any]]
    """Per system: ``system``, ``human`` and ``judge`` means, ``outputs`` both scored."""
    pearson: float | None
    spearman: float | None
    output_pearson: float | None
    humans: agreement.Agreement
    with_judge: agreement.Agreement

    def to_dict(self) -> dict[str, Any]:
        def rounded(value: float | None) -> float | None:
            return None if value is None else round(value, 6)

        return {
            "judge": self.spec.to_dict(),
            "criterion": self.criterion,
            "systems": self.systems,
            "system_level": {"pearson": rounded(self.pearson), "spearman": rounded(self.spearman)},
            "output_level": {"pearson": rounded(self.output_pearson)},
            "agreement": {
                "humans": self.humans.to_dict(),
                "humans_and_judge": self.with_judge.to_dict(),
            },
        }


def _by_output(judgements: Iterable[Judgement], criterion: str) -> dict[tuple[str, str], list]:
    found: dict[tuple[str, str], list[tuple[str, float]]] = defaultdict(list)
    for j in judgements:
        if j.criterion == criterion and j.kind == "genuine":
            found[(j.item, j.label)].append((j.annotator, j.score))
    return found


def _correlation(x: list[float], y: list[float], rank: bool = False) -> float | None:
    if len(x) < 3 or len(set(x)) < 2 or len(set(y)) < 2:
        return None
    stats = require("scipy.stats", "human", "the judge's correlation with the humans")
    found = stats.spearmanr(x, y) if rank else stats.pearsonr(x, y)
    return float(found[0])


JUDGE = "\x00judge"
"""The judge's coder key in the joint alpha: no annotator's name can take it."""


def compare(
    humans: Iterable[Judgement], judge: Iterable[Judgement], spec: JudgeSpec, criterion: str
) -> JudgeComparison:
    """The judge's scores of ``criterion`` beside the humans', on the outputs both scored."""
    people = _by_output(humans, criterion)
    machine = {
        key: statistics.fmean(s for _, s in v) for key, v in _by_output(judge, criterion).items()
    }
    shared = sorted(key for key in people if key in machine)
    if not shared:
        raise ValueError(
            f"the judge scored none of the outputs the humans scored under {criterion!r} "
            "(item and system must match)"
        )
    human_mean = {key: statistics.fmean(s for _, s in people[key]) for key in shared}
    per_system: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for key in shared:
        per_system[key[1]].append(key)
    means = {
        system: (
            statistics.fmean(human_mean[k] for k in keys),
            statistics.fmean(machine[k] for k in keys),
        )
        for system, keys in sorted(per_system.items())
    }
    h = [people_mean for people_mean, _ in means.values()]
    m = [judge_mean for _, judge_mean in means.values()]
    systems: list[dict[str, Any]] = [
        {
            "system": system,
            "human": statistics.fmean(human_mean[k] for k in keys),
            "judge": statistics.fmean(machine[k] for k in keys),
            "outputs": len(keys),
        }
        for system, keys in sorted(per_system.items())
    ]
    joint = {key: [*people[key], (JUDGE, machine[key])] for key in shared}
    return JudgeComparison(
        spec=spec,
        criterion=criterion,
        systems=systems,
        pearson=_correlation(h, m),
        spearman=_correlation(h, m, rank=True),
        output_pearson=_correlation([human_mean[k] for k in shared], [machine[k] for k in shared]),
        humans=agreement.agreement({key: people[key] for key in shared}, "interval"),
        with_judge=agreement.agreement(joint, "interval"),
    )
