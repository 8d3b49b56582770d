"""Pairwise preference (as Chatbot Arena publishes it): one input, two systems' outputs in random
order, A / B / tie; Bradley-Terry scores with bootstrap intervals, rank ranges, win rates and
clusters from the ranges (``scorer.human.pairwise``).

Stored as the long layout stores scores, one row per side: a verdict is two judgements of one
unit by one annotator, criterion ``preference``, each side's share of the win (1, 0.5 for a
tie, 0), system A's row first. A file in the pairwise layout (``item,system_a,system_b,winner,
annotator``, and ``team_a``/``team_b`` where system names repeat across teams) is read so."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from scorer.errors import InputError
from scorer.human import clusters as procedures
from scorer.human import judgements as files
from scorer.human import pairwise
from scorer.human.agreement import Agreement
from scorer.human.protocols.base import Answers, Criterion, Protocol, Settings, Table
from scorer.io.table import read_table, require_columns

CRITERION = "preference"
SHARES = {"a": 1.0, "tie": 0.5, "b": 0.0}
"""System A's share of the win per verdict (system B's is 1 minus it)."""
WINNERS = {share: winner for winner, share in SHARES.items()}


class Pairwise(Protocol):
    name = "pairwise"
    title = "Pairwise preference"
    caption = (
        "Bradley-Terry scores (log odds, mean 0) with 95% bootstrap intervals and rank ranges; "
        "win rate with ties as half a win; n comparisons. Clusters from the rank ranges."
    )
    criteria: ClassVar[dict[str, Criterion]] = {
        CRITERION: Criterion(CRITERION, True, False, "a,b,tie")
    }
    layout = "pair"
    minimum_systems = 2
    import_columns = pairwise.COLUMNS
    import_note = "winner: a, b or tie; optional team_a, team_b"
    agreement_level = "nominal"
    scored = False
    clusters = (procedures.RANK_RANGES.name,)
    one_criterion = True

    def read(
        self, data: bytes, filename: str, criterion: str
    ) -> tuple[list[files.Judgement], dict]:
        """Each verdict as two sides; a system is its team's (``team_a``/``team_b``) where the
        file names one, so two teams' "primary" are two systems, not one compared with itself."""
        header, records = read_table(data, filename)
        require_columns(header, pairwise.COLUMNS, filename)
        teams = [
            (r.values.get("team_a", "").strip(), r.values.get("team_b", "").strip())
            for r in records
        ]
        labelled = io.StringIO()
        writer = csv.writer(labelled, lineterminator="\n")
        writer.writerow(pairwise.COLUMNS)
        for record, (team_a, team_b) in zip(records, teams, strict=True):
            row = dict(record.values)
            row["system_a"] = _label(team_a, row["system_a"].strip())
            row["system_b"] = _label(team_b, row["system_b"].strip())
            writer.writerow([row[name] for name in pairwise.COLUMNS])
        verdicts = pairwise.read_pairwise(labelled.getvalue().encode(), filename)
        rows = []
        for number, (verdict, record, (team_a, team_b)) in enumerate(
            zip(verdicts, records, teams, strict=True), start=1
        ):
            share = SHARES[verdict.winner]
            for system, team, score in (
                (record.values["system_a"].strip(), team_a, share),
                (record.values["system_b"].strip(), team_b, 1 - share),
            ):
                rows.append(
                    files.Judgement(
                        verdict.item,
                        system,
                        verdict.annotator,
                        CRITERION,
                        score,
                        unit=f"pair{number}",
                        team=team,
                        line=record.line,
                    )
                )
        return rows, {"verdicts": len(verdicts)}

    def verdicts(self, judgements: Sequence[files.Judgement]) -> list[pairwise.PairwiseJudgement]:
        """The stored sides back as verdicts: a unit and annotator's two rows, A's first."""
        sides: dict[tuple[str, str], list[files.Judgement]] = defaultdict(list)
        for judgement in judgements:
            sides[judgement.unit, judgement.annotator].append(judgement)
        found = []
        for (unit, annotator), pair in sides.items():
            if len(pair) != 2 or pair[0].system == pair[1].system:
                raise InputError(
                    f"unit {unit}, annotator {annotator}: a preference is two systems' sides, "
                    f"found {len(pair)}"
                )
            a, b = pair
            if a.score not in WINNERS or a.score + b.score != 1:
                raise InputError(
                    f"unit {unit}, annotator {annotator}: shares {a.score:g} and {b.score:g} are "
                    "not a verdict (1 and 0, 0.5 and 0.5, 0 and 1)"
                )
            found.append(
                pairwise.PairwiseJudgement(a.item, a.system, b.system, WINNERS[a.score], annotator)
            )
        return found

    option_fields = ("ties",)

    def read_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """``ties``: ``half`` (a tie is half a win for each side, the default) or ``drop``
        (ties left out of the scores and win rates)."""
        unknown = sorted(set(given) - set(self.option_fields))
        if unknown:
            raise ValueError(f"{self.title} takes only ties (given: {', '.join(unknown)})")
        ties = str(given.get("ties") or pairwise.TIES[0]).strip()
        if ties not in pairwise.TIES:
            raise ValueError(f"ties {ties!r}: one of {', '.join(pairwise.TIES)}")
        return {} if ties == pairwise.TIES[0] else {"ties": ties}

    def describe_options(self, options: Mapping[str, Any]) -> str:
        ties = options.get("ties", pairwise.TIES[0])
        return "ties: half a win each" if ties == "half" else "ties: left out"

    def analyse(self, judgements: Sequence[files.Judgement], settings: Settings) -> dict:
        return pairwise.analyse(
            self.verdicts(judgements),
            runs=settings.runs or pairwise.RUNS,
            judges=settings.judges,
            ties=self.read_options(settings.options).get("ties", pairwise.TIES[0]),
        ).to_dict()

    def agreement(self, judgements: Sequence[files.Judgement], settings: Settings) -> Agreement:
        """Nominal: a unit is one pair of systems on one item."""
        return pairwise.pairwise_agreement(self.verdicts(judgements), settings.judges)

    def headline(self, criterion: str) -> tuple[str, str]:
        return "Bradley-Terry", "score"

    def values(self, results: Mapping) -> dict[str, float]:
        return {row["system"]: row["score"] for row in results.get("systems", [])}

    def table(self, results: Mapping) -> Table:
        return Table(
            ["#", "Score", "95% interval", "Rank", "Win %", "n"],
            [
                (
                    r["system"],
                    [
                        r["cluster"],
                        f"{r['score']:.3f}",
                        f"{r['interval'][0]:.3f} – {r['interval'][1]:.3f}",
                        f"{r['rank_range'][0]}–{r['rank_range'][1]}",
                        f"{100 * r['win_rate']:.1f}",
                        r["comparisons"],
                    ],
                    r["cluster"],
                )
                for r in results.get("systems", [])
            ],
        )

    def answers(self, slots: Sequence[int], settings: Settings, form: Mapping[str, str]) -> Answers:
        """``winner``: ``a`` (the first text shown), ``b`` or ``tie``."""
        winner = (form.get("winner") or "").strip()
        if winner not in SHARES or len(slots) != 2:
            raise ValueError("choose A, B or tie")
        return {(slots[0], CRITERION): SHARES[winner], (slots[1], CRITERION): 1 - SHARES[winner]}

    def score_error(self, score: float, imported: bool) -> str | None:
        return None if score in WINNERS else " is not a side's share of a preference (1, 0.5, 0)"


def _label(team: str, system: str) -> str:
    return f"{team} / {system}" if team else system
