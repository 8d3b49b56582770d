import json

from click.testing import CliRunner

from scorer.cli import main
from tests.support.paths import e2e_file


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
    assert abs(payload["BLEU"] - 0.5995) <= 0.0005
    assert "tok:13a" in payload["signature"]


def test_wrong_line_count_is_a_clear_error(tmp_path):
    refs = tmp_path / "refs.txt"
    refs.write_text("a b c\n\nd e f\n")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a b c\n")
    result = CliRunner().invoke(main, ["--profile", "e2e", "--refs", str(refs), "--hyp", str(hyp)])
    assert result.exit_code == 2
    assert "hyp.txt: expected 2 outputs" in result.output


def test_plain_table(tmp_path):
    refs = tmp_path / "refs.txt"
    refs.write_text("the cat sat on the mat\n\nthe dog ran in the park\n")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("the cat sat on the mat\nthe dog ran in the park\n")
    result = CliRunner().invoke(main, ["--profile", "e2e", "--refs", str(refs), "--hyp", str(hyp)])
    assert result.exit_code == 0
    assert result.output.startswith("BLEU  1.0000")
