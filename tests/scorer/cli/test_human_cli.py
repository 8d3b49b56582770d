"""Reading judgement files, and ``nlg-human`` on them."""

import json

import pytest
from click.testing import CliRunner

from scorer.cli.human import main
from scorer.errors import InputError
from scorer.human.judgements import read_judgements, read_judgements_at, read_ratings
from tests.support.human import da_hit, rankme_campaign
from tests.support.paths import e2e_file

E2E_HEADER = "_unit_id,_worker_id,mr_id,sys1,sys2,sys3,quality1,quality2,quality3\n"


def test_out_of_range_rankme_values_are_kept_raw_and_reported():
    """Only the order counts, as in the organisers' TrueSkill script: 111111 beats 100."""
    data = (
        E2E_HEADER + "1,w1,7,slug,tgen,chen,111111,100,-5\n2,w2,7,slug,tgen,chen,x,,90\n"
    ).encode()
    ratings = read_ratings(data, "quality.csv")
    first, second = ratings.rankings
    assert first.scores == {"slug": 111111.0, "tgen": 100.0, "chen": -5.0}
    assert second.scores == {"chen": 90.0} and second.annotator == "w2"
    assert ratings.out_of_scale == ["line 2 quality1='111111'", "line 2 quality3='-5'"]
    assert ratings.skipped == ["line 3 quality1='x'", "line 3 quality2=''"]


def test_criterion_must_be_in_the_file():
    data = (E2E_HEADER + "1,w1,7,slug,tgen,chen,1,2,3\n").encode()
    with pytest.raises(InputError, match="--criterion naturalness is not among quality"):
        read_ratings(data, "quality.csv", "naturalness")


def test_long_csv_errors_name_the_line():
    header = "item,system,annotator,criterion,score\n"
    with pytest.raises(InputError, match=r"j.csv, line 3: score '150'"):
        read_judgements((header + "1,a,x,quality,50\n1,b,x,quality,150\n").encode(), "j.csv")
    with pytest.raises(InputError, match=r"line 1: lacks the column\(s\) score"):
        read_judgements(b"item,system,annotator,criterion\n1,a,x,q\n", "j.csv")
    with pytest.raises(InputError, match="line 2: kind 'fake'"):
        read_judgements(b"item,system,annotator,criterion,score,kind\n1,a,x,q,5,fake\n", "j.csv")
    with pytest.raises(InputError, match="line 2: 4 fields where the header has 5"):
        read_judgements((header + "1,a,x,quality\n").encode(), "j.csv")


def test_long_csv_groups_into_rankings_per_item_and_annotator():
    rows = "".join(
        f"{item},{system},{annotator},quality,{score}\n"
        for item, system, annotator, score in [
            (1, "a", "x", 90), (1, "b", "x", 80), (1, "a", "y", 10), (1, "b", "y", 20),
        ]
    )  # fmt: skip
    ratings = read_ratings(("item,system,annotator,criterion,score\n" + rows).encode(), "l.csv")
    assert [r.scores for r in ratings.rankings] == [{"a": 90, "b": 80}, {"a": 10, "b": 20}]


