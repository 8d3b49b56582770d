"""Direct Assessment (SR'18 Sect. 3.2.1, after WMT'17): one output per page on a 0-100 slider,
HITs with quality-control copies; raw and z means, clusters by the campaign's procedure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from scorer.human import clusters as procedures
from scorer.human import direct_assessment
from scorer.human import judgements as files
from scorer.human.protocols.base import Answers, Criterion, Protocol, Settings, Table
from scorer.human.protocols.scores import off_slider, slider_answers


class DirectAssessment(Protocol):
    name = "da"
    title = "Direct Assessment"
    caption = (
        "Average raw score (%), average z-score of annotators who passed quality control; n "
        "distinct outputs, Assess. judgements (SR'18 Tables 6–8)."
    )
    criteria: ClassVar[dict[str, Criterion]] = {
        "meaning-similarity": Criterion("meaning-similarity", False, True),
        "readability": Criterion("readability", False, False),
    }
    layout = "controlled"
    hit_size = 100
    import_columns = (*files.LONG_COLUMNS, "kind")
    import_note = "kind: genuine, repeat, damaged or reference (quality control)"
    clusters = tuple(procedures.OVER_OUTPUTS)
    quality_controls = True
    one_criterion = True

    def read(
        self, data: bytes, filename: str, criterion: str
    ) -> tuple[list[files.Judgement], dict]:
        return [r for r in files.read_judgements(data, filename) if r.criterion == criterion], {}

    def analyse(self, judgements: Sequence[files.Judgement], settings: Settings) -> dict:
        controls = direct_assessment.parse_controls(settings.quality_control)
        results = direct_assessment.analyse(
            judgements,
            settings.criterion,
            direct_assessment.required_for(controls),
            clusters=settings.clusters,
        ).to_dict()
        results["quality_control"] = settings.quality_control
        return results

    def headline(self, criterion: str) -> tuple[str, str]:
        return f"DA z {criterion}", "z"

    def values(self, results: Mapping) -> dict[str, float]:
        return {row["system"]: row["z"] for row in results.get("systems", [])}

    def table(self, results: Mapping) -> Table:
        """Cluster (a dash without one), raw %, z, distinct outputs, judgements (SR'18 Table 6)."""
        return Table(
            ["#", "%", "z", "n", "Assess."],
            [
                (
                    r["system"],
                    [
                        r.get("cluster", "–"),
                        f"{r['raw']:.1f}",
                        f"{r['z']:.3f}",
                        r["n"],
                        r["assessments"],
                    ],
                    r.get("cluster"),
                )
                for r in results.get("systems", [])
            ],
        )

    def answers(self, slots: Sequence[int], settings: Settings, form: Mapping[str, str]) -> Answers:
        return slider_answers(slots, settings.criterion, form)

    def score_error(self, score: float, imported: bool) -> str | None:
        return off_slider(score)
