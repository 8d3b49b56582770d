"""Places on the leaderboard: equal scores share one ("1=", "1=", "3"), on the page and in the
exports (CSV, JSON, LaTeX with its rank and significance-group columns)."""

from __future__ import annotations

import csv
import io
import json

from app.web.services.leaderboard import LeaderboardRow, assign_ranks
from tests.support.board import upload
from tests.support.factories import demo_track, participant, run_queue


def row(system: str, score: float | None) -> LeaderboardRow:
    scores = {} if score is None else {"BLEU": score}
    return LeaderboardRow(
        system_id=1, system=system, team=None, is_baseline=False, is_primary=True,
        submission_id=1, is_late=False, scores=scores,
    )  # fmt: skip


def test_equal_scores_share_the_place_of_the_first_and_the_next_skips() -> None:
    rows = [
        row("a", 0.7),
        row("b", 0.7),
        row("c", 0.6),
        row("d", 0.5),
        row("e", 0.5),
        row("f", None),
    ]
    assign_ranks(rows, "BLEU")
    assert [r.rank for r in rows] == ["1=", "1=", "3", "4=", "4=", ""]


def test_distinct_scores_get_plain_places() -> None:
    rows = [row("a", 0.9), row("b", 0.8)]
    assign_ranks(rows, "BLEU")
    assert [r.rank for r in rows] == ["1", "2"]


def test_identical_outputs_are_tied_on_the_page_and_in_every_export(app, client, settings):
    demo_track(settings)
    for team in ("A", "B"):
        token = participant(settings, f"{team.lower()}@x.org", team=team)
        assert upload(client, token, f"sys-{team}").status_code == 202
    run_queue(app)
    page = client.get("/challenges/demo/tracks/main").get_data(as_text=True)
    assert page.count("<td>1=</td>") == 2
    base = "/challenges/demo/tracks/main/export"
    rows = csv.DictReader(io.StringIO(client.get(f"{base}.csv").get_data(as_text=True)))
    assert [r["rank"] for r in rows] == ["1=", "1="]
    exported = json.loads(client.get(f"{base}.json").get_data(as_text=True))
    assert [(r["rank"], r["tied"]) for r in exported["rows"]] == [(1, True), (1, True)]
    latex = client.get(f"{base}.tex").get_data(as_text=True)
    assert "Rank & Group & System" in latex
    assert latex.count("1= & 1 & A / sys-A") + latex.count("1= & 1 & B / sys-B") == 2