def test_trueskill_command_on_the_published_layout():
    path = e2e_file("human_ratings_quality_sample.csv")
    result = CliRunner().invoke(
        main, ["trueskill", "--ratings", str(path), "--runs", "40", "--json"]
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["criterion"] == "quality" and payload["comparisons"] == 400
    assert payload["runs"] == 40 and len(payload["systems"]) == 19
    assert payload["clusters"] == "trueskill"
    first = payload["systems"][0]
    assert set(first) == {"cluster", "system", "mu", "sigma", "rank", "comparisons"}
    assert first["cluster"] == 1 and first["rank"][0] == 1


def test_trueskill_command_prints_table_11_layout(tmp_path):
    path = tmp_path / "long.csv"
    quality = {"slug": 95, "tgen": 60, "zhang": 58, "chen": 20, "sheff2": 18, "x": 40}
    lines = ["item,system,annotator,criterion,score"]
    for number, scores in enumerate(rankme_campaign(quality, rankings=300, noise=5)):
        lines += [f"{number},{s},a{number % 7},quality,{v:g}" for s, v in scores.items()]
    path.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(main, ["trueskill", "--ratings", str(path), "--runs", "40"])
    assert result.exit_code == 0, result.output
    table = result.output.splitlines()
    cluster, _, ranks, system = table[2].split()
    assert (cluster, ranks, system) == ("1", "1-1", "slug")
    assert "·" * 24 in result.output
    rows = [line.split() for line in table[2:] if "·" not in line]
    assert {rows[-1][-1], rows[-2][-1]} == {"chen", "sheff2"}
    assert "(wmt)" in table[0]


def test_da_command_writes_the_table_and_a_heatmap(tmp_path):
    quality = {"adapt": 80, "osu": 70, "axe": 35}
    judgements = da_hit("a1", quality, 15, careful=True, seed=1) + da_hit(
        "a2", quality, 15, careful=False, seed=2
    )
    path = tmp_path / "da.csv"
    path.write_text(
        "item,system,annotator,criterion,score,kind\n"
        + "".join(
            f"{j.item},{j.system},{j.annotator},{j.criterion},{j.score:g},{j.kind}\n"
            for j in judgements
        )
    )
    svg = tmp_path / "heat.svg"
    result = CliRunner().invoke(
        main, ["da", "--judgements", str(path), "--criterion", "readability", "--heatmap", str(svg)]
    )
    assert result.exit_code == 0, result.output
    assert "1 of 2 annotators passed quality control" in result.output
    assert result.output.splitlines()[2].endswith("adapt")
    assert svg.read_text().startswith("<?xml") and "osu" in svg.read_text()


def test_da_command_without_quality_control_keeps_everyone_and_says_why_not_otherwise(tmp_path):
    path = tmp_path / "plain.csv"
    path.write_text(
        "item,system,annotator,criterion,score\n"
        + "".join(
            f"i{n},s{k},a{n % 2},fluency,{40 + 20 * k + n}\n" for n in range(6) for k in (1, 2)
        )
    )
    command = ["da", "--judgements", str(path), "--criterion", "fluency"]
    refused = CliRunner().invoke(main, command)
    assert refused.exit_code == 2
    assert "none of the 2 annotators passed" in refused.output
    assert "'without_damaged_copies': 2" in refused.output and "--quality-control" in refused.output
    result = CliRunner().invoke(main, [*command, "--quality-control", "none"])
    assert result.exit_code == 0, result.output
    assert "2 of 2 annotators passed quality control none" in result.output
    bad = CliRunner().invoke(main, [*command, "--quality-control", "damage"])
    assert bad.exit_code == 2 and "'damage'" in bad.output


def test_correlate_and_rose_commands(tmp_path):
    scores = tmp_path / "scores.csv"
    scores.write_text(
        "system,human,BLEU,DIST\na,1,0.1,5\nb,2,0.25,3\nc,3,0.3,9\nd,4,0.45,1\ne,5,0.5,4\n"
    )
    result = CliRunner().invoke(
        main, ["correlate", "--scores", str(scores), "--human", "human", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["pearson"]["BLEU"] > 0.98
    judgements = tmp_path / "rose.csv"
    judgements.write_text(
        "item,system,annotator,criterion,score,subset\n"
        "1,char,e,semantics,1,tense\n1,char,e,grammaticality,1,tense\n"
        "1,char,e,phenomenon,0,tense\n"
    )
    result = CliRunner().invoke(main, ["rose", "--judgements", str(judgements)])
    assert result.exit_code == 0, result.output
    assert "100.0  100.0    0.0    0.0     1  char / tense" in result.output


def test_bad_files_exit_2_with_the_place(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("item,system,annotator,criterion,score\n1,a,x,quality,abc\n")
    result = CliRunner().invoke(main, ["trueskill", "--ratings", str(path)])
    assert result.exit_code == 2
    assert "error: bad.csv, line 2: score 'abc' is not a number from 0 to 100" in result.output


def write_system_folder(folder, ratings):
    """The WebNLG+ 2020 organisers' layout: <system>/primary.json, {sample: {annotator: {...}}}."""
    for system, samples in ratings.items():
        (folder / system).mkdir(parents=True)
        (folder / system / "primary.json").write_text(json.dumps(samples))


def test_da_command_reads_the_organisers_folder_and_names_its_cluster_procedure(tmp_path):
    """A beats C, neither A-B nor B-C differ (tests/scorer/human/test_clusters.py's example)."""
    scores = {"A": [60, 70, 80, 90, 100], "B": [15, 45, 55, 65, 95], "C": [10, 20, 30, 40, 50]}
    write_system_folder(
        tmp_path,
        {
            system: {str(n): {"w1": {"Fluency": value}} for n, value in enumerate(values)}
            for system, values in scores.items()
        },
    )
    command = ["da", "--judgements", str(tmp_path), "--criterion", "Fluency"]
    command += ["--quality-control", "none", "--json"]
    runs = {
        procedure: CliRunner().invoke(main, [*command, "--clusters", procedure])
        for procedure in ("wmt", "webnlg2020")
    }
    for procedure, result in runs.items():
        assert result.exit_code == 0, result.output
        payload = json.loads(result.output)
        assert payload["clusters"] == procedure
        assert [row["system"] for row in payload["systems"]] == ["A", "B", "C"]
        assert payload["systems"][1]["raw"] == 55 and payload["systems"][1]["n"] == 5
    rows = {procedure: json.loads(result.output)["systems"] for procedure, result in runs.items()}
    assert [row["cluster"] for row in rows["wmt"]] == [1, 1, 1]
    assert [row["cluster"] for row in rows["webnlg2020"]] == [1, 1, 2]
    default = CliRunner().invoke(main, command)
    assert json.loads(default.output)["clusters"] == "wmt"
    refused = CliRunner().invoke(main, [*command, "--clusters", "trueskill"])
    assert refused.exit_code == 2 and "'wmt', 'webnlg2020'" in refused.output


def test_the_organisers_folder_is_refused_naming_the_file_and_the_place(tmp_path):
    write_system_folder(tmp_path / "bad", {"A": {"7": {"w1": {"Fluency": "high"}}}})
    with pytest.raises(InputError, match=r"A/primary.json: sample 7, annotator w1, Fluency: "
                       r"'high' is not a number from 0 to 100"):  # fmt: skip
        read_judgements_at(tmp_path / "bad")
    (tmp_path / "broken" / "A").mkdir(parents=True)
    (tmp_path / "broken" / "A" / "primary.json").write_text('{"7": {"w1":\n {"Fluency": 5,}}}')
    with pytest.raises(InputError, match=r"A/primary.json, line 2: not JSON"):
        read_judgements_at(tmp_path / "broken")
    (tmp_path / "broken" / "B").mkdir()
    with pytest.raises(InputError, match=r"subfolder\(s\) B hold no primary.json"):
        read_judgements_at(tmp_path / "broken")
    with pytest.raises(InputError, match="has no subfolder"):
        read_judgements_at(tmp_path / "broken" / "B")


def test_likert_command_prints_means_subsets_and_clusters(tmp_path):
    """Two systems, 1-3: s1's outputs 8/3, 3/2, 9/4 (mean 77/36), s2's 1, 4/3, 7/3 (14/9);
    a team column keeps two teams' "primary" apart."""
    rows = [("1", "seen", [3, 3, 2], [1, 1, 1]), ("2", "seen", [1, 2], [2, 1, 1]),
            ("3", "unseen", [2, 2, 2, 3], [2, 3, 2])]  # fmt: skip
    path = tmp_path / "likert.csv"
    path.write_text(
        "item,system,team,annotator,criterion,score,subset\n"
        + "".join(
            f"{item},primary,{team},j{n},semantics,{point},{subset}\n"
            for item, subset, first, second in rows
            for team, points in (("t1", first), ("t2", second))
            for n, point in enumerate(points)
        )
    )
    command = ["likert", "--judgements", str(path), "--criterion", "semantics"]
    result = CliRunner().invoke(main, [*command, "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert (payload["scale"], payload["scale_from"], payload["aggregate"]) == (
        "1-3",
        "data",
        "mean",
    )
    assert payload["clusters"] == "wmt" and payload["direction"] == "higher"
    first, second = payload["systems"]
    assert first["system"] == "t1 / primary" and first["mean"] == pytest.approx(77 / 36)
    assert (first["n"], first["judgements"], first["cluster"]) == (3, 9, 1)
    assert first["subsets"]["unseen"] == {"mean": 2.25, "n": 1}
    assert second["system"] == "t2 / primary" and second["mean"] == pytest.approx(14 / 9)
    assert set(payload["wilcoxon"]) == {"t1 / primary", "t2 / primary"}
    text = CliRunner().invoke(main, [*command, "--scale", "1-5", "--clusters", "webnlg2020"])
    assert text.exit_code == 0, text.output
    assert "scale 1-5, higher is better" in text.output and "clusters: webnlg2020" in text.output
    assert text.output.splitlines()[2].split() == ["1", "2.139", "3", "2.083", "2.250", "t1", "/",
                                                   "primary"]  # fmt: skip


def test_likert_command_refuses_a_point_off_the_scale_naming_the_line(tmp_path):
    path = tmp_path / "off.csv"
    path.write_text("item,system,annotator,criterion,score\n1,a,x,fluency,2\n1,b,x,fluency,4\n")
    command = ["likert", "--judgements", str(path), "--criterion", "fluency"]
    result = CliRunner().invoke(main, [*command, "--scale", "1-3"])
    assert result.exit_code == 2
    assert "error: off.csv, line 3: score 4 is off the scale 1-3 of fluency" in result.output
    named = CliRunner().invoke(main, [*command, "--scale", "bad,good"])
    assert named.exit_code == 2  # a named scale also takes its points' numbers, 1 and 2 here
    assert "line 3: score 4 is off the scale bad,good of fluency" in named.output
    bad = CliRunner().invoke(main, [*command, "--scale", "1-x"])
    assert bad.exit_code == 2 and "scale '1-x': give LOW-HIGH" in bad.output


def test_likert_and_da_report_krippendorffs_alpha_as_the_package_computes_it(tmp_path):
    import krippendorff
    import numpy as np

    points = {("1", "a"): [3, 3, 2], ("1", "b"): [1, 2, 1], ("2", "a"): [2, 2],
              ("2", "b"): [1, 1, 3], ("3", "a"): [3, 2, 3], ("3", "b"): [2]}  # fmt: skip
    path = tmp_path / "likert.csv"
    path.write_text(
        "item,system,annotator,criterion,score\n"
        + "".join(
            f"{item},{system},j{n},fluency,{point}\n"
            for (item, system), values in points.items()
            for n, point in enumerate(values)
        )
    )
    matrix = np.full((3, len(points)), np.nan)
    for unit, values in enumerate(points.values()):
        matrix[: len(values), unit] = values
    expected = krippendorff.alpha(reliability_data=matrix, level_of_measurement="interval")
    for command in (["likert"], ["da", "--quality-control", "none"]):
        result = CliRunner().invoke(
            main, [*command, "--judgements", str(path), "--criterion", "fluency", "--json"]
        )
        assert result.exit_code == 0, result.output
        found = json.loads(result.output)["agreement"]
        assert found["level"] == "interval" and found["units"] == 6
        assert found["krippendorff_alpha"] == pytest.approx(expected, abs=1e-6)
        plain = CliRunner().invoke(
            main, [*command, "--judgements", str(path), "--criterion", "fluency"]
        )
        assert "agreement: Krippendorff's alpha (interval)" in plain.output


def test_too_few_trueskill_runs_are_a_usage_error_not_a_traceback(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("item,system,annotator,criterion,score\n1,a,x,quality,90\n1,b,x,quality,10\n")
    result = CliRunner().invoke(main, ["trueskill", "--ratings", str(path), "--runs", "2"])
    assert result.exit_code == 2, result.output  # click's usage error, no traceback
    assert "--runs" in result.output and "40" in result.output
