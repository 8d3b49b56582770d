"""``nlg-score`` on the WebNLG+ 2020 English dev folder with the example kind (the
leaderboard's): the dev set has no instance-types file, so the kind's ``type`` subsets are left
out and said so, and every figure carries the board's own signature (profile digest)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from scorer.cli.score import main
from scorer.io.folders import folder_as_zip
from scorer.kinds import build_profile, read_kinds
from scorer.kinds.parts import webnlg_references
from tests.support.paths import DEMO_DATA, SHARED_DATA, shared_file

DEV = SHARED_DATA / "webnlg" / "2020" / "en" / "dev"
KINDS = DEMO_DATA / "webnlg" / "challenge.yaml"


def test_the_english_dev_folder_scores_with_the_boards_kind_and_signature(tmp_path):
    items = webnlg_references(*folder_as_zip(shared_file(DEV), ".xml"), language="en")
    hyp = tmp_path / "dev_output.txt"
    hyp.write_text("".join(item.references[-1] + "\n" for item in items))
    args = ["--profile", "webnlg2020-en", "--kinds", str(KINDS), "--refs", str(DEV)]
    result = CliRunner().invoke(
        main, [*args, "--hyp", str(hyp), "--metrics", "BLEU,chrF++", "--json"]
    )
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    board = build_profile(read_kinds(KINDS.read_bytes(), KINDS.name)["webnlg2020-en"])
    assert found["signature"] == {m: board.column_signature(m) for m in ("BLEU", "chrF++")}
    assert found["skipped_subsets"] == ["type"]
    assert "subsets of type left out" in found["notes"][0]
    assert "note: " in result.stderr and "subsets of type left out" in result.stderr
    assert found["subsets"] == {} and found["items"] == {"all": len(items)} == {"all": 1667}
    assert 0 < found["BLEU"] < 100


def test_figures_are_printed_as_the_kind_declares_beside_the_stored_ones():
    """WebNLG+ 2020's kind: ``scale: {BLEU: 0.01}, decimals: 3``, as the board shows it; the
    JSON keeps the stored numbers where they were and adds ``printed``."""
    webnlg = DEMO_DATA / "webnlg"
    args = ["--profile", "webnlg2020-en", "--kinds", str(KINDS), "--refs", str(webnlg / "test")]
    args += ["--hyp", str(webnlg / "team_output.txt"), "--metrics", "BLEU,TER"]
    table = CliRunner().invoke(main, args)
    found = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    board = build_profile(read_kinds(KINDS.read_bytes(), KINDS.name)["webnlg2020-en"])
    assert found["printed"] == {
        "BLEU": board.printed("BLEU", found["BLEU"]),
        "TER": board.printed("TER", found["TER"]),
    }
    assert found["printed"]["BLEU"] == f"{round(found['BLEU'] / 100, 3):.3f}"
    assert 1 < found["BLEU"] <= 100  # stored on 0-100, as before
    lines = table.stdout.splitlines()
    assert lines[0] == f"BLEU  {found['printed']['BLEU']}  ({found['BLEU']:.4f} stored)"
    assert lines[1] == f"TER   {found['printed']['TER']}"
    assert any(
        line.startswith("type      seen categories") and " BLEU 0." in line for line in lines
    )
