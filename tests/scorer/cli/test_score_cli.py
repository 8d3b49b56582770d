import json

import pytest
from click.testing import CliRunner

from scorer.cli.score import main
from tests.support.paths import e2e_file, require_link_parser

NAMES = ["BLEU", "NIST", "METEOR", "ROUGE_L", "CIDEr", "norm_avg", "SER", "OK%", "A%", "M%", "A+M%"]


@pytest.mark.slow
def test_json_output_has_metric_names_and_signature():
    result = CliRunner().invoke(
        main,
        [
            "--profile",
            "e2e",
            "--refs",
            str(e2e_file("dev_loo_refs.csv")),
            "--hyp",
            str(e2e_file("dev_loo_output.tsv")),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert list(payload) == [*NAMES, "signature", "printed"]  # printed: as the kind does
    assert round(payload["BLEU"], 4) == 0.5995 and round(payload["NIST"], 4) == 8.5789
    assert "tok:13a" in payload["signature"]["BLEU"]
    assert "meteor-1.5" in payload["signature"]["METEOR"]


def test_wrong_line_count_is_a_clear_error(tmp_path):
    refs = tmp_path / "refs.txt"
    refs.write_text("a b c\n\nd e f\n")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a b c\n")
    result = CliRunner().invoke(main, ["--profile", "e2e", "--refs", str(refs), "--hyp", str(hyp)])
    assert result.exit_code == 2
    assert "hyp.txt: expected 2 outputs" in result.output


def test_plain_table_with_a_metric_subset(tmp_path):
    refs = tmp_path / "refs.txt"
    refs.write_text("the cat sat on the mat\n\nthe dog ran in the park\n")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("the cat sat on the mat\nthe dog ran in the park\n")
    result = CliRunner().invoke(
        main, ["--profile", "e2e", "--refs", str(refs), "--hyp", str(hyp), "--metrics", "BLEU"]
    )
    assert result.exit_code == 0
    assert result.output.startswith("BLEU  1.0000\n# BLEU: BLEU|mteval-v13a")


def test_unknown_metric_is_named(tmp_path):
    refs = tmp_path / "refs.txt"
    refs.write_text("a\n")
    result = CliRunner().invoke(
        main, ["--profile", "e2e", "--refs", str(refs), "--hyp", str(refs), "--metrics", "BLUE"]
    )
    assert result.exit_code == 2 and "BLUE not in profile e2e" in result.output


def test_compare_prints_a_paired_bootstrap(tmp_path):
    refs = tmp_path / "refs.txt"
    refs.write_text("\n\n".join(f"the place number {i} is near the river" for i in range(30)))
    good = tmp_path / "good.txt"
    good.write_text("\n".join(f"the place number {i} is near the river" for i in range(30)))
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(f"place {i} river" for i in range(30)))
    result = CliRunner().invoke(
        main,
        [
            "--profile",
            "e2e",
            "--refs",
            str(refs),
            "--hyp",
            str(good),
            "--compare",
            str(bad),
            "--metrics",
            "BLEU,NIST",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    bleu, nist = json.loads(result.output)
    assert bleu["metric"] == "BLEU" and bleu["difference"] > 0 and bleu["p_value"] < 0.05
    assert nist["metric"] == "NIST" and 0 < nist["low"] <= nist["high"]


def test_sr18_profile_reads_text_blocks_and_takes_metric_names(tmp_path):
    refs = tmp_path / "en-ud-test_sentences.txt"
    refs.write_text("# sent_id = 1\n# text = The cat sat on the mat .\n\n# text = It rains .\n\n")
    hyp = tmp_path / "en_out.txt"
    hyp.write_text("# sent_id = 1\n# text = the cat on the mat .\n\n# sent_id = 2\n# text = it .\n")
    args = ["--profile", "sr18", "--refs", str(refs), "--hyp", str(hyp), "--json"]
    result = CliRunner().invoke(main, [*args, "--metrics", "BLEU,DIST"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert list(payload) == ["BLEU", "DIST", "signature", "printed"]
    assert round(payload["BLEU"], 2) == 47.88 and payload["DIST"] == 80.0
    assert "sr18-eval_Py3" in payload["signature"]["BLEU"]
    unknown = CliRunner().invoke(main, [*args, "--metrics", "METEOR"])
    assert unknown.exit_code == 2
    assert "not in profile sr18 (BLEU, NIST, DIST, DIST_char, coverage)" in unknown.output


def test_sr18_profile_is_also_named_by_track_kind(tmp_path):
    refs = tmp_path / "refs.txt"
    refs.write_text("# text = It rains .\n")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("it rains .\n")
    for kind in ("sr-shallow", "sr-deep"):
        args = ["--profile", kind, "--refs", str(refs), "--hyp", str(hyp), "--json"]
        result = CliRunner().invoke(main, [*args, "--metrics", "DIST"])
        assert result.exit_code == 0, result.output
        payload = json.loads(result.output)
        assert payload["DIST"] == 100.0 and "profile:sr18" in payload["signature"]["DIST"]


def test_describe_adds_textual_statistics_and_d_levels(tmp_path):
    require_link_parser()
    refs = tmp_path / "refs.csv"
    refs.write_text(
        'mr,ref\n"name[The Eagle], eatType[pub]","The Eagle is a pub."\n'
        '"name[Aromi], eatType[coffee shop]","If you like coffee, try Aromi."\n'
    )
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("The Eagle is a pub.\nIf you like coffee, try Aromi.\n")
    args = ["--profile", "e2e", "--refs", str(refs), "--hyp", str(hyp), "--metrics", "BLEU"]
    result = CliRunner().invoke(main, [*args, "--describe", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["described"]["D-level 0 %"] == 50.0 and payload["described"]["D-level 5 %"] == 50
    assert payload["described"]["tokens"] == 13  # "X-name is a pub ." + 8
    assert "dlevel:linkgrammar" in payload["described_signature"]
    plain = CliRunner().invoke(main, [*args, "--describe"])
    assert "D-level mean" in plain.output and "# described: textstats|" in plain.output


def test_describe_needs_mrs(tmp_path):
    refs = tmp_path / "refs.txt"
    refs.write_text("a b c\n")
    result = CliRunner().invoke(
        main, ["--profile", "e2e", "--refs", str(refs), "--hyp", str(refs), "--describe"]
    )
    assert result.exit_code == 2 and "--describe needs" in result.output


def _tiny_e2e(tmp_path):
    refs = tmp_path / "refs.csv"
    refs.write_text('mr,ref\n"name[Aromi]","Aromi is a pub."\n"name[Zizzi]","Zizzi is a cafe."\n')
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("Aromi is a pub.\nZizzi is a restaurant.\n")
    return ["--profile", "e2e", "--refs", str(refs), "--hyp", str(hyp), "--metrics", "METEOR"]


def test_the_jars_without_java_is_a_clear_error(tmp_path, monkeypatch):
    from scorer.java import implementation
    from scorer.java import jars as java

    monkeypatch.setenv(implementation.VARIABLE, "python")  # restored after --meteor jar
    monkeypatch.setattr(java.shutil, "which", lambda name: None)
    result = CliRunner().invoke(main, [*_tiny_e2e(tmp_path), "--meteor", "jar"])
    assert result.exit_code == 2
    assert "need a Java runtime" in result.output and "default Python" in result.output


def test_an_unknown_implementation_is_a_clear_error(tmp_path, monkeypatch):
    from scorer.java import implementation

    monkeypatch.setenv(implementation.VARIABLE, "java")
    result = CliRunner().invoke(main, _tiny_e2e(tmp_path))
    assert result.exit_code == 2
    assert "NLGBOARD_METEOR='java': choose one of python, jar" in result.output


def test_the_python_default_needs_no_java(tmp_path, monkeypatch):
    from scorer.java import implementation
    from scorer.java import jars as java

    monkeypatch.delenv(implementation.VARIABLE, raising=False)
    monkeypatch.setattr(java.shutil, "which", lambda name: None)
    result = CliRunner().invoke(main, [*_tiny_e2e(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert 0 < payload["METEOR"] < 1 and "impl:python" in payload["signature"]["METEOR"]
