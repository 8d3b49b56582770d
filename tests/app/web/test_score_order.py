"""Scores are listed in the track's column order (the papers': BLEU, NIST, METEOR, ROUGE_L,
CIDEr, norm_avg, then SER and its shares), never by the alphabet: on system pages, in the API
answer ``nlgboard-submit`` prints from, and in ``nlg-score``'s output."""

from __future__ import annotations

import re

from click.testing import CliRunner

from scorer.cli.score import main as nlg_score
from scorer.kinds import get_profile
from tests.support.board import bearer
from tests.support.paths import DEMO_DATA

E2E_COLUMNS = list(get_profile("e2e").columns)


def test_system_page_lists_scores_in_column_order(client, two_teams):
    page = client.get("/systems/1").get_data(as_text=True)
    shown = re.findall(r"([A-Za-z_+%]+) \d+\.\d+", page)  # each with its column's decimals
    assert shown == E2E_COLUMNS


def test_the_api_lists_the_metrics_in_column_order(client, two_teams):
    answer = client.get("/api/v1/submissions/1", headers=bearer(two_teams["A"])).json
    assert answer["metrics"] == E2E_COLUMNS
    assert set(answer["scores"]) == set(E2E_COLUMNS) == set(answer["signatures"])


def test_nlg_score_prints_in_column_order():
    result = CliRunner().invoke(
        nlg_score,
        ["--profile", "e2e", "--refs", str(DEMO_DATA / "references.csv"),
         "--hyp", str(DEMO_DATA / "baseline.txt")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines if not line.startswith("#")] == E2E_COLUMNS
    assert [line.split()[1].rstrip(":") for line in lines if line.startswith("#")] == E2E_COLUMNS
