"""``nlg-human pairwise`` on judgement files."""

import json

import numpy as np
from click.testing import CliRunner

from scorer.cli.human import main


def write_campaign(path, strengths: dict[str, float], judgements: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    names = list(strengths)
    lines = ["item,system_a,system_b,winner,annotator"]
    for number in range(judgements):
        a, b = rng.choice(names, size=2, replace=False)
        p = 1 / (1 + np.exp(strengths[b] - strengths[a]))
        winner = "tie" if rng.random() < 0.1 else ("a" if rng.random() < p else "b")
        for annotator in ("x", "y")[: 1 + number % 2]:
            lines.append(f"{number},{a},{b},{winner},{annotator}")
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8-sig")


def test_pairwise_json_has_systems_win_rates_and_agreement(tmp_path):
    path = tmp_path / "pairs.csv"
    write_campaign(path, {"best": 2.0, "mid": 0.0, "worst": -2.0}, 400)
    command = ["pairwise", "--judgements", str(path), "--runs", "100", "--json"]
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert [row["system"] for row in payload["systems"]] == ["best", "mid", "worst"]
    first = payload["systems"][0]
    assert set(first) == {
        "system", "score", "interval", "rank_range", "cluster", "win_rate", "comparisons"
    }  # fmt: skip
    assert first["rank_range"] == [1, 1] and first["cluster"] == 1
    assert first["interval"][0] < first["score"] < first["interval"][1]
    assert payload["win_rate_matrix"]["systems"] == ["best", "mid", "worst"]
    assert payload["win_rate_matrix"]["rows"][0][0] is None
    assert (payload["ties"], payload["runs"], payload["judgements"]) == ("half", 100, 600)
    agreement = payload["agreement"]
    # every second item was judged twice, with the same verdict: perfect agreement
    assert agreement["krippendorff_alpha"] == 1.0 and agreement["level"] == "nominal"
    assert (agreement["units"], agreement["complete_share"]) == (400, 0.5)
    again = CliRunner().invoke(main, command)
    assert again.output == result.output
    judged_once = CliRunner().invoke(main, [*command, "--judges", "1", "--ties", "drop"])
    payload = json.loads(judged_once.output)
    assert payload["agreement"]["complete_share"] == 1.0 and payload["ties"] == "drop"
    assert payload["counted"] < payload["judgements"]


def test_pairwise_prints_a_table_with_cluster_lines(tmp_path):
    path = tmp_path / "pairs.csv"
    write_campaign(path, {"best": 2.0, "mid": 0.0, "worst": -2.0}, 600, seed=1)
    result = CliRunner().invoke(main, ["pairwise", "--judgements", str(path), "--runs", "50"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("900 judgements (900 counted, ties half), 50 runs")
    assert lines[2].split()[0] == "1" and lines[2].endswith("best")
    assert "·" * 24 in lines[3]
    assert lines[-1].startswith("agreement: Krippendorff's alpha (nominal) 1.000")


def test_pairwise_refuses_bad_files_and_options_with_the_place(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("item,system_a,system_b,winner,annotator\n1,a,b,a,x\n2,a,b,left,x\n")
    result = CliRunner().invoke(main, ["pairwise", "--judgements", str(path)])
    assert result.exit_code == 2
    assert "error: bad.csv, line 3: winner 'left' is not one of a, b, tie" in result.output
    few = CliRunner().invoke(main, ["pairwise", "--judgements", str(path), "--runs", "10"])
    assert few.exit_code == 2 and "--runs" in few.output
