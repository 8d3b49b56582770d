"""ROSE (Wang et al. 2021): three yes/no questions per output, percentages per system and
subset (Table 4's Orig and Chal columns); no clusters."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from scorer.human import judgements as files
from scorer.human import rose
from scorer.human.protocols.base import Answers, Criterion, Protocol, Settings, Table


class Rose(Protocol):
    name = "rose"
    title = "ROSE"
    caption = (
        "Share of outputs judged right on semantics, grammaticality, phenomenon, and ROSE = "
        "their product (Wang et al. 2021)."
    )
    criteria: ClassVar[dict[str, Criterion]] = {"rose": Criterion("rose", True, True, "0-1")}
    asks_all_criteria = True
    dimensions = rose.DIMENSIONS
    """The three yes/no questions its page asks."""
    import_note = "criterion: semantics, grammaticality or phenomenon; score 0 or 1"
    agreement_level = "nominal"
    scored = False

    def read(
        self, data: bytes, filename: str, criterion: str
    ) -> tuple[list[files.Judgement], dict]:
        return files.read_judgements(data, filename), {}

    def analyse(self, judgements: Sequence[files.Judgement], settings: Settings) -> dict:
        return {"rows": [row.__dict__ for row in rose.analyse(judgements)]}

    def headline(self, criterion: str) -> tuple[str, str]:
        return "ROSE %", "rose"

    def headline_rows(self, results: Mapping) -> list[dict]:
        return [r for r in results.get("rows", []) if not r.get("subset")]

    def values(self, results: Mapping) -> dict[str, float]:
        """ROSE % (on a challenge set: the challenge items)."""
        return {
            row["system"]: row["rose"]
            for row in results.get("rows", [])
            if not row["subset"].endswith(":orig")
        }

    def table(self, results: Mapping) -> Table:
        names = ("semantics", "grammaticality", "phenomenon", "rose")
        return Table(
            ["Subset", "Sem.", "Gram.", "Phen.", "ROSE"],
            [
                (r["system"], [r["subset"] or "all"] + [f"{r[name]:.1f}" for name in names], None)
                for r in results.get("rows", [])
            ],
        )

    def answers(self, slots: Sequence[int], settings: Settings, form: Mapping[str, str]) -> Answers:
        answers: Answers = {}
        for dimension in rose.DIMENSIONS:
            answer = (form.get(dimension) or "").strip()
            if answer not in ("0", "1"):
                raise ValueError(f"answer yes or no for {dimension}")
            answers[(0, dimension)] = float(answer)
        return answers

    def score_error(self, score: float, imported: bool) -> str | None:
        return None if score in rose.ANSWERS else ": a ROSE answer is 0 or 1 (or 100)"
