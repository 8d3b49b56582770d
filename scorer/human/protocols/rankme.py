"""RankME (E2E Sect. 7.2): five systems' outputs of one input scored 0-100 side by side, ranked
by TrueSkill; clusters from TrueSkill's rank ranges (E2E Table 11)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from scorer.human import judgements as files
from scorer.human import trueskill_rank
from scorer.human.protocols.base import Answers, Criterion, Protocol, Settings, Table, rank_range
from scorer.human.protocols.scores import off_slider, slider_answers


class RankME(Protocol):
    name = "rankme"
    title = "RankME + TrueSkill"
    caption = (
        "Significance clusters (#) from bootstrap runs of TrueSkill; rank = the range a system "
        "holds in 95% of the runs (E2E Table 11). Clusters are separated by a dotted line."
    )
    criteria: ClassVar[dict[str, Criterion]] = {
        "quality": Criterion("quality", shows_input=True),
        "naturalness": Criterion("naturalness", shows_input=False),
    }
    layout = "ranking"
    hit_size = 10
    minimum_systems = 2
    import_note = "the E2E challenge's RankME CSV (sys1..sys5) or the long CSV"
    clusters = (trueskill_rank.CLUSTERS,)
    one_criterion = True

    def read(
        self, data: bytes, filename: str, criterion: str
    ) -> tuple[list[files.Judgement], dict]:
        ratings, rows = files.read_rankme(data, filename, criterion)
        return rows, ratings.notes()

    def analyse(self, judgements: Sequence[files.Judgement], settings: Settings) -> dict:
        comparisons = trueskill_rank.pairwise(r.scores for r in files.rankings_of(judgements))
        return trueskill_rank.rank(comparisons, runs=settings.runs or trueskill_rank.RUNS).to_dict()

    def headline(self, criterion: str) -> tuple[str, str]:
        return f"TrueSkill {criterion}", "mu"

    def values(self, results: Mapping) -> dict[str, float]:
        return {row["system"]: row["mu"] for row in results.get("systems", [])}

    def table(self, results: Mapping) -> Table:
        return Table(
            ["#", "TrueSkill", "Rank"],
            [
                (r["system"], [r["cluster"], f"{r['mu']:.3f}", rank_range(r["rank"])], r["cluster"])
                for r in results.get("systems", [])
            ],
        )

    def answers(self, slots: Sequence[int], settings: Settings, form: Mapping[str, str]) -> Answers:
        return slider_answers(slots, settings.criterion, form)

    def score_error(self, score: float, imported: bool) -> str | None:
        """File values outside 0-100 are kept as the E2E organisers read them (only their
        order counts), for judgements imported from such a file only."""
        error = None if imported else off_slider(score)
        if error:
            error += " (values outside are kept only for RankME judgements imported from a file)"
        return error
